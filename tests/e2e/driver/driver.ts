// The one API the e2e scenarios drive a browser with: a scenario is written once and runs in
// Chromium and in Firefox, and, where no extension is needed (LaunchOptions.plain), in WebKit too.
// Three implementations, each doing things the real way for its browser:
//   ./chromium.ts  playwright-core on Debian's Chromium (launched by devkit/chromium.ts)
//   ./firefox.ts   Marionette on firefox-esr (launched by devkit/firefox.ts)
//   ./webkit.ts    W3C WebDriver (WebKitWebDriver) on MiniBrowser under Xvfb (devkit/webkit.ts);
//                  it runs no extension: only a recipient's browser, and its extension methods throw
// Where a browser's own UI cannot be reached by automation, its implementation says what stands
// in for it (in Chromium: the right-click menu and the permission prompt). The rest is the real
// thing: real clicks and typing, files read from disk, the browser's own clipboard and downloads.
//
// Writing a scenario (see each-browser.ts):
//
//   forEachBrowser({ grantHosts: [UNGRANTED_HOST] }, (d) => {
//     it('uploads a file', async () => {
//       const page = await d.open('upload.html');
//       await page.setInputFiles('#file', { name: 'a.bin', buffer: randomBytes(1000) }); // starts it
//       await page.waitFor('.job[data-state="done"]');
//     });
//   });
//
// An element is named by a Target: a CSS selector, or { css, hasText, label, within, nth }. The
// first match is used (`nth` picks another). Page methods wait up to 30 s for their element.
// Nothing here sleeps: every wait is a poll of a condition or an event of the browser.
// A case one browser cannot run goes in tests/e2e/chromium/ or tests/e2e/firefox/, with a
// sentence at the top of its file saying why.

import type { Memory } from '../../../devkit/memory';
import type { Settings } from '../../../lib/settings';
import type { FolderFile } from './download-folder';

export type BrowserName = 'chromium' | 'firefox' | 'webkit';

/** A CSS selector, or a selector narrowed by its text, a form control's label, or its container. */
export type Target =
  | string
  | { css?: string; hasText?: string | RegExp; label?: string | RegExp; within?: Target; nth?: number };

/** The keys a scenario presses (named as Playwright names them). */
export type Key = 'Enter' | ' ' | 'Escape' | 'Tab' | 'ArrowDown' | 'ArrowUp' | 'Home' | 'End';

/** Runs in the page (both drivers): what has keyboard focus. Self-contained, as it is sent as source. */
export function focusedElement(): { tag: string; text: string; label: string } {
  const el = document.activeElement;
  if (!el || el === document.body) return { tag: '', text: '', label: '' };
  return {
    tag: el.tagName,
    text: (el.textContent ?? '').trim(),
    label: el.getAttribute('aria-label') ?? '',
  };
}

export interface FileSpec {
  name: string;
  mimeType?: string;
  buffer: Buffer;
}

/** One tab. */
export interface DriverPage {
  url(): Promise<string>;
  /** Reloads the page, as the browser's reload button does (the tab's session storage stays), once loaded again. */
  reload(): Promise<void>;
  /** Runs `fn(arg)` in the page and returns its (JSON-like) result; in an extension page with its APIs. */
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** Runs a script's source in the page, so the globals it defines are there for evaluate (axe-core). */
  addScript(source: string): Promise<void>;
  /** Waits for the element to exist (`visible`: to be shown too). */
  waitFor(t: Target, options?: { timeout?: number; visible?: boolean }): Promise<void>;
  count(t: Target): Promise<number>;
  click(t: Target): Promise<void>;
  /** Replaces a field's text by typing. */
  fill(t: Target, text: string): Promise<void>;
  /** Presses a key on the keyboard, as a person would: the focused element gets it. */
  press(key: Key): Promise<void>;
  /** Puts keyboard focus on the element (as Tab would reach it, without counting stops). */
  focus(t: Target): Promise<void>;
  /** What has keyboard focus: its tag, its text and its accessible label ('' for none). */
  focused(): Promise<{ tag: string; text: string; label: string }>;
  check(t: Target, checked?: boolean): Promise<void>;
  uncheck(t: Target): Promise<void>;
  selectOption(t: Target, value: string): Promise<void>;
  /** Chooses files in an <input type=file>: given bytes (written to disk first) or a path on disk. */
  setInputFiles(t: Target, files: FileSpec | FileSpec[] | string): Promise<void>;
  /** The element's textContent ('' for none). */
  text(t: Target): Promise<string>;
  inputValue(t: Target): Promise<string>;
  attribute(t: Target, name: string): Promise<string | null>;
  /**
   * Sizes the page's viewport (CSS pixels), for a phone-width or a desktop layout. In Firefox the
   * window is sized so that its viewport is this: every tab of that window gets it.
   */
  setViewport(width: number, height: number): Promise<void>;
  /**
   * The colour scheme the page's `prefers-color-scheme` reports. Chromium emulates it for this page
   * (DevTools' emulateMedia); Firefox has no per-page switch, so it sets the browser's content
   * override (the pref `layout.css.prefers-color-scheme.content-override`, as Settings → Website
   * appearance does): every tab of that Firefox follows it until it is set again.
   */
  setColorScheme(scheme: 'light' | 'dark'): Promise<void>;
  /**
   * Saves a full-page PNG under test-results/screenshots (Firefox's are prefixed `firefox-`), or as
   * `<folder>/<name>.png` when a folder is given.
   */
  screenshot(name: string, folder?: string): Promise<void>;
  close(): Promise<void>;
}

/** An upload job as the background keeps it in storage.session (`jobs`), where the popup reads it. */
export interface JobView {
  id: string;
  name: string;
  state: string;
  link?: string;
  error?: string;
  [field: string]: unknown;
}

/** A notification shown by the extension. */
export interface Notice {
  title: string;
  text: string;
  /** The extension's notification id, where the browser tells it (Chromium). */
  id?: string;
}

/** Hushdrop's right-click entries: the four uploads, and "Check this payment request" on selected text. */
export type MenuEntry = 'media' | 'link' | 'selection' | 'page' | 'check-payment';

export interface LaunchOptions {
  /**
   * Hosts (e.g. 127.0.0.2) the extension may reach from the start. Chromium: listed as granted in
   * a copy of the build's manifest; Firefox: granted as the add-on's site switches in about:addons do.
   */
  grantHosts?: string[];
  /**
   * Hosts the person allows when the extension asks. Firefox asks for real, and the scenario
   * answers with permissionPrompt. Chromium's prompt cannot be answered by automation, so they are
   * granted at launch, as grantHosts are, and permissionPrompt(host, 'allow') has nothing to do.
   */
  allowWhenAsked?: string[];
  /**
   * A browser without Hushdrop: a recipient's, who opens a link (openUrl, download, pages). What
   * needs the extension (open, settings, storage, jobs, menus, notifications) fails in it.
   */
  plain?: boolean;
  /**
   * Keep the welcome page the installation opened (a first-run scenario, with `welcomePage`).
   * Otherwise the launch closes it, and the scenarios start with the tabs they open.
   */
  keepWelcome?: boolean;
}

export interface Driver {
  readonly name: BrowserName;
  /**
   * What one browser cannot do in a test, for a scenario to take the other road and say why.
   * pasteFiles: Firefox's ClipboardEvent constructor keeps only text, and its headless clipboard
   * holds no files, so a file cannot be pasted there (dropped instead).
   * stopWorkers: WebKitWebDriver has no command that stops a service worker.
   */
  readonly can: { pasteFiles: boolean; stopWorkers: boolean };
  /** The address of an extension page. */
  url(path: string): string;
  /** Opens an extension page in a new tab. */
  open(path: string): Promise<DriverPage>;
  /** The welcome page the extension opened by itself when installed (needs LaunchOptions.keepWelcome). */
  welcomePage(): DriverPage;
  /** Opens any address in a new tab. */
  openUrl(url: string): Promise<DriverPage>;
  /** Runs `action` and returns the tab it opened, once loaded. */
  waitForNewPage(action: () => Promise<unknown>): Promise<DriverPage>;
  setSettings(settings: Settings): Promise<void>;
  /** storage.local of the extension. */
  setStorage(items: Record<string, unknown>): Promise<void>;
  getStorage(key: string): Promise<unknown>;
  /** The upload jobs of the background (every job since start, running or ended). */
  jobs(): Promise<JobView[]>;
  /** Right-clicks the element and chooses Hushdrop's entry in the menu. */
  contextMenu(page: DriverPage, t: Target, entry: MenuEntry): Promise<void>;
  /** Answers the extension's permission request for `host` (see LaunchOptions.allowWhenAsked). */
  permissionPrompt(host: string, answer: 'allow' | 'deny'): Promise<void>;
  /** The text on the system clipboard. */
  clipboardText(): Promise<string>;
  /** The extension's notifications now on screen. */
  notifications(): Promise<Notice[]>;
  /** Runs `action` on `page` and waits for the download it starts to finish. */
  download(page: DriverPage, action: () => Promise<unknown>): Promise<{ fileName: string; path: string }>;
  /**
   * The files in the folder this browser's downloads are written to (paths inside it, sorted, with
   * their sizes), finished or partial, once every download started so far has ended: what a person
   * would find there. A scenario compares it before and after a step to show what the step wrote.
   */
  downloadedFiles(): Promise<FolderFile[]>;
  /**
   * JavaScript dialogs (alert, confirm, prompt) shown by any page since launch. Chromium counts and
   * dismisses them; in Firefox a dialog makes the next command fail (Marionette's default), so
   * this can only find one still open.
   */
  dialogs(): Promise<number>;
  /** The text of the extension's badge on this tab. */
  badgeText(page: DriverPage): Promise<string>;
  /** Resident memory of the browser's processes. */
  memory(): Memory;
  /** Asks the browser to collect garbage and give back memory, for a steady figure at rest. */
  collectGarbage(): Promise<void>;
  /** Stops every running service worker, as the browser does to an idle one (can.stopWorkers). */
  stopServiceWorkers(): Promise<void>;
  close(): Promise<void>;
}
