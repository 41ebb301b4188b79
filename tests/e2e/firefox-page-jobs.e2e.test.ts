// The upload page's jobs in Firefox (issue 22): the same job as everywhere, shown in the popup,
// ended with the copied link and Firefox's notification, and stopped by Cancel in the popup, which
// reaches the page from Firefox's background page.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/test-helpers';
import { type FirefoxExtension, type FirefoxPage, launchFirefox, until } from './firefox-harness';
import { serverSettings } from './harness';

let fx: FirefoxExtension;
let ref: TestServer;

beforeAll(async () => {
  ref = await startTestServer({ record: true });
  fx = await launchFirefox();
  await fx.setSettings(serverSettings(ref.server, 'current'));
});

afterAll(async () => {
  await fx?.close();
  await ref?.stop();
});

async function pick(page: FirefoxPage, name: string): Promise<void> {
  await page.setInputFiles('#file', { name, buffer: randomBytes(200_000) });
  await page.click('#upload');
}

describe('a job of the upload page, in Firefox', () => {
  it('shows in the popup and ends with the copied link and a notification', async () => {
    const page = await fx.open('upload.html');
    await pick(page, 'ff-page.bin');
    const link = { css: '.job[data-state="done"] input[id^="link-"]' };
    await page.waitFor(link);
    const value = await page.inputValue(link);
    await until(async () => ((await fx.clipboardText()) === value ? true : undefined), 'the copied link');
    await until(
      async () =>
        (await fx.notifications()).some((n) => n.title === 'Uploaded ff-page.bin') ? true : undefined,
      'the notification',
    );
    const popup = await fx.open('popup.html');
    const listed = { css: '.job-link', within: { css: '.job[data-state="done"]', hasText: 'ff-page.bin' } };
    await popup.waitFor(listed);
    expect(await popup.inputValue(listed)).toBe(value);
    await popup.close();
    await page.close();
  });

  /** Opens the upload page and starts an upload the server holds unanswered; resolves once it does. */
  async function heldUpload(name: string): Promise<FirefoxPage> {
    const page = await fx.open('upload.html');
    const before = ref.server.requests.length;
    ref.server.setFault('stall', { once: true });
    await pick(page, name);
    await until(
      async () => ref.server.requests.slice(before).some((r) => r.method === 'POST') || undefined,
      'the server to hold the upload',
    );
    return page;
  }

  it('Cancel in the popup stops it on the page', async () => {
    const page = await heldUpload('ff-cancel.bin');
    const popup = await fx.open('popup.html');
    await popup.click({
      css: 'button',
      hasText: 'Cancel',
      within: { css: '.job', hasText: 'ff-cancel.bin' },
    });
    await page.waitFor({ css: '.job[data-state="cancelled"]', hasText: 'ff-cancel.bin' });
    await popup.waitFor({ css: '.job[data-state="cancelled"]', hasText: 'ff-cancel.bin' });
    await popup.close();
    await page.close();
  });

  it('closing the page while it runs ends the job in the popup', async () => {
    const page = await heldUpload('ff-closed.bin');
    const popup = await fx.open('popup.html');
    await popup.waitFor({ css: '.job[data-state="running"]', hasText: 'ff-closed.bin' });
    await page.close();
    const ended = { css: '.job[data-state="cancelled"]', hasText: 'ff-closed.bin' };
    await popup.waitFor(ended);
    expect(await popup.text({ css: '[role="alert"]', within: ended })).toMatch(/was closed or left/);
    await popup.close();
  });
});
