// Everyday comfort: every page in both colour schemes (screenshots, and axe finds nothing serious),
// and a link handed to a phone as a QR code (read back from the screen with a QR decoder, so the
// test proves what a camera would see).
import { randomBytes } from 'node:crypto';
import jsQR from 'jsqr';
import type { Locator } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/test-helpers';
import { seriousViolations } from './checks';
import { type ExtensionBrowser, launchExtension, screenshot, serverSettings } from './harness';

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
    await page.setInputFiles('#file', {
      name: 'phone.txt',
      mimeType: 'text/plain',
      buffer: randomBytes(500),
    });
    await page.click('#upload');
    const job = page.locator('.job[data-state="done"]');
    await job.waitFor({ timeout: 30_000 });
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
    await row.getByRole('button', { name: 'QR code' }).click();
    expect(await readQr(row.getByRole('img', { name: /QR code/ }))).toBe(link);
    await row.getByRole('button', { name: 'Hide QR code' }).click();
    expect(await row.getByRole('img', { name: /QR code/ }).count()).toBe(0);
    await uploads.close();
  });
});

describe('both colour schemes', () => {
  const pages = ['upload.html', 'popup.html', 'options.html', 'uploads.html', 'viewer.html', 'payment.html'];
  for (const scheme of ['light', 'dark'] as const)
    it(`every page follows the ${scheme} scheme, with contrast axe accepts`, async () => {
      for (const path of pages) {
        const page = await browser.ctx.newPage();
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(browser.url(path));
        await page.locator('h1, h2').first().waitFor();
        // The page really is in that scheme: its background is light or dark.
        const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        const [r, g, b] = bg.match(/\d+/g)!.map(Number);
        const luminance = (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
        if (scheme === 'dark') expect(luminance, `${path} background ${bg}`).toBeLessThan(0.3);
        else expect(luminance, `${path} background ${bg}`).toBeGreaterThan(0.7);
        await screenshot(page, `${path.replace('.html', '')}-${scheme}`);
        expect(await seriousViolations(page), `${path} in ${scheme}`).toEqual([]);
        await page.close();
      }
    });
});

describe('keyboard shortcuts', () => {
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
