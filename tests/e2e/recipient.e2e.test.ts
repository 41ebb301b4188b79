// Links that open for anyone: files uploaded by the real extension in client mode (both API
// variants) are opened where Hushdrop is not installed, in a plain Chromium at desktop and phone
// size and in a plain Firefox, through the recipient page and the browser's own download. The
// saved file must equal the original, and no request the server received may hold the key.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, devices, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_UPLOAD } from '../../lib/settings';
import { findInRecorded, type ReferenceServer, startServer } from '../server/server';
import { seriousViolations } from './checks';
import { type FirefoxExtension, launchFirefox } from './firefox-harness';
import { launchExtension, screenshot, serverSettings, uploadThroughPage } from './harness';

interface Uploaded {
  link: string;
  original: Buffer;
  name: string;
}

let server: ReferenceServer;
let dataDir: string;
let chromiumBrowser: Browser;
const uploads: Record<'current' | 'legacy' | 'oneView', Uploaded> = {} as never;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'hushdrop-e2e-recipient-'));
  server = await startServer({ dataDir, record: true });
  // The sender: the real extension, client mode (the default), each variant.
  const sender = await launchExtension();
  try {
    const upload = async (variant: 'current' | 'legacy', name: string, extra = {}) => {
      await sender.setSettings(serverSettings(server, variant, extra));
      const original = randomBytes(3 * 1024 * 1024 + 17);
      const link = await uploadThroughPage(sender, { name, mimeType: 'application/pdf', buffer: original });
      expect(link).toMatch(/#[A-Za-z0-9]{32}$/);
      return { link, original, name };
    };
    uploads.current = await upload('current', 'Bericht März.pdf');
    uploads.legacy = await upload('legacy', 'legacy report.pdf');
    uploads.oneView = await upload('legacy', 'once.pdf', {
      defaults: { ...DEFAULT_UPLOAD, expireUnit: 'view', expireLength: 1 },
    });
  } finally {
    await sender.close();
  }
  chromiumBrowser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    // Running as root (the test machine) needs it; it changes nothing the page can see.
    args: ['--no-sandbox'],
  });
});

afterAll(async () => {
  await chromiumBrowser?.close();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Opens a link in a Chromium page, presses the page's button, and returns the saved file. */
async function saveInChromium(page: Page, link: string): Promise<{ bytes: Buffer; name: string }> {
  await page.goto(link);
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download').click()]);
  const path = await download.path();
  await page.locator('.done').waitFor();
  return { bytes: readFileSync(path), name: download.suggestedFilename() };
}

describe('a plain Chromium, no extension', () => {
  let ctx: BrowserContext;
  beforeAll(async () => {
    ctx = await chromiumBrowser.newContext({ acceptDownloads: true });
  });
  afterAll(() => ctx.close());

  for (const variant of ['current', 'legacy'] as const) {
    it(`desktop: the ${variant} link saves the original file, with its name`, async () => {
      const { link, original, name } = uploads[variant];
      const page = await ctx.newPage();
      const saved = await saveInChromium(page, link);
      expect(saved.name).toBe(name);
      expect(saved.bytes.equals(original)).toBe(true);
      expect(await page.locator('main').textContent()).toContain(`Done: “${name}” is in your downloads.`);
      // It went through the service worker, not the in-memory way.
      expect(
        await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length)),
      ).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `recipient-chromium-${variant}`);
      await page.close();
    });
  }

  it('where no service worker may run, the file is decrypted in memory and saved the same', async () => {
    const blocked = await chromiumBrowser.newContext({ acceptDownloads: true, serviceWorkers: 'block' });
    try {
      const page = await blocked.newPage();
      const saved = await saveInChromium(page, uploads.legacy.link);
      expect(saved.bytes.equals(uploads.legacy.original)).toBe(true);
      expect(saved.name).toBe(uploads.legacy.name);
      expect(
        await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length)),
      ).toBe(0);
    } finally {
      await blocked.close();
    }
  });

  it('a link without its key says that a key is needed, and offers no download', async () => {
    const page = await ctx.newPage();
    await page.goto(uploads.current.link.split('#')[0]!);
    await expect.poll(() => page.locator('[role="alert"]').textContent()).toMatch(/has no key/);
    expect(await page.locator('[role="alert"]').textContent()).toMatch(/Ask the sender for the whole link/);
    expect(await page.locator('#download').count()).toBe(0);
    await screenshot(page, 'recipient-chromium-no-key');
    await page.close();
  });
});

describe('a phone-sized Chromium (mobile emulation), in German', () => {
  it('the current link saves the original file', async () => {
    const ctx = await chromiumBrowser.newContext({
      ...devices['Pixel 7'],
      locale: 'de-DE',
      acceptDownloads: true,
    });
    try {
      const page = await ctx.newPage();
      await page.goto(uploads.current.link);
      const button = page.locator('#download');
      await expect.poll(() => button.textContent()).toBe('Herunterladen und entschlüsseln');
      // The button fits the narrow screen and is big enough to tap.
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
      expect(box.height).toBeGreaterThanOrEqual(44);
      const [download] = await Promise.all([page.waitForEvent('download'), button.tap()]);
      expect(readFileSync(await download.path()).equals(uploads.current.original)).toBe(true);
      await expect.poll(() => page.locator('.done').textContent()).toContain('ist bei Ihren Downloads');
      await screenshot(page, 'recipient-phone-de');
    } finally {
      await ctx.close();
    }
  });
});

describe('a plain Firefox, no extension', () => {
  let fx: FirefoxExtension;
  beforeAll(async () => {
    fx = await launchFirefox({ extension: false });
  });
  afterAll(() => fx?.close());

  for (const variant of ['current', 'legacy'] as const) {
    it(`the ${variant} link saves the original file, with its name`, async () => {
      const { link, original, name } = uploads[variant];
      const page = await fx.openUrl(link);
      await page.waitFor('#download');
      const saved = await fx.download(() => page.click('#download'));
      expect(saved.fileName).toBe(name);
      expect(readFileSync(saved.path).equals(original)).toBe(true);
      await page.waitFor('.done');
      await page.screenshot(`recipient-${variant}`);
      await page.close();
    });
  }
});

describe('a one-download link', () => {
  it('survives three link previews, gives the file to the first person and not to the second', async () => {
    const { link, original } = uploads.oneView;
    const url = link.split('#')[0]!;
    const fileName = new URL(url).pathname.split('/').pop()!;
    expect(server.stored(fileName)?.maxDownloads).toBe(1);
    // Slack, WhatsApp and Discord fetch a pasted link to build a card; each gets the page.
    for (const headers of [
      { 'User-Agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', Accept: '*/*' },
      { 'User-Agent': 'WhatsApp/2.23.20.0 A', Accept: 'text/html,*/*;q=0.8' },
      { 'User-Agent': 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)', Accept: '*/*' },
    ]) {
      const res = await fetch(link, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
    expect(server.stored(fileName)?.downloads).toBe(0);

    const first = await chromiumBrowser.newContext({ acceptDownloads: true });
    const second = await chromiumBrowser.newContext({ acceptDownloads: true });
    try {
      // The second person has the page open already, before the first one downloads.
      const late = await second.newPage();
      await late.goto(link);
      await late.locator('#download').waitFor();

      const saved = await saveInChromium(await first.newPage(), link);
      expect(saved.bytes.equals(original)).toBe(true);

      let downloads = 0;
      late.on('download', () => downloads++);
      await late.locator('#download').click();
      await expect.poll(() => late.locator('[role="alert"]').textContent()).toMatch(/no longer here/);
      await screenshot(late, 'recipient-used-up');
      expect(downloads).toBe(0);
      // And a fresh visit finds nothing at all.
      const again = await second.newPage();
      expect((await again.goto(link))?.status()).toBe(404);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe('what the server received', () => {
  it('no request held a key: not as text, hex or base64', () => {
    const keys = Object.values(uploads).map((u) => u.link.split('#')[1]!);
    const pagesAndBytes = server.requests.filter((r) =>
      /\/_hushdrop\/(recipient\.js|sw\.js|file\/)/.test(r.url),
    );
    // The search covered the recipients' requests: script, worker and byte requests of every opening.
    expect(pagesAndBytes.length).toBeGreaterThanOrEqual(10);
    for (const key of keys) {
      const bytes = Buffer.from(key, 'utf8');
      for (const form of [key, bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')])
        expect(findInRecorded(server, Buffer.from(form)), form).toEqual([]);
    }
    // The search finds what is there: each upload's file name was sent, in its form.
    expect(findInRecorded(server, Buffer.from('once.pdf')).length).toBeGreaterThan(0);
  });
});
