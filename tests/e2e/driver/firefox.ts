// The Driver for Firefox: Marionette on headless firefox-esr with the built Firefox extension
// (devkit/firefox.ts launches it). Pages are driven like any page: real clicks, typing,
// file inputs with files on disk. What a person does in Firefox's own UI — the right-click menu,
// the permission doorhanger, the dialog of a link handler, the clipboard, notifications, the
// downloads list — is done or read in Firefox's chrome with chrome-context scripts, on the real
// menus and prompts. No stand-ins.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FIREFOX_BUILD, type FirefoxBrowser, launchFirefox } from '../../../devkit/firefox';
import { type Marionette, MarionetteError } from '../../../devkit/marionette';
import { until } from '../../../devkit/wait';
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
import { describe, ELEMENT, FIND, FOUND, filled, keyPress, newPage, wire } from './webdriver-targets';

const SCREENSHOTS = resolve('test-results/screenshots');
/** The labels of Hushdrop's menu entries, as the build's English messages give them. */
const MENU_LABELS: Record<MenuEntry, string> = (() => {
  const messages = JSON.parse(readFileSync(join(FIREFOX_BUILD, '_locales/en/messages.json'), 'utf8'));
  return {
    media: messages.menuMedia.message,
    link: messages.menuLink.message,
    selection: messages.menuSelection.message,
    page: messages.menuPage.message,
    'check-payment': messages.menuCheckPayment.message,
  };
})();

export class FirefoxPage implements DriverPage {
  constructor(
    private readonly d: FirefoxDriver,
    readonly handle: string,
  ) {}

  private in<T>(fn: (m: Marionette) => Promise<T>): Promise<T> {
    return this.d.fx.inWindow(this.handle, fn);
  }

  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.d.fx.run(this.handle, fn, arg);
  }

  async addScript(source: string): Promise<void> {
    await this.in((m) => m.send('WebDriver:ExecuteScript', { script: source, args: [] }));
  }

  url(): Promise<string> {
    return this.in(async (m) => (await m.send('WebDriver:GetCurrentURL')).value);
  }

  async reload(): Promise<void> {
    await this.in((m) => m.send('WebDriver:Refresh'));
  }

  /** The element, once it exists (an error naming the target otherwise). */
  private element(m: Marionette, t: Target, timeout = 30_000): Promise<Record<string, string>> {
    return until(
      async () =>
        (
          await m.send('WebDriver:ExecuteScript', {
            script: `${FIND}; return find(arguments[0]);`,
            args: [wire(t)],
          })
        ).value ?? undefined,
      describe(t),
      timeout,
    );
  }

  async waitFor(t: Target, options: { timeout?: number; visible?: boolean } = {}): Promise<void> {
    await until(
      () =>
        this.in(async (m) => {
          const found = (
            await m.send('WebDriver:ExecuteScript', {
              script: FOUND,
              args: [wire(t), options.visible ?? false],
            })
          ).value;
          return found ? true : undefined;
        }),
      describe(t),
      options.timeout ?? 30_000,
    );
  }

  async count(t: Target): Promise<number> {
    return this.evaluate(
      ({ find, w }) => {
        const f = new Function(`${find}; return find;`)();
        let n = 0;
        while (f({ ...w, nth: n })) n++;
        return n;
      },
      { find: FIND, w: wire(t) },
    );
  }

  /**
   * A real click (Marionette scrolls it into view, checks it can be clicked, and clicks). An element
   * re-rendered between finding and clicking (a progress update) is found again.
   */
  click(t: Target): Promise<void> {
    return this.in(async (m) => {
      for (let attempt = 1; ; attempt++) {
        const el = await this.element(m, t);
        try {
          await m.send('WebDriver:ElementClick', { id: el[ELEMENT] });
          return;
        } catch (err) {
          if (!(err instanceof MarionetteError && err.error === 'stale element reference') || attempt >= 5)
            throw err;
        }
      }
    });
  }

  fill(t: Target, text: string): Promise<void> {
    return this.in(async (m) => {
      const id = (await this.element(m, t))[ELEMENT];
      await filled(text, async () => {
        await m.send('WebDriver:ElementClear', { id });
        if (text) await m.send('WebDriver:ElementSendKeys', { id, text });
        return (await m.send('WebDriver:GetElementProperty', { id, name: 'value' })).value;
      });
    });
  }

  /** A real key press through WebDriver actions, sent to whatever has focus. */
  press(key: Key): Promise<void> {
    return this.in(async (m) => {
      await m.send('WebDriver:PerformActions', keyPress(key));
      await m.send('WebDriver:ReleaseActions');
    });
  }

  async focus(t: Target): Promise<void> {
    await this.waitFor(t);
    await this.evaluate(
      ({ find, w }) => (new Function(`${find}; return find;`)()(w) as HTMLElement).focus(),
      { find: FIND, w: wire(t) },
    );
  }

  focused(): Promise<{ tag: string; text: string; label: string }> {
    return this.evaluate(focusedElement);
  }

  async check(t: Target, checked = true): Promise<void> {
    if ((await this.property(t, 'checked')) !== checked) await this.click(t);
  }

  uncheck(t: Target): Promise<void> {
    return this.check(t, false);
  }

  /** Chooses the option with this value by clicking it. */
  selectOption(t: Target, value: string): Promise<void> {
    return this.click({ css: `option[value="${value}"]`, within: t });
  }

  /** Files are written to disk first, so Firefox reads them from there as from a file picker. */
  setInputFiles(t: Target, files: FileSpec | FileSpec[] | string): Promise<void> {
    const paths = this.d.files.paths(files);
    return this.in(async (m) => {
      const el = await this.element(m, t);
      await m.send('WebDriver:ElementSendKeys', { id: el[ELEMENT], text: paths.join('\n') });
    });
  }

  private property(t: Target, name: string): Promise<any> {
    return this.in(async (m) => {
      const el = await this.element(m, t);
      return (await m.send('WebDriver:GetElementProperty', { id: el[ELEMENT], name })).value;
    });
  }

  async text(t: Target): Promise<string> {
    return String((await this.property(t, 'textContent')) ?? '');
  }

  async inputValue(t: Target): Promise<string> {
    return String((await this.property(t, 'value')) ?? '');
  }

  attribute(t: Target, name: string): Promise<string | null> {
    return this.in(async (m) => {
      const el = await this.element(m, t);
      return (await m.send('WebDriver:GetElementAttribute', { id: el[ELEMENT], name })).value;
    });
  }

  /** Presses the right mouse button on the element: Firefox opens its real context menu. */
  rightClick(t: Target): Promise<void> {
    return this.in(async (m) => {
      const el = await this.element(m, t);
      await m.send('WebDriver:PerformActions', {
        actions: [
          {
            type: 'pointer',
            id: 'mouse',
            parameters: { pointerType: 'mouse' },
            actions: [
              { type: 'pointerMove', origin: el, x: 0, y: 0 },
              { type: 'pointerDown', button: 2 },
              { type: 'pointerUp', button: 2 },
            ],
          },
        ],
      });
      await m.send('WebDriver:ReleaseActions');
    });
  }

  /**
   * Marionette sizes the window, toolbars included: sized again by what the page then measures.
   * A Firefox window is never narrower than about 500 px; a narrower viewport is that window with
   * the tab zoomed in (as a phone's CSS pixels are larger than its device pixels): the page lays
   * out, scrolls and measures at the width asked for.
   */
  async setViewport(width: number, height: number): Promise<void> {
    const zoom = (z: number) =>
      this.d.fx.chrome(
        (to: number) => {
          (globalThis as any).gBrowser.selectedBrowser.fullZoom = to;
        },
        z,
        this.handle,
      );
    const inner = () => this.evaluate(() => [window.innerWidth, window.innerHeight] as [number, number]);
    const resizeBy = (dw: number, dh: number) =>
      this.in(async (m) => {
        const got = await m.send('WebDriver:GetWindowRect');
        const rect = got.value ?? got;
        await m.send('WebDriver:SetWindowRect', { width: rect.width + dw, height: rect.height + dh });
      });
    let z = 1;
    await zoom(z);
    let [w, h] = await inner();
    for (let attempt = 0; attempt < 6 && (w !== width || h !== height); attempt++) {
      if (attempt === 2 && w > width) {
        // The window would go no narrower: zoom in so that its width is `width` CSS pixels.
        z = w / width;
        await zoom(z);
      } else await resizeBy(Math.round((width - w) * z), Math.round((height - h) * z));
      [w, h] = await inner();
    }
    if (w !== width || h !== height)
      throw new Error(`Firefox's viewport stayed ${w}×${h}, not ${width}×${height}.`);
  }

  /**
   * Firefox's content override of `prefers-color-scheme` (0 dark, 1 light), set in its chrome: it
   * applies to every tab, extension pages included, and pages re-evaluate their media queries at once.
   */
  async setColorScheme(scheme: 'light' | 'dark'): Promise<void> {
    await this.d.fx.chrome((dark: boolean) => {
      (globalThis as any).Services.prefs.setIntPref(
        'layout.css.prefers-color-scheme.content-override',
        dark ? 0 : 1,
      );
    }, scheme === 'dark');
    await until(
      async () =>
        (await this.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)) ===
        (scheme === 'dark')
          ? true
          : undefined,
      `the page to follow the ${scheme} scheme`,
    );
  }

  screenshot(name: string, folder?: string): Promise<void> {
    return this.in(async (m) => {
      const png = (await m.send('WebDriver:TakeScreenshot', { full: true, hash: false })).value;
      const dir = folder ?? SCREENSHOTS;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, folder ? `${name}.png` : `firefox-${name}.png`), Buffer.from(png, 'base64'));
    });
  }

  close(): Promise<void> {
    return this.d.fx.closeWindow(this.handle);
  }
}

export class FirefoxDriver implements Driver {
  readonly name = 'firefox' as const;
  static readonly can = { pasteFiles: false, stopWorkers: true };
  readonly can = FirefoxDriver.can;
  private downloadsSeen = 0;
  /** What tests give the pages, written in the profile. */
  readonly files: TestFiles;

  private constructor(readonly fx: FirefoxBrowser) {
    this.files = new TestFiles(fx.profile);
  }

  static async launch(options: LaunchOptions = {}): Promise<FirefoxDriver> {
    const fx = await launchFirefox({ extension: !options.plain, keepWelcome: options.keepWelcome });
    try {
      if (options.grantHosts?.length) await fx.grantOrigins(options.grantHosts.map((h) => `http://${h}/*`));
    } catch (err) {
      await fx.close();
      throw err;
    }
    return new FirefoxDriver(fx);
  }

  url(path: string) {
    return this.fx.url(path);
  }
  open(path: string) {
    return this.openUrl(this.fx.url(path));
  }
  welcomePage() {
    if (!this.fx.welcome) throw new Error('The welcome page was not kept: launch with keepWelcome.');
    return new FirefoxPage(this, this.fx.welcome);
  }
  async openUrl(url: string) {
    return new FirefoxPage(this, await this.fx.openUrl(url));
  }

  waitForNewPage(action: () => Promise<unknown>, timeout = 30_000): Promise<FirefoxPage> {
    return newPage(
      () => this.fx.handles(),
      (h) => new FirefoxPage(this, h),
      action,
      timeout,
    );
  }

  setSettings(settings: Settings) {
    return this.fx.setSettings(settings);
  }
  async setStorage(items: Record<string, unknown>) {
    await this.fx.extension((i) => (globalThis as any).browser.storage.local.set(i), items);
  }
  async getStorage(key: string) {
    return (await this.fx.extension((k) => (globalThis as any).browser.storage.local.get(k), key))[key];
  }
  async jobs(): Promise<JobView[]> {
    const all = await this.fx.extension(() => (globalThis as any).browser.storage.session.get('jobs'));
    return Object.values(all.jobs ?? {});
  }

  async contextMenu(page: DriverPage, t: Target, entry: MenuEntry) {
    await (page as FirefoxPage).rightClick(t);
    await this.chooseMenuItem(MENU_LABELS[entry]);
  }

  /** Chooses an item of the open right-click menu by its label, as a click on it would. */
  private async chooseMenuItem(label: string): Promise<void> {
    const found = await until(
      () =>
        this.fx.chrome((l: string) => {
          const menu = (globalThis as any).document.getElementById('contentAreaContextMenu');
          if (menu.state !== 'open') return undefined;
          const item = [...menu.querySelectorAll('menuitem')].find(
            (i: any) => !i.hidden && i.getAttribute('label') === l,
          ) as any;
          if (!item) {
            const shown = [...menu.querySelectorAll('menuitem')]
              .filter((i: any) => !i.hidden)
              .map((i: any) => i.getAttribute('label'));
            menu.hidePopup();
            return `missing; the menu had: ${shown.join(' | ')}`;
          }
          // Firefox puts an extension's entries in a submenu named after it when more than one
          // applies (selected text: upload it, or check it as a payment request): open it first.
          const popup = item.closest('menupopup');
          if (popup !== menu && popup.state !== 'open') {
            popup.parentElement.openMenu(true);
            return undefined;
          }
          popup.activateItem(item);
          return 'chosen';
        }, label),
      'the right-click menu to open',
    );
    if (found !== 'chosen') throw new Error(`Menu item "${label}" ${found}`);
  }

  /** Waits for Firefox's permission doorhanger, checks that it names `host`, and answers it. */
  async permissionPrompt(host: string, answer: 'allow' | 'deny'): Promise<void> {
    const text = await until(
      () =>
        this.fx.chrome((yes: boolean) => {
          const g = globalThis as any;
          const panel = g.PopupNotifications.panel;
          const el = [...panel.children].find((c: any) => c.id === 'addon-webext-permissions-notification');
          if (!el || panel.state !== 'open') return undefined;
          const text = el.textContent.replace(/\s+/g, ' ').trim();
          (yes ? el.button : el.secondaryButton).click();
          return text as string;
        }, answer === 'allow'),
      'the permission prompt',
    );
    if (!text.includes(host)) throw new Error(`The permission prompt did not name ${host}: "${text}"`);
  }

  /**
   * Accepts the dialog Firefox shows when a page opens a link of a scheme an extension handles
   * ("Allow this site to open the bitcoin link with …?"); returns its text. Firefox only.
   */
  answerLinkHandlerDialog(): Promise<string> {
    return until(
      () =>
        this.fx.chrome(() => {
          const browsers = [...(globalThis as any).document.querySelectorAll('browser')] as any[];
          const b = browsers.find((x) => /handling\/(permissionDialog|appChooser)/.test(x.currentURI?.spec));
          const d = b?.contentDocument;
          const dialog = d?.querySelector('dialog');
          // Until the dialog element is set up it has no buttons (getButton throws): not yet.
          if (!dialog?._buttons) return undefined;
          const accept = dialog.getButton('accept');
          // The button is enabled after a short security delay: wait for that state.
          if (!accept || accept.disabled) return undefined;
          const text = d.documentElement.textContent.replace(/\s+/g, ' ').trim();
          accept.click();
          return text as string;
        }),
      'the dialog asking which application opens the link',
    );
  }

  clipboardText(): Promise<string> {
    return this.fx.chrome(() => {
      const g = globalThis as any;
      const t = g.Cc['@mozilla.org/widget/transferable;1'].createInstance(g.Ci.nsITransferable);
      t.init(null);
      t.addDataFlavor('text/plain');
      g.Services.clipboard.getData(t, g.Services.clipboard.kGlobalClipboard);
      const out: any = {};
      try {
        t.getTransferData('text/plain', out);
      } catch {
        return '';
      }
      return out.value.QueryInterface(g.Ci.nsISupportsString).data as string;
    });
  }

  /** Firefox's own alert windows (the profile turns the system's off: headless has none). */
  notifications() {
    return this.fx.chrome(() => {
      const out: { title: string; text: string }[] = [];
      for (const w of (globalThis as any).Services.wm.getEnumerator('alert:alert')) {
        const d = w.document;
        out.push({
          title: d.getElementById('alertTitleLabel')?.getAttribute('value') ?? '',
          text: d.getElementById('alertTextLabel')?.textContent ?? '',
        });
      }
      return out;
    });
  }

  /**
   * Firefox's downloads list: the download `action` starts, once it has succeeded. Each download
   * goes to a folder of its own, so the file keeps the name it was offered under (Firefox would
   * rename a second photo.bin to photo(1).bin).
   */
  async download(_page: DriverPage, action: () => Promise<unknown>, timeout = 60_000) {
    const dir = join(this.fx.profile, 'downloads', String(++this.downloadsSeen));
    mkdirSync(dir, { recursive: true });
    await this.fx.chrome((path: string) => {
      (globalThis as any).Services.prefs.setStringPref('browser.download.dir', path);
    }, dir);
    const list = () =>
      this.fx.chrome(async (): Promise<{ path: string; done: boolean }[]> => {
        const { Downloads } = (globalThis as any).ChromeUtils.importESModule(
          'resource://gre/modules/Downloads.sys.mjs',
        );
        const all = await (await Downloads.getList(Downloads.ALL)).getAll();
        return all.map((d: any) => ({ path: d.target.path as string, done: d.succeeded as boolean }));
      });
    const before = (await list()).length;
    await action();
    const d = await until(
      async () => (await list()).slice(before).find((x) => x.done),
      'a download to finish',
      timeout,
    );
    return { path: d.path, fileName: d.path.split('/').pop()! };
  }

  /** The profile's download folder (the launch's and every download()'s own folder are in it). */
  async downloadedFiles() {
    await until(
      async () =>
        (await this.fx.chrome(async (): Promise<boolean> => {
          const { Downloads } = (globalThis as any).ChromeUtils.importESModule(
            'resource://gre/modules/Downloads.sys.mjs',
          );
          const all = await (await Downloads.getList(Downloads.ALL)).getAll();
          return all.every((d: any) => d.stopped);
        })) || undefined,
      'every download to end',
    );
    return filesIn(join(this.fx.profile, 'downloads'));
  }

  /** One if a dialog is open in the selected tab (an earlier one would have failed a command). */
  async dialogs(): Promise<number> {
    return this.fx.serial(async (m) => {
      try {
        await m.send('WebDriver:GetAlertText');
        return 1;
      } catch (err) {
        if (err instanceof MarionetteError && err.error === 'no such alert') return 0;
        throw err;
      }
    });
  }

  /** The badge on the page's tab (found by Firefox's own tab id: without "tabs", URLs are hidden). */
  async badgeText(page: DriverPage): Promise<string> {
    const tabId = await this.fx.chrome(
      () => {
        const g = globalThis as any;
        const { ExtensionParent } = g.ChromeUtils.importESModule(
          'resource://gre/modules/ExtensionParent.sys.mjs',
        );
        return ExtensionParent.apiManager.global.tabTracker.getId(g.gBrowser.selectedTab) as number;
      },
      undefined,
      (page as FirefoxPage).handle,
    );
    return this.fx.extension(
      (id: number) => (globalThis as any).browser.browserAction.getBadgeText({ tabId: id }),
      tabId,
    );
  }

  /** Evaluates in Firefox's own (chrome) context: for what only Firefox has. */
  chrome<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.fx.chrome(fn, arg);
  }

  memory() {
    return this.fx.memory();
  }

  /** A forced collection and the memory-pressure notice about:memory's "Minimize memory usage" sends. */
  async collectGarbage() {
    await this.fx.chrome(() => {
      const g = globalThis as any;
      g.Cu.forceGC();
      g.Services.obs.notifyObservers(null, 'memory-pressure', 'heap-minimize');
    });
  }

  /** Through the service worker manager (what about:debugging's Stop does). */
  async stopServiceWorkers() {
    await this.fx.chrome(() => {
      const g = globalThis as any;
      const manager = g.Cc['@mozilla.org/serviceworkers/manager;1'].getService(g.Ci.nsIServiceWorkerManager);
      const registrations = manager.getAllRegistrations();
      for (let i = 0; i < registrations.length; i++) {
        const r = registrations.queryElementAt(i, g.Ci.nsIServiceWorkerRegistrationInfo);
        r.activeWorker?.terminateWorker();
      }
    });
  }

  close() {
    return this.fx.close();
  }
}
