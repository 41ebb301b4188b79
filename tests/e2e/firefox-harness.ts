// Launches headless firefox-esr with the built Firefox extension and drives it over Marionette.
//
// How it works, and why it is honest: Firefox starts with --marionette and
// --remote-allow-system-access (without the latter Firefox 153 refuses to navigate to
// moz-extension:// pages); the unpacked build is installed as a temporary add-on, exactly as
// about:debugging does; the pref extensions.webextensions.uuids fixes its moz-extension:// host.
// Pages are then driven like any page: real clicks, typing, file inputs with files on disk.
// What a person does in Firefox's own UI (the right-click menu, the permission prompt, the
// notification, the clipboard, the downloads list) is done or read from Firefox's chrome with
// chrome-context scripts, on the real menus and prompts. Nothing in the shipped bundle knows
// about tests.
import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SETTINGS_VERSION } from '../../lib/settings';
import { Marionette, MarionetteError } from './marionette';

export const FIREFOX_EXT_PATH = resolve('.output/firefox-mv2');
export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const ADDON_ID = 'hushdrop@hushdrop.invalid';
const SCREENSHOTS = resolve('test-results/screenshots');
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
const UUID = '7b5a3d0e-6c4f-4f0e-9a57-1d2f3c4b5a69';

/**
 * What a test points at: a CSS selector, or a selector narrowed by the text it contains, the
 * label of a form control, or an element it must be inside of.
 */
export type Target =
  | string
  | { css?: string; hasText?: string | RegExp; label?: string | RegExp; within?: Target; nth?: number };

type WireTarget = {
  css?: string;
  text?: [string, string];
  label?: [string, string];
  within?: WireTarget;
  nth?: number;
};

function wire(t: Target): WireTarget {
  if (typeof t === 'string') return { css: t };
  const pattern = (p: string | RegExp): [string, string] =>
    typeof p === 'string' ? [p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), ''] : [p.source, p.flags];
  return {
    css: t.css,
    text: t.hasText === undefined ? undefined : pattern(t.hasText),
    label: t.label === undefined ? undefined : pattern(t.label),
    within: t.within === undefined ? undefined : wire(t.within),
    nth: t.nth,
  };
}

// Runs in the page: finds the element a WireTarget names (null when there is none yet).
const FIND = `function find(t) {
  const root = t.within ? find(t.within) : document;
  if (!root) return null;
  let els;
  if (t.label) {
    const re = new RegExp(t.label[0], t.label[1]);
    els = [...root.querySelectorAll('label')].filter((l) => re.test(l.textContent)).map((l) => l.control).filter(Boolean);
  } else els = [...root.querySelectorAll(t.css || '*')];
  if (t.css && t.label) els = els.filter((e) => e.matches(t.css));
  if (t.text) { const re = new RegExp(t.text[0], t.text[1]); els = els.filter((e) => re.test(e.textContent)); }
  return els[t.nth || 0] || null;
}`;

function describe(t: Target): string {
  return typeof t === 'string' ? t : JSON.stringify(t, (_, v) => (v instanceof RegExp ? String(v) : v));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it gives a value other than undefined; fails with `what` after `timeout` ms. */
export async function until<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeout = 30_000,
): Promise<T> {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`Timed out after ${timeout} ms waiting for ${what}.`);
    await sleep(100);
  }
}

export interface FileSpec {
  name: string;
  mimeType?: string;
  buffer: Buffer;
}

/** One tab, driven through Marionette. Methods mirror the Playwright ones the Chromium suites use. */
export class FirefoxPage {
  constructor(
    private readonly fx: FirefoxExtension,
    readonly handle: string,
  ) {}

  private in<T>(fn: (m: Marionette) => Promise<T>): Promise<T> {
    return this.fx.inWindow(this.handle, fn);
  }

  /** Evaluates `fn(arg)` in the page (an extension page has the extension's `browser`). */
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.in((m) => runInPage<R>(m, fn.toString(), arg));
  }

  url(): Promise<string> {
    return this.in(async (m) => (await m.send('WebDriver:GetCurrentURL')).value);
  }

  /** The element, once it exists (an error naming the target otherwise). */
  private async element(m: Marionette, t: Target, timeout: number): Promise<Record<string, string>> {
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
    const timeout = options.timeout ?? 30_000;
    await until(
      () =>
        this.in(async (m) => {
          const found = (
            await m.send('WebDriver:ExecuteScript', {
              script: `${FIND}; const e = find(arguments[0]); return !!e && (!arguments[1] || e.getClientRects().length > 0);`,
              args: [wire(t), options.visible ?? false],
            })
          ).value;
          return found ? true : undefined;
        }),
      describe(t),
      timeout,
    );
  }

  async count(t: Target): Promise<number> {
    const w = wire(t);
    return this.evaluate(
      ({ find, w }) => {
        const f = new Function(`${find}; return find;`)();
        let n = 0;
        while (f({ ...w, nth: n })) n++;
        return n;
      },
      { find: FIND, w },
    );
  }

  /**
   * A real click (Marionette scrolls it into view, checks it can be clicked, and clicks). An element
   * re-rendered between finding and clicking (a progress update) is found again.
   */
  click(t: Target, timeout = 30_000): Promise<void> {
    return this.in(async (m) => {
      for (let attempt = 1; ; attempt++) {
        const el = await this.element(m, t, timeout);
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

  /** Replaces an input's text by typing it. */
  fill(t: Target, text: string): Promise<void> {
    return this.in(async (m) => {
      const el = await this.element(m, t, 30_000);
      await m.send('WebDriver:ElementClear', { id: el[ELEMENT] });
      if (text) await m.send('WebDriver:ElementSendKeys', { id: el[ELEMENT], text });
    });
  }

  async check(t: Target, checked = true): Promise<void> {
    if ((await this.property(t, 'checked')) !== checked) await this.click(t);
  }

  uncheck(t: Target): Promise<void> {
    return this.check(t, false);
  }

  /** Chooses the option with this value in a <select>, by clicking it. */
  selectOption(t: Target, value: string): Promise<void> {
    return this.click({ css: `option[value="${value}"]`, within: t });
  }

  /** Sets the files of an <input type=file>: written to disk first, so Firefox reads them from there. */
  setInputFiles(t: Target, files: FileSpec | FileSpec[] | string): Promise<void> {
    const paths =
      typeof files === 'string'
        ? [files]
        : (Array.isArray(files) ? files : [files]).map((f) => this.fx.writeTempFile(f.name, f.buffer));
    return this.in(async (m) => {
      const el = await this.element(m, t, 30_000);
      await m.send('WebDriver:ElementSendKeys', { id: el[ELEMENT], text: paths.join('\n') });
    });
  }

  property(t: Target, name: string): Promise<any> {
    return this.in(async (m) => {
      const el = await this.element(m, t, 30_000);
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
      const el = await this.element(m, t, 30_000);
      return (await m.send('WebDriver:GetElementAttribute', { id: el[ELEMENT], name })).value;
    });
  }

  /** Presses right mouse button on the element: Firefox opens its real context menu. */
  rightClick(t: Target): Promise<void> {
    return this.in(async (m) => {
      const el = await this.element(m, t, 30_000);
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

  screenshot(name: string): Promise<void> {
    return this.in(async (m) => {
      const png = (await m.send('WebDriver:TakeScreenshot', { full: true, hash: false })).value;
      mkdirSync(SCREENSHOTS, { recursive: true });
      writeFileSync(join(SCREENSHOTS, `firefox-${name}.png`), Buffer.from(png, 'base64'));
    });
  }

  close(): Promise<void> {
    return this.fx.closeWindow(this.handle);
  }
}

/** Runs a function's source in the current context, awaiting its promise. */
async function runInPage<R>(m: Marionette, source: string, arg: unknown): Promise<R> {
  const script = `const [arg, done] = arguments;
    Promise.resolve().then(() => (${source})(arg)).then(
      (value) => done(value === undefined ? { undefined: true } : { value }),
      (error) => done({ error: String(error) + (error && error.stack ? ' at ' + error.stack : '') }));`;
  const { value } = await m.send('WebDriver:ExecuteAsyncScript', { script, args: [arg ?? null] });
  if (value?.error) throw new Error(`In the page: ${value.error}`);
  return (value?.undefined ? undefined : value?.value) as R;
}

export interface Download {
  path: string;
  fileName: string;
}

export class FirefoxExtension {
  private queue: Promise<unknown> = Promise.resolve();
  private current = '';
  private files = 0;

  constructor(
    private readonly m: Marionette,
    readonly process: ChildProcess,
    readonly profile: string,
    readonly home: string,
    /** The extension's moz-extension:// host, fixed through a pref. */
    readonly uuid: string,
  ) {
    this.current = home;
  }

  url(path: string): string {
    return `moz-extension://${this.uuid}/${path.replace(/^\//, '')}`;
  }

  /** Runs `fn` with the given tab selected; one at a time, since Marionette drives one tab. */
  inWindow<T>(handle: string, fn: (m: Marionette) => Promise<T>): Promise<T> {
    const run = async () => {
      if (this.current !== handle) {
        await this.m.send('WebDriver:SwitchToWindow', { handle, focus: true });
        this.current = handle;
      }
      return fn(this.m);
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  private serial<T>(fn: (m: Marionette) => Promise<T>): Promise<T> {
    return this.inWindow(this.current, fn);
  }

  /** Opens a page of the extension in a new tab. */
  open(path: string): Promise<FirefoxPage> {
    return this.openUrl(this.url(path));
  }

  /** Opens any address in a new tab. */
  async openUrl(url: string): Promise<FirefoxPage> {
    const handle = await this.serial(async (m) => {
      const { handle } = await m.send('WebDriver:NewWindow', { type: 'tab', focus: true });
      await m.send('WebDriver:SwitchToWindow', { handle, focus: true });
      this.current = handle;
      await m.send('WebDriver:Navigate', { url });
      return handle as string;
    });
    return new FirefoxPage(this, handle);
  }

  async closeWindow(handle: string): Promise<void> {
    await this.inWindow(handle, async (m) => {
      await m.send('WebDriver:CloseWindow');
      await m.send('WebDriver:SwitchToWindow', { handle: this.home, focus: true });
      this.current = this.home;
    });
  }

  private handles(): Promise<string[]> {
    return this.serial(async (m) => m.send<string[]>('WebDriver:GetWindowHandles'));
  }

  /** Runs `action` and returns the tab it opened, once that tab has loaded. */
  async waitForNewPage(action: () => Promise<unknown>, timeout = 30_000): Promise<FirefoxPage> {
    const before = new Set(await this.handles());
    await action();
    const handle = await until(
      async () => (await this.handles()).find((h) => !before.has(h)),
      'a new tab',
      timeout,
    );
    const page = new FirefoxPage(this, handle);
    await until(
      async () =>
        (await page.evaluate(() => document.readyState).catch(() => 'loading')) === 'complete'
          ? true
          : undefined,
      'the new tab to load',
      timeout,
    );
    return page;
  }

  /** Evaluates in Firefox's own (chrome) context, the browser window: menus, prompts, clipboard. */
  chrome<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.serial(async (m) => {
      await m.send('Marionette:SetContext', { value: 'chrome' });
      try {
        return await runInPage<R>(m, fn.toString(), arg);
      } finally {
        await m.send('Marionette:SetContext', { value: 'content' });
      }
    });
  }

  /** Evaluates in an extension page (the home tab shows one), with the extension's `browser`. */
  extension<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return new FirefoxPage(this, this.home).evaluate(fn, arg);
  }

  async setSettings(settings: unknown): Promise<void> {
    // The version marker tells the settings item that no migration is due.
    await this.extension(
      ({ s, v }: { s: unknown; v: number }) =>
        (globalThis as any).browser.storage.local.set({ settings: s, settings$: { v } }),
      { s: settings, v: SETTINGS_VERSION },
    );
  }

  /** The text on the system clipboard. */
  clipboardText(): Promise<string> {
    return this.chrome(() => {
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

  /** Notifications on screen (Firefox's own alert windows; the profile turns off the system ones). */
  notifications(): Promise<{ title: string; text: string }[]> {
    return this.chrome(() => {
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

  /** Chooses an item of the open right-click menu by its label, as a click on it would. */
  async chooseMenuItem(label: string): Promise<void> {
    const found = await until(
      () =>
        this.chrome((l: string) => {
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
          if (popup !== menu) {
            if (popup.state !== 'open') {
              popup.parentElement.openMenu(true);
              return undefined;
            }
          }
          popup.activateItem(item);
          return 'chosen';
        }, label),
      'the right-click menu to open',
    );
    if (found !== 'chosen') throw new Error(`Menu item "${label}" ${found}`);
  }

  /** Waits for the extension's permission prompt and answers it; returns its text. */
  async answerPermissionPrompt(accept: boolean): Promise<string> {
    return until(
      () =>
        this.chrome((yes: boolean) => {
          const g = globalThis as any;
          const panel = g.PopupNotifications.panel;
          const el = [...panel.children].find((c: any) => c.id === 'addon-webext-permissions-notification');
          if (!el || panel.state !== 'open') return undefined;
          const text = el.textContent.replace(/\s+/g, ' ').trim();
          (yes ? el.button : el.secondaryButton).click();
          return text;
        }, accept),
      'the permission prompt',
    );
  }

  /**
   * Accepts the dialog Firefox shows when a page opens a link of a scheme an extension handles
   * ("Allow this site to open the bitcoin link with …?"); returns its text.
   */
  answerLinkHandlerDialog(): Promise<string> {
    return until(
      () =>
        this.chrome(() => {
          const browsers = [...(globalThis as any).document.querySelectorAll('browser')] as any[];
          const b = browsers.find((x) => /handling\/(permissionDialog|appChooser)/.test(x.currentURI?.spec));
          const d = b?.contentDocument;
          const accept = d?.querySelector('dialog')?.getButton('accept');
          // The button is enabled after a short security delay: wait for that state.
          if (!accept || accept.disabled) return undefined;
          const text = d.documentElement.textContent.replace(/\s+/g, ' ').trim();
          accept.click();
          return text as string;
        }),
      'the dialog asking which application opens the link',
    );
  }

  /** Runs `action` and waits for the download it starts to finish. */
  async download(action: () => Promise<unknown>, timeout = 60_000): Promise<Download> {
    const list = () =>
      this.chrome(async (): Promise<{ path: string; done: boolean }[]> => {
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

  writeTempFile(name: string, bytes: Buffer): string {
    const dir = join(this.profile, 'test-files', String(++this.files));
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  }

  /** Resident memory of Firefox and all its child processes, in bytes, by kind. */
  memory(): ReturnType<typeof treeMemory> {
    return treeMemory(this.process.pid!);
  }

  async close(): Promise<void> {
    await this.m.send('WebDriver:DeleteSession').catch(() => {});
    this.m.close();
    await stopProcess(this.process);
    rmSync(this.profile, { recursive: true, force: true });
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirNumbers('/proc')) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(entry);
    } catch {}
  }
  return out;
}

function readdirNumbers(dir: string): number[] {
  return readdirSync(dir)
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

/** Resident memory of a process and its descendants, by kind (anonymous, file-backed, shared). */
export function treeMemory(pid: number): { anon: number; file: number; shmem: number; total: number } {
  const sum = { anon: 0, file: 0, shmem: 0, total: 0 };
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
      sum.anon += kb('RssAnon');
      sum.file += kb('RssFile');
      sum.shmem += kb('RssShmem');
      sum.total += kb('VmRSS');
    } catch {}
    stack.push(...childrenOf(p));
  }
  return sum;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function prefs(uuid: string, downloads: string): Record<string, unknown> {
  return {
    'marionette.port': 0,
    'extensions.webextensions.uuids': JSON.stringify({ [ADDON_ID]: uuid }),
    // Notifications as Firefox's own alert windows (headless has no system notification service).
    'alerts.useSystemBackend': false,
    // Downloads land in a known folder without asking.
    'browser.download.folderList': 2,
    'browser.download.dir': downloads,
    'browser.download.useDownloadDir': true,
    'browser.download.always_ask_before_handling_new_types': false,
    'browser.download.alwaysOpenPanel': false,
  };
}

/**
 * Makes the active server profile point at `server` through the options page, answering Firefox's
 * permission prompt with yes when the server's host needs one.
 */
export async function saveServerInOptions(
  fx: FirefoxExtension,
  server: { baseUrl: string; apiUrl: string; uploadUrl: string },
  variant: 'legacy' | 'current',
): Promise<void> {
  const page = await fx.open('options.html');
  await page.fill('#baseUrl', server.baseUrl);
  await page.fill('#apiUrl', server.apiUrl);
  await page.fill('#uploadUrl', server.uploadUrl);
  await page.selectOption('#variant', variant);
  await page.click('#save');
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(server.baseUrl)) await fx.answerPermissionPrompt(true);
  await until(async () => ((await page.text('#save ~ p')) === 'Saved.' ? true : undefined), '"Saved."');
  await page.close();
}

/** Starts Firefox with the built extension installed as a temporary add-on. */
export async function launchFirefox(
  options: { headless?: boolean; executablePath?: string; signal?: AbortSignal } = {},
): Promise<FirefoxExtension> {
  const firefox = options.executablePath ?? FIREFOX;
  if (!existsSync(join(FIREFOX_EXT_PATH, 'manifest.json')))
    throw new Error(`No Firefox build at ${FIREFOX_EXT_PATH}: run \`npm run build:firefox\` first.`);
  if (!existsSync(firefox))
    throw new Error(`Firefox is not at ${firefox}: install it with \`apt-get install firefox-esr\`.`);
  const profile = mkdtempSync(join(tmpdir(), 'hushdrop-firefox-'));
  const downloads = join(profile, 'downloads');
  mkdirSync(downloads);
  const uuid = UUID;
  writeFileSync(
    join(profile, 'user.js'),
    Object.entries(prefs(uuid, downloads))
      .map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`)
      .join('\n'),
  );
  const child = spawn(
    firefox,
    [
      '--marionette',
      ...(options.headless === false ? [] : ['--headless']),
      '--remote-allow-system-access',
      '--no-remote',
      '--profile',
      profile,
    ],
    { stdio: 'ignore', env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1' } },
  );
  try {
    const portFile = join(profile, 'MarionetteActivePort');
    const port = await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`Firefox exited at start (code ${child.exitCode}).`);
        options.signal?.throwIfAborted();
        const text = existsSync(portFile) ? readFileSync(portFile, 'utf8').trim() : '';
        return Number(text) || undefined;
      },
      'Firefox to start Marionette',
      60_000,
    );
    const m = await Marionette.connect(port);
    await m.send('WebDriver:NewSession', { capabilities: { alwaysMatch: { acceptInsecureCerts: false } } });
    await m.send('Addon:Install', { path: FIREFOX_EXT_PATH, temporary: true });
    const home = await m.send<string>('WebDriver:GetWindowHandle').then((r: any) => r.value ?? r);
    const fx = new FirefoxExtension(m, child, profile, home, uuid);
    // The home tab shows an extension page, where tests read and set the extension's storage.
    await fx.inWindow(home, (mm) => mm.send('WebDriver:Navigate', { url: fx.url('icon/16.png') }));
    return fx;
  } catch (err) {
    await stopProcess(child);
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
}
