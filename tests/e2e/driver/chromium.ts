// The Driver for Chromium: playwright-core on Debian's Chromium with the built extension.
// Two things stand in for what no automation reaches in headless Chromium:
// - the right-click menu: Chromium's menu is native UI, so contextMenu reads what the menu would
//   report about the element (its image or link address, the selected text, the page) and
//   dispatches the extension's own contextMenus.onClicked event with it, in its service worker;
// - the permission prompt: a native dialog, so the hosts the person would allow are granted in a
//   copy of the build's manifest at launch (devkit/chromium.ts says how).
// Notifications: Chromium lists a notification's id (notifications.getAll), not its text, so at
// launch the service worker's notifications.create is wrapped to note the text of each one it
// shows; the real call still runs, and only notifications Chromium still lists are reported.

import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Download, Locator, Page } from 'playwright-core';
import {
  type ChromiumBrowser,
  type ExtensionBrowser,
  launchChromium,
  launchExtension,
} from '../../../devkit/chromium';
import { treeMemory } from '../../../devkit/memory';
import type { Settings } from '../../../lib/settings';
import { filesIn } from './download-folder';
import {
  type Driver,
  type DriverPage,
  type FileSpec,
  focusedElement,
  type JobView,
  type Key,
  type LaunchOptions,
  type MenuEntry,
  type Target,
} from './driver';
import { TestFiles } from './test-files';

declare const chrome: any;

const SCREENSHOTS = resolve('test-results/screenshots');

/** The ids platform/upload/context-menu.ts and platform/payments/menu.ts give Hushdrop's menu entries. */
const MENU_IDS: Record<MenuEntry, string> = {
  media: 'hushdrop-upload-media',
  link: 'hushdrop-upload-link',
  selection: 'hushdrop-upload-selection',
  page: 'hushdrop-upload-screenshot',
  'check-payment': 'hushdrop-check-payment',
};

/** All elements a Target names (Playwright locators, with the Firefox driver's meaning). */
function locateAll(scope: Page | Locator, t: Target): Locator {
  if (typeof t === 'string') return scope.locator(t);
  const within = t.within === undefined ? scope : locate(scope, t.within);
  let found = t.label === undefined ? within.locator(t.css ?? '*') : within.getByLabel(t.label);
  if (t.label !== undefined && t.css) found = found.and(within.locator(t.css));
  return t.hasText === undefined ? found : found.filter({ hasText: t.hasText });
}

/** The one element a Target names: the first match, or the `nth`. */
function locate(scope: Page | Locator, t: Target): Locator {
  return locateAll(scope, t).nth(typeof t === 'string' ? 0 : (t.nth ?? 0));
}

export class ChromiumPage implements DriverPage {
  constructor(
    readonly page: Page,
    private readonly files = new TestFiles(),
  ) {}

  locator(t: Target): Locator {
    return locate(this.page, t);
  }

  async url() {
    return this.page.url();
  }
  async reload() {
    await this.page.reload();
  }
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.page.evaluate(fn as any, arg) as Promise<R>;
  }
  async addScript(source: string) {
    await this.page.evaluate(source);
  }
  async waitFor(t: Target, options: { timeout?: number; visible?: boolean } = {}) {
    await this.locator(t).waitFor({
      state: options.visible ? 'visible' : 'attached',
      timeout: options.timeout ?? 30_000,
    });
  }
  count(t: Target) {
    return locateAll(this.page, t).count();
  }
  click(t: Target) {
    return this.locator(t).click();
  }
  fill(t: Target, text: string) {
    return this.locator(t).fill(text);
  }
  press(key: Key) {
    return this.page.keyboard.press(key === ' ' ? 'Space' : key);
  }
  focus(t: Target) {
    return this.locator(t).focus();
  }
  focused() {
    return this.page.evaluate(focusedElement);
  }
  check(t: Target, checked = true) {
    return this.locator(t).setChecked(checked);
  }
  uncheck(t: Target) {
    return this.check(t, false);
  }
  async selectOption(t: Target, value: string) {
    await this.locator(t).selectOption(value);
  }
  /**
   * Files go through disk as in Firefox; only a spec that names its type is sent through the protocol
   * (from disk, Chromium takes the type from the name).
   */
  setInputFiles(t: Target, files: FileSpec | FileSpec[] | string) {
    const specs = typeof files === 'string' ? [] : Array.isArray(files) ? files : [files];
    if (specs.some((f) => f.mimeType)) {
      const spec = (f: FileSpec) => ({ mimeType: 'application/octet-stream', ...f });
      return this.locator(t).setInputFiles(specs.map(spec));
    }
    return this.locator(t).setInputFiles(this.files.paths(files));
  }
  async text(t: Target) {
    return (await this.locator(t).textContent()) ?? '';
  }
  inputValue(t: Target) {
    return this.locator(t).inputValue();
  }
  attribute(t: Target, name: string) {
    return this.locator(t).getAttribute(name);
  }
  setViewport(width: number, height: number) {
    return this.page.setViewportSize({ width, height });
  }
  setColorScheme(scheme: 'light' | 'dark') {
    return this.page.emulateMedia({ colorScheme: scheme });
  }
  async screenshot(name: string, folder = SCREENSHOTS) {
    mkdirSync(folder, { recursive: true });
    await this.page.screenshot({ path: join(folder, `${name}.png`), fullPage: true });
  }
  close() {
    return this.page.close();
  }
}

/** Runs in the service worker: notes the title and text of every notification the extension makes. */
function recordNotifications(): void {
  const g = globalThis as any;
  if (g.__shownNotifications) return;
  const shown: Record<string, { title: string; message: string }> = {};
  g.__shownNotifications = shown;
  for (const api of new Set([chrome.notifications, g.browser?.notifications])) {
    if (!api) continue;
    const create = api.create.bind(api);
    api.create = (...args: any[]) => {
      const [id, options] = typeof args[0] === 'string' ? args : [undefined, args[0]];
      const made = create(...args);
      const note = (madeId: unknown) => {
        if (typeof madeId === 'string') shown[madeId] = { title: options.title, message: options.message };
      };
      if (id) note(id);
      else Promise.resolve(made).then(note, () => {});
      return made;
    };
  }
}

/** A blank page on loopback, where the clipboard can be read (an extension origin cannot be granted it). */
async function startBlankSite() {
  const server = createServer((_, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>clipboard</title>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A Chromium without Hushdrop (a recipient's), kept as the driver keeps one: its extension parts fail. */
function plainBrowser(b: ChromiumBrowser): ExtensionBrowser {
  const none = (): never => {
    throw new Error('This Chromium was launched without Hushdrop.');
  };
  return {
    ...b,
    get sw() {
      return none();
    },
    extId: '',
    url: none,
    open: none,
    setSettings: none,
  };
}

export class ChromiumDriver implements Driver {
  readonly name = 'chromium' as const;
  static readonly can = { pasteFiles: true, stopWorkers: true };
  readonly can = ChromiumDriver.can;
  private blank: ReturnType<typeof startBlankSite> | undefined;
  private dialogsSeen = 0;
  /** Every download any tab started, for downloadedFiles to wait for. */
  private readonly downloads: Download[] = [];
  private readonly files: TestFiles;

  private constructor(
    /** The launched browser, for what only Chromium has (its service worker, CDP). */
    readonly browser: ExtensionBrowser,
    private readonly allowed: Set<string>,
  ) {
    this.files = new TestFiles(browser.profileDir);
    browser.ctx.on('dialog', (dialog) => {
      this.dialogsSeen++;
      dialog.dismiss().catch(() => {});
    });
    const watch = (page: Page) => page.on('download', (d) => this.downloads.push(d));
    browser.ctx.pages().forEach(watch);
    browser.ctx.on('page', watch);
  }

  static async launch(options: LaunchOptions = {}): Promise<ChromiumDriver> {
    if (options.plain)
      return new ChromiumDriver(plainBrowser(await launchChromium({ extensionDir: false })), new Set());
    const hosts = [...(options.grantHosts ?? []), ...(options.allowWhenAsked ?? [])];
    const browser = await launchExtension({
      grantHosts: hosts.map((h) => `http://${h}/*`),
      keepWelcome: options.keepWelcome,
    });
    await browser.sw.evaluate(recordNotifications);
    return new ChromiumDriver(browser, new Set(hosts));
  }

  /** The extension's service worker now running. */
  private worker() {
    const prefix = `chrome-extension://${this.browser.extId}/`;
    const sw = this.browser.ctx.serviceWorkers().find((w) => w.url().startsWith(prefix));
    if (!sw) throw new Error('The extension’s service worker is not running.');
    return sw;
  }

  url(path: string) {
    return this.browser.url(path);
  }
  async open(path: string) {
    return new ChromiumPage(await this.browser.open(path), this.files);
  }
  welcomePage() {
    if (!this.browser.welcome) throw new Error('The welcome page was not kept: launch with keepWelcome.');
    return new ChromiumPage(this.browser.welcome, this.files);
  }
  async openUrl(url: string) {
    const page = await this.browser.ctx.newPage();
    await page.goto(url);
    return new ChromiumPage(page, this.files);
  }
  async waitForNewPage(action: () => Promise<unknown>) {
    const [page] = await Promise.all([this.browser.ctx.waitForEvent('page'), action()]);
    await page.waitForLoadState();
    return new ChromiumPage(page, this.files);
  }
  setSettings(settings: Settings) {
    return this.browser.setSettings(settings);
  }
  async setStorage(items: Record<string, unknown>) {
    await this.worker().evaluate((i) => chrome.storage.local.set(i), items);
  }
  async getStorage(key: string) {
    return (await this.worker().evaluate((k) => chrome.storage.local.get(k), key))[key];
  }
  async jobs(): Promise<JobView[]> {
    const all = await this.worker().evaluate(() => chrome.storage.session.get('jobs'));
    return Object.values(all.jobs ?? {});
  }

  async contextMenu(page: DriverPage, t: Target, entry: MenuEntry) {
    // What Chromium's menu reports about the element under the pointer.
    const info = await (page as ChromiumPage).locator(t).evaluate((el) => {
      const media = el.closest('img, video, audio') as HTMLMediaElement | HTMLImageElement | null;
      const link = el.closest('a[href]') as HTMLAnchorElement | null;
      const selection = getSelection()?.toString() ?? '';
      return {
        pageUrl: location.href,
        ...(media
          ? {
              mediaType: media.tagName === 'IMG' ? 'image' : media.tagName.toLowerCase(),
              srcUrl: media.currentSrc || media.src,
            }
          : {}),
        ...(link ? { linkUrl: link.href } : {}),
        ...(selection ? { selectionText: selection } : {}),
      } as Record<string, string>;
    });
    const offered = {
      media: 'srcUrl',
      link: 'linkUrl',
      selection: 'selectionText',
      'check-payment': 'selectionText',
      page: 'pageUrl',
    }[entry];
    if (!info[offered])
      throw new Error(`Chromium would not offer the ${entry} entry on ${JSON.stringify(t)}.`);
    await this.worker().evaluate(
      async ({ info, id }) => {
        const tab = (await chrome.tabs.query({})).find((x: any) => x.url === info.pageUrl);
        if (!tab) throw new Error(`No tab shows ${info.pageUrl}.`);
        chrome.contextMenus.onClicked.dispatch({ menuItemId: id, editable: false, frameId: 0, ...info }, tab);
      },
      { info, id: MENU_IDS[entry] },
    );
  }

  async permissionPrompt(host: string, answer: 'allow' | 'deny') {
    if (answer === 'deny')
      throw new Error(
        'Chromium’s permission prompt is a native dialog no automation reaches: a declining case belongs in tests/e2e/firefox/.',
      );
    if (!this.allowed.has(host))
      throw new Error(
        `${host} was not granted at launch: name it in allowWhenAsked to stand in for the Allow.`,
      );
  }

  async clipboardText() {
    this.blank ??= startBlankSite();
    const { origin } = await this.blank;
    await this.browser.ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const page = await this.browser.ctx.newPage();
    try {
      await page.goto(`${origin}/`);
      return await page.evaluate(() => navigator.clipboard.readText());
    } finally {
      await page.close();
    }
  }

  async notifications() {
    return this.worker().evaluate(async () => {
      const shown = (globalThis as any).__shownNotifications ?? {};
      return Object.keys(await chrome.notifications.getAll()).map((id) => ({
        id,
        title: shown[id]?.title ?? '',
        text: shown[id]?.message ?? '',
      }));
    });
  }

  async download(page: DriverPage, action: () => Promise<unknown>) {
    const [download] = await Promise.all([(page as ChromiumPage).page.waitForEvent('download'), action()]);
    return { fileName: download.suggestedFilename(), path: (await download.path())! };
  }
  async downloadedFiles() {
    // failure() settles once its download has ended, whichever way.
    await Promise.all(this.downloads.map((d) => d.failure()));
    return filesIn(this.browser.downloadsDir);
  }

  async dialogs() {
    return this.dialogsSeen;
  }

  async badgeText(page: DriverPage) {
    return this.worker().evaluate(
      async (url) => {
        let tabId = (await chrome.tabs.query({})).find((t: any) => t.url === url)?.id;
        // Chromium 150 shows an extension no address of its own pages' tabs (no tabs permission); its
        // contexts name them.
        tabId ??= (await chrome.runtime.getContexts({ contextTypes: ['TAB' as any] })).find(
          (c: any) => c.documentUrl === url,
        )?.tabId;
        return tabId !== undefined ? chrome.action.getBadgeText({ tabId }) : 'no tab';
      },
      await page.url(),
    );
  }

  memory() {
    return treeMemory(this.browser.pid);
  }

  /** Through the DevTools protocol, in every open page. */
  async collectGarbage() {
    for (const page of this.browser.ctx.pages()) {
      const cdp = await this.browser.ctx.newCDPSession(page);
      try {
        await cdp.send('HeapProfiler.collectGarbage');
      } finally {
        await cdp.detach().catch(() => {});
      }
    }
  }

  /** Through the DevTools protocol, which stops them as Chromium stops an idle worker. */
  async stopServiceWorkers() {
    const cdp = await this.browser.ctx.newCDPSession(this.browser.ctx.pages()[0]!);
    try {
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
    } finally {
      await cdp.detach().catch(() => {});
    }
  }

  async close() {
    await this.browser.close();
    await (await this.blank)?.close();
  }
}
