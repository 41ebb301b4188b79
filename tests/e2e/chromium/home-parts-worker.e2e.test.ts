// Chromium only, since Playwright reaches into the page's dedicated worker: the home page makes an
// upload's parts in its parts worker (parts-worker.ts), and a sync access handle that Chromium never
// hands over (it now and then waits for ever while other part files are read) costs that part a few
// seconds through a writable stream, not the upload; a Cancel ends the upload even while the worker
// waits for such a call, and the page ends a worker that cannot hear it.
import { randomBytes } from 'node:crypto';
import type { Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ChromiumBrowser, launchChromium } from '../../../devkit';
import { openLink } from '../../../devkit/links';
import { until } from '../../../devkit/wait';
import { fileOnDisk } from '../support/resume';
import { serverForFile } from '../support/servers';

const MIB = 1024 * 1024;
const ref = serverForFile({
  record: true,
  settings: { parts: { partBytes: 5 * MIB, sessionLifetimeMs: 3_600_000, sessionsPerAddress: 0 } },
});

let browser: ChromiumBrowser;
beforeAll(async () => {
  browser = await launchChromium({ extensionDir: false });
});
afterAll(() => browser?.close());

/** The home page with `bytes` chosen; resolves with its parts worker, once the page has started one. */
async function upload(bytes: Buffer): Promise<{ page: Page; worker: Worker }> {
  const page = await browser.ctx.newPage();
  await page.goto(`${ref.server.baseUrl}/`);
  await page.locator('#files').waitFor();
  const started = page.waitForEvent('worker', { timeout: 120_000 });
  // From a file on disk: Playwright's buffer travels slowly to the browser on a loaded machine.
  await page.setInputFiles('#files', fileOnDisk('film.bin', bytes));
  const worker = await started;
  expect(worker.url()).toMatch(/\/parts-worker\.js$/);
  return { page, worker };
}

/** The state the page's first upload ends in, once it is no longer sending. */
async function endState(page: Page): Promise<string | null> {
  await page.locator('#uploads > li:not([data-state="sending"])').waitFor({ timeout: 120_000 });
  return page.locator('#uploads > li').getAttribute('data-state');
}

/** The page's first upload, once ended: its state and link. */
async function ended(page: Page): Promise<{ state: string | null; link: string }> {
  return { state: await endState(page), link: await page.locator('#link-1').inputValue() };
}

/** The names left in the page's private file system. */
const privateFiles = (page: Page) =>
  page.evaluate(async () => {
    const names: string[] = [];
    const dir = await navigator.storage.getDirectory();
    for await (const [name] of dir as unknown as AsyncIterable<[string, unknown]>) names.push(name);
    return names;
  });

it('makes the parts in its worker, and leaves no part file once the link shows', async () => {
  const bytes = randomBytes(12 * MIB + 3);
  const { page } = await upload(bytes);
  const { state, link } = await ended(page);
  expect(state).toBe('done');
  expect((await openLink(link)).equals(bytes)).toBe(true);
  await until(async () => ((await privateFiles(page)).length === 0 ? true : undefined), 'no part file left');
  await page.close();
});

type Call = 'createSyncAccessHandle' | 'createWritable';

/**
 * From now on, the worker's `calls` (on file handles) never answer, as Chromium's sync access handle
 * now and then does not; resolves at the first such call to `seenOn`.
 */
const neverAnswered = (worker: Worker, calls: Call[], seenOn: Call) =>
  worker.evaluate(
    ([names, seenName]) =>
      new Promise<void>((seen) => {
        const proto = (globalThis as any).FileSystemFileHandle.prototype;
        for (const name of names)
          proto[name] = () => {
            if (name === seenName) seen();
            return new Promise(() => {});
          };
      }),
    [calls, seenOn] as const,
  );

/** Cancels the page's first upload; resolves once it reads cancelled. */
async function cancelled(page: Page): Promise<void> {
  await page.click('#uploads button.cancel');
  expect(await endState(page)).toBe('cancelled');
}

it('a sync access handle that never comes: that part goes through a writable stream, and the file is whole', async () => {
  // Five parts: the worker makes three ahead, so the last two wait for the server, well after the change below.
  const bytes = randomBytes(22 * MIB + 3);
  const { page, worker } = await upload(bytes);
  await neverAnswered(worker, ['createSyncAccessHandle'], 'createSyncAccessHandle');
  const { state, link } = await ended(page);
  expect(state).toBe('done');
  expect((await openLink(link)).equals(bytes)).toBe(true);
  await until(async () => ((await privateFiles(page)).length === 0 ? true : undefined), 'no part file left');
  await page.close();
});

it('a Cancel while a sync access handle is awaited ends the upload, and no part file stays', async () => {
  const { page, worker } = await upload(randomBytes(22 * MIB + 3));
  // Nor would the writable stream the worker falls back to after its wait open: the cancel alone must end the wait.
  await neverAnswered(worker, ['createSyncAccessHandle', 'createWritable'], 'createSyncAccessHandle');
  await cancelled(page);
  expect(await page.locator('#uploads').innerText()).toContain('Cancelled: nothing of this file was kept.');
  await until(async () => ((await privateFiles(page)).length === 0 ? true : undefined), 'no part file left');
  await page.close();
});

it('a worker that cannot hear a Cancel (stuck in a call that never answers) is ended by the page, and the upload reads cancelled', async () => {
  const { page, worker } = await upload(randomBytes(22 * MIB + 3));
  // The worker then waits for ever: only the page's grace can end the upload.
  await neverAnswered(worker, ['createSyncAccessHandle', 'createWritable'], 'createWritable');
  await cancelled(page);
  await page.close();
});
