// Chromium only: a recipient on a phone-sized screen with touch (Playwright's device emulation),
// a browser where no service worker may run (a context that blocks them), and the browser's own
// verdict on a download the page stopped (Playwright's download.failure()). Firefox's Marionette
// has none of these: no device emulation with touch, no switch that blocks service workers for one
// context, and the Firefox driver sees finished downloads only. The scenarios every browser runs
// are in ../recipient.e2e.test.ts. Files the extension uploaded in parts open on the phone too.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Browser, chromium, devices, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../../../devkit/chromium';
import { serverSettings } from '../../../devkit/settings';
import type { RecordedRequest } from '../../testkit/server';
import { launchDriver } from '../driver/each-browser';
import { changeStoredByte, ECE_LINK, eceSettings, uploadEce } from '../support/ece';
import { serverForFile } from '../support/servers';
import { fileNameOf, uploadThroughPage } from '../support/uploads';

const MIB = 1024 * 1024;
/** The server's smallest part size, so a 12 MiB file goes in 3 parts (the smaller files in one request). */
const PART_BYTES = 5 * MIB;
const ref = serverForFile({
  record: true,
  settings: { parts: { partBytes: PART_BYTES, sessionLifetimeMs: 3_600_000, sessionsPerAddress: 0 } },
});
let link: string;
let original: Buffer;
/** An upload in the authenticated format (#ece1.) with one byte changed on the server's disk. */
let changedLink: string;
let plain: Browser;
/** Uploads of 12 MiB in each link format, and the requests the server received for each. */
const inParts = {} as Record<
  'teknik' | 'ece',
  { link: string; original: Buffer; received: RecordedRequest[] }
>;

beforeAll(async () => {
  const sender = await launchDriver('chromium');
  try {
    await sender.setSettings(serverSettings(ref.server, 'current'));
    original = randomBytes(2 * 1024 * 1024 + 5);
    link = await uploadThroughPage(sender, {
      name: 'Urlaub.pdf',
      mimeType: 'application/pdf',
      buffer: original,
    });
    await sender.setSettings(eceSettings(ref.server));
    changedLink = (
      await uploadEce(sender, ref.server, {
        name: 'changed.pdf',
        mimeType: 'application/pdf',
        buffer: randomBytes(3 * 1024 * 1024 + 5),
      })
    ).link;
    await changeStoredByte(ref.server, fileNameOf(changedLink), 2 * 1024 * 1024 + 100);
    const uploadInParts = async (format: 'teknik' | 'ece') => {
      await sender.setSettings(
        format === 'ece' ? eceSettings(ref.server) : serverSettings(ref.server, 'current'),
      );
      const partsOriginal = randomBytes(12 * MIB);
      const marked = ref.server.requests.length;
      const partsLink = await uploadThroughPage(sender, {
        name: `in-parts-${format}.bin`,
        mimeType: 'application/octet-stream',
        buffer: partsOriginal,
      });
      inParts[format] = {
        link: partsLink,
        original: partsOriginal,
        received: ref.server.requests.slice(marked),
      };
    };
    await uploadInParts('teknik');
    await uploadInParts('ece');
  } finally {
    await sender.close();
  }
  // Running as root (the test machine) needs --no-sandbox; it changes nothing the page can see.
  plain = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
}, 240_000);

afterAll(async () => {
  await plain?.close();
});

/** A part's PUT (`…/Upload/Parts/<id>/<index>`), and the one-request upload. */
const PART = /\/Upload\/Parts\/[A-Za-z0-9]+\/(\d+)$/i;
const ONE_REQUEST = /\/v1\/Upload$/i;

/** A plain Chromium context as a phone (Pixel 7: its screen, touch and user agent). */
const phone = (locale: string) => plain.newContext({ ...devices['Pixel 7'], locale, acceptDownloads: true });

async function saved(page: Page, click: () => Promise<unknown>): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return readFileSync((await download.path())!);
}

it('a phone-sized Chromium in German: the button fits and is big enough to tap, the file saves', async () => {
  const ctx = await phone('de-DE');
  try {
    const page = await ctx.newPage();
    await page.goto(link);
    const button = page.locator('#download');
    await expect.poll(() => button.textContent()).toBe('Herunterladen und entschlüsseln');
    const box = (await button.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect((await saved(page, () => button.tap())).equals(original)).toBe(true);
    await expect.poll(() => page.locator('.done').textContent()).toContain('ist bei Ihren Downloads');
    await page.screenshot({ path: 'test-results/screenshots/recipient-phone-de.png', fullPage: true });
  } finally {
    await ctx.close();
  }
});

const FORMAT_NAMES = { teknik: 'a Teknik-format', ece: 'an authenticated (#ece1.)' } as const;
for (const format of ['teknik', 'ece'] as const) {
  it(`${FORMAT_NAMES[format]} link the extension uploaded in 3 parts saves the exact file on a phone`, async () => {
    const { link: partsLink, original: partsOriginal, received } = inParts[format];
    expect(partsLink).toMatch(format === 'ece' ? ECE_LINK : /#[A-Za-z0-9]{32}$/);
    // The server received the file in parts (5, 5 and the rest, a little more for `ece`'s records),
    // not as one request.
    const parts = received.filter((r) => r.method === 'PUT' && PART.test(r.url));
    expect(parts.map((r) => Number(r.url.match(PART)![1])).sort()).toEqual([0, 1, 2]);
    expect(parts.map((r) => r.bodyBytes).filter((n) => n === PART_BYTES)).toHaveLength(2);
    expect(received.filter((r) => r.method === 'POST' && ONE_REQUEST.test(r.url))).toEqual([]);
    const ctx = await phone('en-US');
    try {
      const page = await ctx.newPage();
      await page.goto(partsLink);
      const bytes = await saved(page, () => page.locator('#download').tap());
      expect(bytes.length).toBe(partsOriginal.length);
      expect(bytes.equals(partsOriginal)).toBe(true);
      await page.locator('.done').waitFor();
    } finally {
      await ctx.close();
    }
  });
}

it('where no service worker may run, the file is decrypted in memory and saved the same', async () => {
  const ctx = await plain.newContext({ acceptDownloads: true, serviceWorkers: 'block' });
  try {
    const page = await ctx.newPage();
    await page.goto(link);
    expect((await saved(page, () => page.locator('#download').click())).equals(original)).toBe(true);
    await page.locator('.done').waitFor();
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length))).toBe(
      0,
    );
  } finally {
    await ctx.close();
  }
});

it('an authenticated file with a changed byte: the download fails in the browser, no file is kept', async () => {
  const ctx = await plain.newContext({ acceptDownloads: true });
  try {
    const page = await ctx.newPage();
    await page.goto(changedLink);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download').click()]);
    // The first two megabytes went to the download before the changed record was found.
    expect(await download.failure()).not.toBeNull();
    await expect(download.path()).rejects.toThrow();
    await expect
      .poll(() => page.locator('[role="alert"]').textContent())
      .toBe(
        'This file was changed or cut short after it was uploaded, so it was not saved. If your browser kept a part of it, delete that part: it is incomplete.',
      );
    expect(await page.locator('.done').count()).toBe(0);
  } finally {
    await ctx.close();
  }
});
