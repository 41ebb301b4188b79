// Chromium only: a recipient on a phone-sized screen with touch (Playwright's device emulation),
// a browser where no service worker may run (a context that blocks them), and the browser's own
// verdict on a download the page stopped (Playwright's download.failure()). Firefox's Marionette
// has none of these: no device emulation with touch, no switch that blocks service workers for one
// context, and the Firefox driver sees finished downloads only. The scenarios every browser runs
// are in ../recipient.e2e.test.ts.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Browser, chromium, devices, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../../testkit/chromium';
import { serverSettings } from '../../testkit/settings';
import { launchDriver } from '../driver/each-browser';
import { changeStoredByte, eceSettings, uploadEce } from '../support/ece';
import { serverForFile } from '../support/servers';
import { fileNameOf, uploadThroughPage } from '../support/uploads';

const ref = serverForFile({});
let link: string;
let original: Buffer;
/** An upload in the authenticated format (#ece1.) with one byte changed on the server's disk. */
let changedLink: string;
let plain: Browser;

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
  } finally {
    await sender.close();
  }
  // Running as root (the test machine) needs --no-sandbox; it changes nothing the page can see.
  plain = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
}, 120_000);

afterAll(async () => {
  await plain?.close();
});

async function saved(page: Page, click: () => Promise<unknown>): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return readFileSync((await download.path())!);
}

it('a phone-sized Chromium in German: the button fits and is big enough to tap, the file saves', async () => {
  const ctx = await plain.newContext({ ...devices['Pixel 7'], locale: 'de-DE', acceptDownloads: true });
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
      .toBe('This file was changed or cut short after it was uploaded; nothing was saved.');
    expect(await page.locator('.done').count()).toBe(0);
  } finally {
    await ctx.close();
  }
});
