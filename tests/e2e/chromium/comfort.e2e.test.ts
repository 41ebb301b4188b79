// Everyday comfort: every page in both colour schemes (screenshots, and axe finds nothing serious),
// and a link handed to a phone as a QR code (read back from the screen with a QR decoder, so the
// test proves what a camera would see).
// Chromium only: it leans on what Playwright gives and the Firefox driver has not (yet): colour
// schemes emulated per page (emulateMedia), Tab presses with the focus ring read back, and the
// keyboard command dispatched in the service worker (commands.onCommand).
import { randomBytes } from 'node:crypto';
import jsQR from 'jsqr';
import type { Locator } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLink } from '../../../devkit/links';
import { startTestServer, type TestServer } from '../../testkit/server';
import { seriousViolations } from '../support/axe';
import { startSite } from '../support/site';
import { type ExtensionBrowser, launchExtension, screenshot, serverSettings, submitFile } from './harness';

declare const chrome: any;

let browser: ExtensionBrowser;
let ref: TestServer;

beforeAll(async () => {
  ref = await startTestServer();
  browser = await launchExtension();
  await browser.setSettings(serverSettings(ref.server, 'current'));
});

afterAll(async () => {
  await browser?.close();
  await ref?.stop();
});

/** What a QR reader sees in the element's pixels. */
async function readQr(element: Locator): Promise<string | undefined> {
  const png = PNG.sync.read(await element.screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

describe('a link for the phone', () => {
  it('after an upload and in the uploads list, the QR code holds the whole link, and says so', async () => {
    const page = await browser.open('upload.html');
    const job = await submitFile(page, {
      name: 'phone.txt',
      mimeType: 'text/plain',
      buffer: randomBytes(500),
    });
    const link = await job.locator('input[id^="link-"]').inputValue();
    await job.getByRole('button', { name: 'QR code' }).click();
    const qr = job.getByRole('img', { name: /QR code of the link to phone\.txt/ });
    expect(await readQr(qr)).toBe(link);
    expect(await job.locator('figcaption').textContent()).toMatch(/key included/);
    await screenshot(page, 'upload-qr');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();

    const uploads = await browser.open('uploads.html');
    const row = uploads.locator('tbody tr', { hasText: 'phone.txt' });
    // In the list the QR code is in the row's menu, beside the two deletions.
    await row.getByRole('button', { name: /^More/ }).click();
    await row.getByRole('menuitem', { name: 'QR code' }).click();
    expect(await readQr(row.getByRole('img', { name: /QR code/ }))).toBe(link);
    await row.getByRole('button', { name: /^More/ }).click();
    await row.getByRole('menuitem', { name: 'Hide QR code' }).click();
    expect(await row.getByRole('img', { name: /QR code/ }).count()).toBe(0);
    await uploads.close();
  });
});

const PAGES = ['upload.html', 'popup.html', 'options.html', 'uploads.html', 'viewer.html', 'payment.html'];

/** Every page in one scheme: it really is light or dark, a screenshot, and axe finds nothing serious. */
async function everyPage(on: ExtensionBrowser, scheme: 'light' | 'dark', suffix: string) {
  for (const path of PAGES) {
    const page = await on.ctx.newPage();
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(on.url(path));
    await page.locator('h1, h2').first().waitFor();
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g)!.map(Number);
    const luminance = (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
    if (scheme === 'dark') expect(luminance, `${path} background ${bg}`).toBeLessThan(0.3);
    else expect(luminance, `${path} background ${bg}`).toBeGreaterThan(0.7);
    await screenshot(page, `every-${path.replace('.html', '')}-${suffix}-${scheme}`);
    expect(await seriousViolations(page), `${path} in ${scheme}`).toEqual([]);
    await page.close();
  }
}

describe('both colour schemes', () => {
  for (const scheme of ['light', 'dark'] as const)
    it(`every page follows the ${scheme} scheme, with contrast axe accepts`, async () => {
      await everyPage(browser, scheme, 'en');
    });
});

describe('in German', () => {
  let de: ExtensionBrowser;
  beforeAll(async () => {
    de = await launchExtension({ lang: 'de' });
    await de.setSettings(serverSettings(ref.server, 'current'));
  });
  afterAll(async () => {
    await de?.close();
  });

  it('the pages and a finished upload speak German, with German numbers', async () => {
    const page = await de.open('upload.html');
    expect(await page.locator('h1').textContent()).toBe('Datei hochladen');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    const job = await submitFile(page, {
      name: 'zahlen.txt',
      mimeType: 'text/plain',
      buffer: randomBytes(1536),
    });
    expect(await job.textContent()).toMatch(/Hochgeladen\./);
    expect(await job.locator('h3').textContent()).toContain('(1,5 KiB)');
    await page.close();
    const options = await de.open('options.html');
    expect(await options.locator('#shortcuts-h').textContent()).toBe('Tastenkürzel');
    await options.close();
  });

  for (const scheme of ['light', 'dark'] as const)
    it(`every page in German, ${scheme}: screenshots, and axe finds nothing serious`, async () => {
      await everyPage(de, scheme, 'de');
    });
});

describe('keyboard shortcuts', () => {
  it('the uploads list works from the keyboard alone, every stop with a visible focus ring', async () => {
    const page = await browser.open('uploads.html');
    await page.locator('tbody tr').first().waitFor();
    const stops: string[] = [];
    for (let i = 0; i < 60 && !stops.some((s) => s.startsWith('More – ')); i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        // A visually hidden input shows its focus on the label that stands for it.
        const label =
          el.classList.contains('sr-only') && el.id && document.querySelector(`label[for="${el.id}"]`);
        const style = getComputedStyle(label || el);
        return {
          name: (
            el.getAttribute('aria-label') ||
            (/^(INPUT|SELECT)$/.test(el.tagName) ? el.id : el.textContent) ||
            el.tagName
          ).trim(),
          outline: `${style.outlineStyle} ${style.outlineWidth}`,
        };
      });
      expect(focused.outline, `focus ring on ${focused.name}`).toMatch(/^solid [1-9]/);
      stops.push(focused.name);
    }
    // Search, sort, export and import come before the first row's actions; Enter opens the row's
    // menu on its first entry, the QR code, and Enter again shows it.
    expect(stops).toEqual(expect.arrayContaining(['search', 'sort', 'Export', 'import']));
    expect(stops.some((s) => s.startsWith('Open '))).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'QR code' }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('img', { name: /QR code of the link/ }).waitFor();
    await page.close();
  });

  it('the manifest declares both, and the options page lists them', async () => {
    const page = await browser.open('options.html');
    const section = page.locator('#shortcuts');
    await expect.poll(() => section.locator('kbd').allTextContents()).toEqual(['Alt+Shift+H', 'Alt+Shift+U']);
    expect(await section.textContent()).toMatch(/Upload what is on the clipboard/);
    await page.close();
  });

  it('the clipboard shortcut, before it may read the clipboard, opens the options where it is allowed', async () => {
    const [options] = await Promise.all([
      browser.ctx.waitForEvent('page'),
      browser.sw.evaluate(() => chrome.commands.onCommand.dispatch('upload-clipboard')),
    ]);
    await expect.poll(() => options.url()).toBe(browser.url('options.html#shortcuts'));
    await options.locator('#allow-clipboard').waitFor();
    await options.close();
  });
});

describe('the clipboard shortcut, allowed to read the clipboard', () => {
  let allowed: ExtensionBrowser;
  let site: Awaited<ReturnType<typeof startSite>>;
  beforeAll(async () => {
    // A 2×2 PNG made here, so its pixels can be compared after the clipboard has re-encoded it.
    const png = new PNG({ width: 2, height: 2 });
    png.data.set([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]);
    site = await startSite(PNG.sync.write(png));
    allowed = await launchExtension({ grantPermissions: ['clipboardRead'] });
    await allowed.ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
    await allowed.setSettings(serverSettings(ref.server, 'current'));
  });
  afterAll(async () => {
    await allowed?.close();
    await site?.close();
  });

  async function jobs(): Promise<any[]> {
    return Object.values((await allowed.sw.evaluate(() => chrome.storage.session.get('jobs'))).jobs ?? {});
  }
  /** Puts something on the clipboard from a web page, presses the shortcut, and returns the finished job. */
  async function pressWith(put: (page: import('playwright-core').Page) => Promise<void>): Promise<any> {
    const page = await allowed.ctx.newPage();
    await page.goto(`${site.origin}/`);
    await put(page);
    await page.close();
    const before = new Set((await jobs()).map((j) => j.id));
    await allowed.sw.evaluate(() => chrome.commands.onCommand.dispatch('upload-clipboard'));
    const fresh = async () => (await jobs()).find((j) => !before.has(j.id));
    await expect.poll(async () => (await fresh())?.state, { timeout: 30_000 }).toMatch(/done|failed/);
    return fresh();
  }

  it('uploads the text on the clipboard with the active profile', async () => {
    const job = await pressWith((page) =>
      page.evaluate(() => navigator.clipboard.writeText('a note from the clipboard')),
    );
    expect(job.state, job.error).toBe('done');
    expect(job.name).toMatch(/^clipboard-.*\.txt$/);
    expect(job.link.startsWith(`${ref.server.uploadUrl}/`)).toBe(true);
    expect((await openLink(job.link)).toString()).toBe('a note from the clipboard');
  });

  it('uploads an image on the clipboard, pixels intact', async () => {
    const job = await pressWith((page) =>
      page.evaluate(async () => {
        const blob = await (await fetch('/cat.png')).blob();
        await navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })]);
      }),
    );
    expect(job.state, job.error).toBe('done');
    expect(job.name).toMatch(/\.png$/);
    const uploaded = PNG.sync.read(await openLink(job.link));
    const original = PNG.sync.read(site.image);
    expect([uploaded.width, uploaded.height]).toEqual([2, 2]);
    expect(Buffer.from(uploaded.data).equals(Buffer.from(original.data))).toBe(true);
  });
});
