// What the Chromium-only scenarios share, on Playwright's page API: the browser comes from the
// testkit's launchExtension; the steps are the shared ones (../support) on a Playwright page.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ExtensionBrowser } from '../../../devkit/chromium';
import { launchExtension } from '../../../devkit/chromium';
import { serverSettings } from '../../../devkit/settings';
import { type RecordedRequest, startTestServer, type TestServer } from '../../testkit/server';
import { ChromiumPage } from '../driver/chromium';
import type { FileSpec } from '../driver/driver';
import {
  openInViewer as openViewerOn,
  submitFile as submitOn,
  uploadThroughPage as uploadOn,
} from '../support/uploads';

export { CHROMIUM_BUILD as EXT_PATH, type ExtensionBrowser, launchExtension } from '../../../devkit/chromium';
export { serverSettings } from '../../../devkit/settings';
export { historyCount } from '../support/history';
export { UNGRANTED_HOST } from '../support/hosts';

declare const chrome: any;

/**
 * The requests a server without parts (noParts) recorded, less its `/_hushdrop/info`, which the
 * extension asks before its first encrypted upload of 8 MiB or more there: the one-request ways' own
 * requests. A Start of an upload in parts is not left out: such a server's info lists no parts, so
 * none may come.
 */
export const oneRequestWay = (server: { requests: RecordedRequest[] }): RecordedRequest[] =>
  server.requests.filter((r) => !r.url.startsWith('/_hushdrop/'));

/** Saves a full-page PNG under test-results/screenshots. */
export function screenshot(page: Page, name: string): Promise<void> {
  return new ChromiumPage(page).screenshot(name);
}

/** The upload jobs the background keeps in session storage. */
export async function jobStates(browser: ExtensionBrowser): Promise<any[]> {
  const all = await browser.sw.evaluate(() => chrome.storage.session.get('jobs'));
  return Object.values((all as any).jobs ?? {});
}

/** Starts a right-click upload of `text` (run by the offscreen document) and waits for its end. */
export async function rightClickText(browser: ExtensionBrowser, text: string): Promise<any> {
  const before = new Set((await jobStates(browser)).map((j) => j.id));
  await browser.sw.evaluate(
    (selectionText) =>
      chrome.contextMenus.onClicked.dispatch(
        {
          menuItemId: 'hushdrop-upload-selection',
          selectionText,
          pageUrl: 'http://127.0.0.1/',
          editable: false,
          frameId: 0,
        },
        { id: -1, windowId: -1 },
      ),
    text,
  );
  const find = async () => (await jobStates(browser)).find((j) => !before.has(j.id));
  await expect.poll(async () => (await find())?.state, { timeout: 60_000 }).toMatch(/done|failed/);
  return find();
}

/** Chooses a file on an open upload page, presses Upload, and returns the finished job's card. */
export async function submitFile(page: Page, file: FileSpec): Promise<Locator> {
  await submitOn(new ChromiumPage(page), file);
  return page.locator('.job[data-state="done"]');
}

/** The browser's extension pages, opened as the shared steps (../support) want them. */
const pagesOf = (browser: ExtensionBrowser) => ({
  open: async (path: string) => new ChromiumPage(await browser.open(path)),
});

/** Uploads one file through the upload page and returns its link. */
export function uploadThroughPage(browser: ExtensionBrowser, file: FileSpec): Promise<string> {
  return uploadOn(pagesOf(browser), file);
}

/** Opens the viewer and types a link into it, as a person pasting one would. */
export async function openInViewer(browser: ExtensionBrowser, link: string): Promise<Page> {
  return ((await openViewerOn(pagesOf(browser), link)) as ChromiumPage).page;
}

/**
 * The usual start of a Chromium-only file: a recording test server and the extension set to upload
 * to it (the current API), both started before the file's scenarios and stopped after them.
 */
export function extensionWithServer(): { readonly browser: ExtensionBrowser; readonly ref: TestServer } {
  let browser: ExtensionBrowser | undefined;
  let ref: TestServer | undefined;
  beforeAll(async () => {
    ref = await startTestServer({ record: true });
    browser = await launchExtension();
    await browser.setSettings(serverSettings(ref.server, 'current'));
  });
  afterAll(async () => {
    await browser?.close();
    await ref?.stop();
  });
  return {
    get browser() {
      if (!browser) throw new Error('The extension is used before the file’s scenarios started it.');
      return browser;
    },
    get ref() {
      if (!ref) throw new Error('The test server is used before the file’s scenarios started it.');
      return ref;
    },
  };
}
