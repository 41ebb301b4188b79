// Headless firefox-esr with the built Firefox extension, reached over Marionette: the one launch
// recipe for the e2e tests and `npm start`. The page-driving API the e2e scenarios use is built on
// this in tests/e2e/driver/firefox.ts.
//
// How it works, and why it is honest: Firefox starts with --marionette and
// --remote-allow-system-access (without the latter Firefox 153 refuses to navigate to
// moz-extension:// pages); the unpacked build is installed as a temporary add-on, exactly as
// about:debugging does; the pref extensions.webextensions.uuids fixes its moz-extension:// host.
// What a person does in Firefox's own UI is done from Firefox's chrome with chrome-context
// scripts. Nothing in the shipped bundle knows about tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Settings } from '../lib/settings';
import { Marionette } from './marionette';
import { type Memory, treeMemory } from './memory';
import { settingsItems } from './settings';
import { until } from './wait';
import { asyncScript, scriptResult } from './webdriver';

/** The Firefox build of the extension (`npm run build:firefox`). */
export const FIREFOX_BUILD = resolve('.output/firefox-mv2');
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const ADDON_ID = 'hushdrop@hushdrop.invalid';
const UUID = '7b5a3d0e-6c4f-4f0e-9a57-1d2f3c4b5a69';

export interface FirefoxOptions {
  headless?: boolean;
  executablePath?: string;
  /** Abandons a launch still under way (the process it spawned is stopped). */
  signal?: AbortSignal;
  /** false: a plain Firefox, a recipient who has no Hushdrop (its pages are opened with openUrl). */
  extension?: boolean;
  /**
   * Installing the add-on opens the welcome page (platform/first-run.ts). The launch waits for it
   * and closes it, so every test starts with the tabs it opens, unless this keeps it (a first-run
   * test), as `welcome`.
   */
  keepWelcome?: boolean;
}

/** Runs a function's source in Marionette's current context, awaiting its promise. */
export async function runScript<R>(m: Marionette, source: string, arg: unknown): Promise<R> {
  const script = asyncScript(source);
  const { value } = await m.send('WebDriver:ExecuteAsyncScript', { script, args: [arg ?? null] });
  return scriptResult<R>(value);
}

/**
 * One Firefox with the extension installed. Marionette drives one tab at a time: every command
 * goes through `inWindow`, which selects the tab first and runs commands one after another.
 */
export class FirefoxBrowser {
  private queue: Promise<unknown> = Promise.resolve();
  private current: string;
  /** The welcome page's tab the installation opened, when `keepWelcome` kept it. */
  welcome?: string;

  constructor(
    private readonly m: Marionette,
    readonly process: ChildProcess,
    readonly profile: string,
    /** The first tab; it shows an extension page, where extension() runs. */
    readonly home: string,
    /** The extension's moz-extension:// host, fixed through a pref. */
    readonly uuid: string,
  ) {
    this.current = home;
  }

  get pid(): number {
    return this.process.pid!;
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

  /** Runs `fn` in whichever tab is selected. */
  serial<T>(fn: (m: Marionette) => Promise<T>): Promise<T> {
    return this.inWindow(this.current, fn);
  }

  /** Opens an address in a new tab; returns the tab's handle. */
  openUrl(url: string): Promise<string> {
    return this.serial(async (m) => {
      const { handle } = await m.send('WebDriver:NewWindow', { type: 'tab', focus: true });
      await m.send('WebDriver:SwitchToWindow', { handle, focus: true });
      this.current = handle;
      await m.send('WebDriver:Navigate', { url });
      return handle as string;
    });
  }

  async closeWindow(handle: string): Promise<void> {
    await this.inWindow(handle, async (m) => {
      await m.send('WebDriver:CloseWindow');
      await m.send('WebDriver:SwitchToWindow', { handle: this.home, focus: true });
      this.current = this.home;
    });
  }

  handles(): Promise<string[]> {
    return this.serial(async (m) => m.send<string[]>('WebDriver:GetWindowHandles'));
  }

  /** Evaluates `fn(arg)` in a tab's page (an extension page has the extension's `browser`). */
  run<A, R>(handle: string, fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.inWindow(handle, (m) => runScript<R>(m, fn.toString(), arg));
  }

  /**
   * Evaluates in Firefox's own (chrome) context, the browser window: menus, prompts, clipboard.
   * With `handle`, that tab is selected first (gBrowser.selectedTab is then that tab).
   */
  chrome<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A, handle = this.current): Promise<R> {
    return this.inWindow(handle, async (m) => {
      await m.send('Marionette:SetContext', { value: 'chrome' });
      try {
        return await runScript<R>(m, fn.toString(), arg);
      } finally {
        await m.send('Marionette:SetContext', { value: 'content' });
      }
    });
  }

  /** Evaluates in an extension page (the home tab), where `browser` is the extension's API. */
  extension<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.run(this.home, fn, arg);
  }

  async setSettings(settings: Settings): Promise<void> {
    await this.extension(
      (items) => (globalThis as any).browser.storage.local.set(items),
      settingsItems(settings),
    );
  }

  /**
   * Grants the extension access to `origins` (match patterns) as the person does with the site
   * switches on the add-on's Permissions tab in about:addons (ExtensionPermissions.add).
   */
  async grantOrigins(origins: string[]): Promise<void> {
    await this.chrome(
      async ({ id, origins }: { id: string; origins: string[] }) => {
        const g = globalThis as any;
        const { ExtensionPermissions } = g.ChromeUtils.importESModule(
          'resource://gre/modules/ExtensionPermissions.sys.mjs',
        );
        await ExtensionPermissions.add(
          id,
          { permissions: [], origins },
          g.WebExtensionPolicy.getByID(id).extension,
        );
      },
      { id: ADDON_ID, origins },
    );
  }

  /** Resident memory of Firefox and all its child processes. */
  memory(): Memory {
    return treeMemory(this.pid);
  }

  async close(): Promise<void> {
    await this.m.send('WebDriver:DeleteSession').catch(() => {});
    this.m.close();
    await stopProcess(this.process);
    rmSync(this.profile, { recursive: true, force: true });
  }
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

/** Starts Firefox with the built extension installed as a temporary add-on (or without it). */
export async function launchFirefox(options: FirefoxOptions = {}): Promise<FirefoxBrowser> {
  const firefox = options.executablePath ?? FIREFOX_PATH;
  const withExtension = options.extension ?? true;
  if (withExtension && !existsSync(join(FIREFOX_BUILD, 'manifest.json')))
    throw new Error(`No Firefox build at ${FIREFOX_BUILD}: run \`npm run build:firefox\` first.`);
  if (!existsSync(firefox))
    throw new Error(`Firefox is not at ${firefox}: install it with \`apt-get install firefox-esr\`.`);
  const profile = mkdtempSync(join(tmpdir(), 'hushdrop-firefox-'));
  const downloads = join(profile, 'downloads');
  mkdirSync(downloads);
  writeFileSync(
    join(profile, 'user.js'),
    Object.entries(prefs(UUID, downloads))
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
    // Firefox writes the port it chose into the profile once Marionette listens.
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
    if (withExtension) await m.send('Addon:Install', { path: FIREFOX_BUILD, temporary: true });
    const home = await m.send<string>('WebDriver:GetWindowHandle').then((r: any) => r.value ?? r);
    const fx = new FirefoxBrowser(m, child, profile, home, UUID);
    if (withExtension) {
      const welcome = await until(async () => {
        for (const handle of (await fx.handles()).filter((h) => h !== home)) {
          const url = await fx.inWindow(
            handle,
            async (mm) => (await mm.send('WebDriver:GetCurrentURL')).value,
          );
          if (url === fx.url('welcome.html')) return handle;
        }
        return undefined;
      }, 'the welcome page the installation opens');
      if (options.keepWelcome) fx.welcome = welcome;
      else await fx.closeWindow(welcome);
      await fx.inWindow(home, (mm) => mm.send('WebDriver:Navigate', { url: fx.url('icon/16.png') }));
    }
    return fx;
  } catch (err) {
    await stopProcess(child);
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
}
