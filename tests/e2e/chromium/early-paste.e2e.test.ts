// Chromium only, because it needs a script that runs before the popup's own (Playwright's init
// scripts reach extension pages in Chromium): a file pasted into the popup or the upload page before
// its settings have loaded is uploaded, not dropped. Both used to ignore such a paste, so under load
// a person's (or a test's) paste right after the page opened was silently lost.
import { beforeAll, describe, expect, it } from 'vitest';
import { extensionWithServer, jobStates } from './harness';

declare const chrome: any;

const started = extensionWithServer();

beforeAll(async () => {
  // Holds every storage.local read of a page opened with #hold until the test lets them go.
  await started.browser.ctx.addInitScript(() => {
    if (location.hash !== '#hold') return;
    const area = chrome.storage.local;
    const get = area.get.bind(area);
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    (window as any).releaseStorage = release;
    (window as any).heldReads = 0;
    area.get = (...args: any[]) => {
      (window as any).heldReads++;
      return gate.then(() => get(...args));
    };
  });
});

/** Pastes a file into a page whose settings are still held, then lets them load. */
async function pasteEarly(path: string, name: string) {
  const page = await started.browser.open(`${path}#hold`);
  await expect.poll(() => page.evaluate(() => (window as any).heldReads)).toBeGreaterThan(0);
  expect(await page.locator('.drop').count()).toBe(0);
  await page.evaluate((n) => {
    const dt = new DataTransfer();
    dt.items.add(new File(['early'], n, { type: 'text/plain' }));
    document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
    (window as any).releaseStorage();
  }, name);
  return page;
}

describe('a file pasted before the settings have loaded', () => {
  it('is uploaded by the popup', async () => {
    const popup = await pasteEarly('popup.html', 'early-paste.txt');
    await expect
      .poll(async () => (await jobStates(started.browser)).find((j) => j.name === 'early-paste.txt')?.state, {
        timeout: 60_000,
      })
      .toMatch(/done|failed/);
    const job = (await jobStates(started.browser)).find((j) => j.name === 'early-paste.txt');
    expect(job.state, job.error).toBe('done');
    await popup.close();
  });

  it('is uploaded by the upload page', async () => {
    const page = await pasteEarly('upload.html', 'early-page.txt');
    const done = page.locator('.job[data-state="done"]', { hasText: 'early-page.txt' });
    await done.waitFor({ timeout: 60_000 });
    await page.close();
  });
});
