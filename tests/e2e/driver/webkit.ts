// The Driver for WebKit: W3C WebDriver (WebKitWebDriver) on MiniBrowser under Xvfb, launched by
// devkit/webkit.ts. WebKit runs no extension, so this driver is a recipient's browser only
// (LaunchOptions.plain): what needs the extension fails with a sentence saying so. Pages are
// driven the real way: clicks and keys through WebDriver's actions, file inputs given files on
// disk, and the downloads WebKit itself writes to its download folder.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { until } from '../../../devkit/wait';
import { asyncScript, scriptResult, WebDriverError } from '../../../devkit/webdriver';
import { launchWebKit, PARTIAL_DOWNLOAD, type WebKitBrowser } from '../../../devkit/webkit';
import { filesIn } from './download-folder';
import {
  type Driver,
  type DriverPage,
  type FileSpec,
  focusedElement,
  type Key,
  type LaunchOptions,
  type Target,
} from './driver';
import { TestFiles } from './test-files';
import { describe, ELEMENT, FIND, FOUND, filled, keyPress, newPage, wire } from './webdriver-targets';

const SCREENSHOTS = resolve('test-results/screenshots');

type Send = <T = any>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => Promise<T>;

function noExtension(): never {
  throw new Error('WebKit runs no extension: this browser is a recipient’s, for pages opened with openUrl.');
}

export class WebKitPage implements DriverPage {
  constructor(
    private readonly d: WebKitDriver,
    readonly handle: string,
  ) {}

  private in<T>(fn: (send: Send) => Promise<T>): Promise<T> {
    return this.d.inWindow(this.handle, fn);
  }

  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.in(async (send) =>
      scriptResult<R>(
        await send('POST', '/execute/async', { script: asyncScript(fn.toString()), args: [arg ?? null] }),
      ),
    );
  }

  async addScript(source: string): Promise<void> {
    await this.in((send) => send('POST', '/execute/sync', { script: source, args: [] }));
  }

  url(): Promise<string> {
    return this.in((send) => send<string>('GET', '/url'));
  }

  async reload(): Promise<void> {
    await this.in((send) => send('POST', '/refresh', {}));
  }

  /** The element's reference, once it exists (an error naming the target otherwise). */
  private element(send: Send, t: Target, timeout = 30_000): Promise<string> {
    return until(
      async () => {
        const el = await send<Record<string, string> | null>('POST', '/execute/sync', {
          script: `${FIND}; return find(arguments[0]);`,
          args: [wire(t)],
        });
        return el?.[ELEMENT];
      },
      describe(t),
      timeout,
    );
  }

  /** Runs `fn` with the element's reference; an element re-rendered in between is found again. */
  private withElement<T>(t: Target, fn: (send: Send, id: string) => Promise<T>): Promise<T> {
    return this.in(async (send) => {
      for (let attempt = 1; ; attempt++) {
        const id = await this.element(send, t);
        try {
          return await fn(send, id);
        } catch (err) {
          if (!(err instanceof WebDriverError && err.error === 'stale element reference') || attempt >= 5)
            throw err;
        }
      }
    });
  }

  async waitFor(t: Target, options: { timeout?: number; visible?: boolean } = {}): Promise<void> {
    await until(
      () =>
        this.in(async (send) =>
          (await send<boolean>('POST', '/execute/sync', {
            script: FOUND,
            args: [wire(t), options.visible ?? false],
          }))
            ? true
            : undefined,
        ),
      describe(t),
      options.timeout ?? 30_000,
    );
  }

  count(t: Target): Promise<number> {
    return this.in((send) =>
      send<number>('POST', '/execute/sync', {
        script: `${FIND}; let n = 0; while (find({ ...arguments[0], nth: n })) n++; return n;`,
        args: [wire(t)],
      }),
    );
  }

  /** WebDriver's Element Click: scrolled into view, checked that it can be clicked, and clicked. */
  click(t: Target): Promise<void> {
    return this.withElement(t, (send, id) => send('POST', `/element/${id}/click`));
  }

  fill(t: Target, text: string): Promise<void> {
    return this.withElement(t, (send, id) =>
      filled(text, async () => {
        await send('POST', `/element/${id}/clear`);
        if (text) await send('POST', `/element/${id}/value`, { text });
        return send('GET', `/element/${id}/property/value`);
      }),
    );
  }

  press(key: Key): Promise<void> {
    return this.in(async (send) => {
      await send('POST', '/actions', keyPress(key));
      await send('DELETE', '/actions');
    });
  }

  async focus(t: Target): Promise<void> {
    await this.withElement(t, (send, id) =>
      send('POST', '/execute/sync', { script: 'arguments[0].focus();', args: [{ [ELEMENT]: id }] }),
    );
  }

  focused(): Promise<{ tag: string; text: string; label: string }> {
    return this.evaluate(focusedElement);
  }

  private property<T>(t: Target, name: string): Promise<T> {
    return this.withElement(t, (send, id) => send<T>('GET', `/element/${id}/property/${name}`));
  }

  async check(t: Target, checked = true): Promise<void> {
    if ((await this.property<boolean>(t, 'checked')) !== checked) await this.click(t);
  }

  uncheck(t: Target): Promise<void> {
    return this.check(t, false);
  }

  /** Chooses the option with this value by clicking it. */
  selectOption(t: Target, value: string): Promise<void> {
    return this.click({ css: `option[value="${value}"]`, within: t });
  }

  /** Files are written to disk first and their paths typed into the input, as WebDriver does it. */
  setInputFiles(t: Target, files: FileSpec | FileSpec[] | string): Promise<void> {
    const paths = this.d.files.paths(files);
    return this.withElement(t, (send, id) =>
      send('POST', `/element/${id}/value`, { text: paths.join('\n') }),
    );
  }

  async text(t: Target): Promise<string> {
    return String((await this.property<string | null>(t, 'textContent')) ?? '');
  }

  async inputValue(t: Target): Promise<string> {
    return String((await this.property<string | null>(t, 'value')) ?? '');
  }

  /** The attribute as written (WebKitWebDriver's Get Element Attribute gives a link's resolved href). */
  attribute(t: Target, name: string): Promise<string | null> {
    return this.withElement(t, (send, id) =>
      send<string | null>('POST', '/execute/sync', {
        script: 'return arguments[0].getAttribute(arguments[1]);',
        args: [{ [ELEMENT]: id }, name],
      }),
    );
  }

  /** Sizes the window, then again by what the page measures (the toolbar takes some of its height). */
  async setViewport(width: number, height: number): Promise<void> {
    const inner = () => this.evaluate(() => [window.innerWidth, window.innerHeight] as [number, number]);
    let [w, h] = [0, 0];
    for (let attempt = 0; attempt < 4; attempt++) {
      await this.in(async (send) => {
        const rect = await send<{ width: number; height: number }>('GET', '/window/rect');
        await send('POST', '/window/rect', {
          width: attempt === 0 ? width : rect.width + width - w,
          height: attempt === 0 ? height : rect.height + height - h,
        });
      });
      [w, h] = await inner();
      if (w === width && h === height) return;
    }
    throw new Error(`WebKit's viewport stayed ${w}×${h}, not ${width}×${height}.`);
  }

  /** MiniBrowser takes its colour scheme at launch (--dark-mode); WebDriver cannot switch it. */
  setColorScheme(_scheme: 'light' | 'dark'): Promise<void> {
    throw new Error('MiniBrowser’s colour scheme is set at launch; this driver cannot switch it on a page.');
  }

  /**
   * The viewport, not the full page: WebKitWebDriver's screenshot of the root element never answered
   * (2.50), so this is WebDriver's own screenshot, of what the window shows.
   */
  screenshot(name: string, folder?: string): Promise<void> {
    return this.in(async (send) => {
      const png = await send<string>('GET', '/screenshot');
      const dir = folder ?? SCREENSHOTS;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, folder ? `${name}.png` : `webkit-${name}.png`), Buffer.from(png, 'base64'));
    });
  }

  close(): Promise<void> {
    return this.d.closeWindow(this.handle);
  }
}

export class WebKitDriver implements Driver {
  readonly name = 'webkit' as const;
  /**
   * pasteFiles: WebKit's ClipboardEvent keeps the DataTransfer it is given, files included (checked
   * in MiniBrowser 2.50), so a page here can be pasted a file as in Chromium.
   */
  static readonly can = { pasteFiles: true, stopWorkers: false };
  readonly can = WebKitDriver.can;
  readonly files: TestFiles;
  private queue: Promise<unknown> = Promise.resolve();
  private current: string;

  private constructor(readonly browser: WebKitBrowser) {
    this.files = new TestFiles(browser.dir);
    this.current = browser.home;
  }

  static async launch(options: LaunchOptions = {}): Promise<WebKitDriver> {
    if (!options.plain)
      throw new Error('WebKit runs no extension: launch it with { plain: true }, as a recipient’s browser.');
    return new WebKitDriver(await launchWebKit());
  }

  /** Runs `fn` with the given window selected; one command at a time, as the session has one current window. */
  inWindow<T>(handle: string, fn: (send: Send) => Promise<T>): Promise<T> {
    const send: Send = (method, path, body) => this.browser.session.send(method, path, body);
    const run = async () => {
      if (this.current !== handle) {
        await send('POST', '/window', { handle });
        this.current = handle;
      }
      return fn(send);
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  private handles(): Promise<string[]> {
    return this.inWindow(this.current, (send) => send<string[]>('GET', '/window/handles'));
  }

  async closeWindow(handle: string): Promise<void> {
    await this.inWindow(handle, async (send) => {
      await send('DELETE', '/window');
      await send('POST', '/window', { handle: this.browser.home });
      this.current = this.browser.home;
    });
  }

  readonly url = noExtension;
  readonly open = noExtension;
  readonly welcomePage = noExtension;

  /** A new window of MiniBrowser (a hidden tab is never drawn: no screenshot), at `url` once loaded. */
  async openUrl(url: string): Promise<WebKitPage> {
    const handle = await this.inWindow(this.current, async (send) => {
      const { handle } = await send<{ handle: string }>('POST', '/window/new', { type: 'window' });
      await send('POST', '/window', { handle });
      this.current = handle;
      await send('POST', '/url', { url });
      return handle;
    });
    return new WebKitPage(this, handle);
  }

  waitForNewPage(action: () => Promise<unknown>, timeout = 30_000): Promise<WebKitPage> {
    return newPage(
      () => this.handles(),
      (h) => new WebKitPage(this, h),
      action,
      timeout,
    );
  }

  // What needs the extension.
  readonly setSettings = noExtension;
  readonly setStorage = noExtension;
  readonly getStorage = noExtension;
  readonly jobs = noExtension;
  readonly contextMenu = noExtension;
  readonly permissionPrompt = noExtension;
  readonly notifications = noExtension;
  readonly badgeText = noExtension;

  clipboardText(): Promise<string> {
    throw new Error('This driver does not read WebKit’s clipboard (WebDriver has no command for it).');
  }

  /** The download folder's top level. */
  private entries(): string[] {
    return readdirSync(this.browser.downloadsDir);
  }

  /** Whether a download is still being written: its `.wkdownload` is there, or WebKit holds it open. */
  private writing(name: string, open = this.browser.openDownloads()): boolean {
    const path = join(this.browser.downloadsDir, name);
    return name.endsWith(PARTIAL_DOWNLOAD) || existsSync(path + PARTIAL_DOWNLOAD) || open.has(path);
  }

  /**
   * Waits for the download `action` starts to end in WebKit's download folder: a new file that
   * WebKit no longer writes. (WebKit would not write a file of a name already there: every download
   * of one browser has a name of its own.)
   */
  async download(_page: DriverPage, action: () => Promise<unknown>, timeout = 120_000) {
    const dir = this.browser.downloadsDir;
    const before = new Set(this.entries());
    await action();
    const started = new Set<string>();
    const name = await until(
      async () => {
        const open = this.browser.openDownloads();
        const added = this.entries().filter((n) => !before.has(n) && !n.endsWith(PARTIAL_DOWNLOAD));
        for (const n of added) if (this.writing(n, open)) started.add(n);
        // An empty file not yet seen written may be the placeholder of a download about to start.
        return added.find(
          (n) => !this.writing(n, open) && (started.has(n) || statSync(join(dir, n)).size > 0),
        );
      },
      'a download to finish',
      timeout,
    );
    return { fileName: name, path: join(dir, name) };
  }

  async downloadedFiles() {
    await until(
      async () => {
        const open = this.browser.openDownloads();
        return this.entries().every((n) => !this.writing(n, open)) || undefined;
      },
      'every download to end',
      120_000,
    );
    return filesIn(this.browser.downloadsDir);
  }

  /** One if a dialog is open in the current window (WebKitWebDriver then fails other commands). */
  dialogs(): Promise<number> {
    return this.inWindow(this.current, async (send) => {
      try {
        await send('GET', '/alert/text');
        return 1;
      } catch (err) {
        if (err instanceof WebDriverError && err.error === 'no such alert') return 0;
        throw err;
      }
    });
  }

  memory() {
    return this.browser.memory();
  }

  collectGarbage(): Promise<void> {
    throw new Error('WebKitWebDriver has no command to collect garbage.');
  }

  stopServiceWorkers(): Promise<void> {
    throw new Error('WebKitWebDriver has no command to stop a service worker.');
  }

  close() {
    return this.browser.close();
  }
}
