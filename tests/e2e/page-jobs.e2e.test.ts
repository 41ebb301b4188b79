// An upload started on the upload page is one job like the others (issue 22): it shows in the
// popup and on the toolbar badge, Cancel in the popup stops it on the page, it ends with the link
// copied and a notification, its failure reads the same everywhere, and closing the page ends it.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/test-helpers';
import { type ExtensionBrowser, jobStates, launchExtension, serverSettings } from './harness';
import { type Site, startSite } from './pages';

declare const chrome: any;

let browser: ExtensionBrowser;
let ref: TestServer;
let site: Site;

beforeAll(async () => {
  ref = await startTestServer({ record: true });
  site = await startSite(randomBytes(1000));
  browser = await launchExtension();
  await browser.ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
  await browser.setSettings(serverSettings(ref.server, 'current'));
});

afterAll(async () => {
  await browser?.close();
  await ref?.stop();
  await site?.close();
});

const badge = (): Promise<string> => browser.sw.evaluate(() => chrome.action.getBadgeText({}));
const notificationIds = async (): Promise<string[]> =>
  Object.keys(await browser.sw.evaluate(() => chrome.notifications.getAll()));
const jobNamed = async (name: string) => (await jobStates(browser)).find((j) => j.name === name);

async function readClipboard(): Promise<string> {
  const page = await browser.ctx.newPage();
  await page.goto(`${site.origin}/`);
  try {
    return await page.evaluate(() => navigator.clipboard.readText());
  } finally {
    await page.close();
  }
}

/** Chooses a file on the upload page and presses Upload. */
async function pick(page: Page, name: string, size = 200_000): Promise<void> {
  await page.setInputFiles('#file', {
    name,
    mimeType: 'application/octet-stream',
    buffer: randomBytes(size),
  });
  await page.click('#upload');
}

/** Opens the upload page and starts an upload the server holds unanswered; resolves once it does. */
async function heldUpload(name: string): Promise<Page> {
  const page = await browser.open('upload.html');
  const before = ref.server.requests.length;
  ref.server.setFault('stall', { once: true });
  await pick(page, name);
  await expect
    .poll(() => ref.server.requests.slice(before).some((r) => r.method === 'POST'), { timeout: 30_000 })
    .toBe(true);
  return page;
}

describe('a job of the upload page', () => {
  it('shows in the popup, ends with the link copied and a notification, and says so on the page', async () => {
    const page = await browser.open('upload.html');
    await pick(page, 'page-done.bin');
    const done = page.locator('.job[data-state="done"]');
    await done.waitFor({ timeout: 30_000 });
    const link = await done.locator('input[id^="link-"]').inputValue();
    await expect.poll(async () => (await jobNamed('page-done.bin'))?.state).toBe('done');
    const job = (await jobNamed('page-done.bin'))!;
    expect(job.link).toBe(link);
    expect(job.owner.kind).toBe('page');
    await expect.poll(notificationIds).toContain(`job-${job.id}`);
    await expect.poll(readClipboard).toBe(link);
    await expect
      .poll(() => done.locator('.ok').textContent())
      .toContain('The link is copied to the clipboard.');
    expect(await badge()).toBe('');

    const popup = await browser.open('popup.html');
    const listed = popup
      .locator('.job[data-state="done"]', { hasText: 'page-done.bin' })
      .locator('.job-link');
    await listed.waitFor();
    expect(await listed.inputValue()).toBe(link);
    await popup.close();
    await page.close();
  });

  it('shows on the badge while it runs, and Cancel in the popup stops it on the page', async () => {
    const page = await heldUpload('page-cancel.bin');
    await expect.poll(badge).toMatch(/^(\d+%|…)$/);
    const popup = await browser.open('popup.html');
    const row = popup.locator('.job[data-state="running"]', { hasText: 'page-cancel.bin' });
    await row.getByRole('button', { name: 'Cancel' }).click();
    await page
      .locator('.job[data-state="cancelled"]', { hasText: 'page-cancel.bin' })
      .waitFor({ timeout: 30_000 });
    await popup.locator('.job[data-state="cancelled"]', { hasText: 'page-cancel.bin' }).waitFor();
    await expect.poll(badge).toBe('');
    await popup.close();
    await page.close();
  });

  it('a failure reads the same on the page and in the popup, and is notified', async () => {
    const page = await browser.open('upload.html');
    ref.server.setFault('error-200', { once: true });
    await pick(page, 'page-refused.bin');
    const failed = page.locator('.job[data-state="failed"]');
    await failed.waitFor({ timeout: 30_000 });
    const sentence = await failed.locator('.error').textContent();
    const said = await failed.locator('.error + .small').textContent();
    expect(said).toBe('The server said: “Uploads are Disabled”');
    const popup = await browser.open('popup.html');
    const alert = popup
      .locator('.job[data-state="failed"]', { hasText: 'page-refused.bin' })
      .getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe(`${sentence} ${said}`);
    const job = (await jobNamed('page-refused.bin'))!;
    await expect.poll(notificationIds).toContain(`job-${job.id}`);
    await popup.close();
    await page.close();
  });

  for (const [how, leave] of [
    ['closing', (page: Page) => page.close()],
    ['reloading', (page: Page) => page.reload()],
  ] as const)
    it(`${how} the page while it runs ends the job, and the badge is cleared`, async () => {
      const name = `page-${how}.bin`;
      const page = await heldUpload(name);
      await expect.poll(async () => (await jobNamed(name))?.state).toBe('running');
      await expect.poll(badge).not.toBe('');
      await leave(page);
      await expect.poll(async () => (await jobNamed(name))?.state).toBe('cancelled');
      expect((await jobNamed(name))!.error).toMatch(/was closed or left/);
      await expect.poll(badge).toBe('');
      if (!page.isClosed()) await page.close();
    });
});
