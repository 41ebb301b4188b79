// Chromium for `npm start`: the person's own browser with a persistent profile and the extension
// loaded, and no switch a test harness would add (popup blocking, Safe Browsing, CRLSet updates,
// storage partitioning, HTTPS upgrades, the password store). Only running as root adds
// --no-sandbox (Chromium refuses to start as root without it); start.mjs says so on the terminal.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Settings } from '../../lib/settings';

export interface ChromiumOptions {
  executable: string;
  /** --user-data-dir */
  profile: string;
  /** The unpacked extension's folder. */
  extension: string;
  /** No display: run headless (a person then stops it with Ctrl+C). */
  headless: boolean;
  /** Running as root: Chromium needs --no-sandbox. */
  asRoot: boolean;
  /** Let a program drive this browser (tests; `HUSHDROP_REMOTE_DEBUGGING=1`); headless always does. */
  remoteDebugging: boolean;
}

/** Chromium's id for an unpacked extension: SHA-256 of its absolute path, 16 bytes, each hex digit as a–p. */
export function unpackedExtensionId(path: string): string {
  const hex = createHash('sha256').update(path).digest('hex').slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + Number.parseInt(c, 16))).join('');
}

/** The browser's whole command line after the executable. */
export function chromiumArgs(o: ChromiumOptions, url?: string): string[] {
  return [
    `--user-data-dir=${o.profile}`,
    `--load-extension=${o.extension}`,
    ...(o.asRoot ? ['--no-sandbox'] : []),
    ...(o.headless ? ['--headless'] : []),
    ...(o.remoteDebugging || o.headless ? ['--remote-debugging-port=0'] : []),
    ...(url ? [url] : []),
  ];
}

/** Replaces the extension copy Chromium loads with the current build. */
export function installBuild(built: string, copy: string): void {
  if (!existsSync(join(built, 'manifest.json')))
    throw new Error(`There is no built extension in ${built}: run npm start without --no-build.`);
  rmSync(copy, { recursive: true, force: true });
  cpSync(built, copy, { recursive: true });
}

/** The pid of a Chromium that holds the profile now (its SingletonLock is `<host>-<pid>`), if any. */
export function profileHolder(profile: string): number | undefined {
  let target: string;
  try {
    target = readlinkSync(join(profile, 'SingletonLock'));
  } catch {
    return undefined;
  }
  const pid = Number(/-(\d+)$/.exec(target)?.[1]);
  if (!pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/** Resolves when `child` exits; rejects with its exit when it exits before `ready()` says it runs. */
async function started(
  child: ChildProcess,
  ready: () => boolean | Promise<boolean>,
  timeoutMs = 120_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`it exited at once (${child.signalCode ?? `code ${child.exitCode}`})`);
    if (Date.now() > end) throw new Error(`it gave no sign of life in ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    // SIGTERM: Chromium closes as when its window is closed, writing its profile out.
    child.kill('SIGTERM');
  });
}

/**
 * Starts Chromium on `url`; resolves once it holds its profile (it runs) and, headless, once it has
 * been asked to open `url`.
 *
 * Headless Chromium (156) never loads a page named on its command line while an extension with the
 * declarativeNetRequest permission loads: the navigation waits without end (with a window it loads).
 * So a headless start names only about:blank and opens `url` through DevTools, which headless runs
 * always have.
 */
export async function launchChromium(o: ChromiumOptions, url: string): Promise<ChildProcess> {
  mkdirSync(o.profile, { recursive: true });
  rmSync(join(o.profile, 'DevToolsActivePort'), { force: true });
  // about:blank, because with no page named headless Chromium opens a New Tab page that keeps
  // Playwright's connectOverCDP waiting without end.
  const child = spawn(o.executable, chromiumArgs(o, o.headless ? 'about:blank' : url), { stdio: 'ignore' });
  child.once('error', () => {});
  try {
    // Nobody held the profile before (start.mjs checks): whoever holds it now is this browser (or
    // what a wrapper script started for it).
    await started(child, () => profileHolder(o.profile) !== undefined);
    if (o.headless) {
      await started(child, () => debuggingEndpoint(o.profile) !== undefined);
      const answer = await fetch(`${debuggingEndpoint(o.profile)}/json/new?${url}`, { method: 'PUT' });
      if (!answer.ok) throw new Error(`it did not open ${url} (DevTools answered ${answer.status})`);
    }
  } catch (err) {
    await stopProcess(child);
    throw err;
  }
  return child;
}

/** The DevTools address of a browser started with remote debugging (its profile says which port). */
export function debuggingEndpoint(profile: string): string | undefined {
  const file = join(profile, 'DevToolsActivePort');
  if (!existsSync(file)) return undefined;
  const [port, path] = readFileSync(file, 'utf8').split('\n');
  return path === undefined ? undefined : `http://127.0.0.1:${port}`;
}

/**
 * Whether the browser at `endpoint` has loaded a page (it has a title) and runs the extension
 * `id`. Attaching a DevTools client while a page still loads makes Chromium cancel its navigation,
 * and Playwright then waits for it without end; so clients wait for this first.
 */
export async function settled(endpoint: string, id: string): Promise<boolean> {
  try {
    const targets: { type: string; title: string; url: string }[] = await (
      await fetch(`${endpoint}/json/list`)
    ).json();
    return (
      targets.some((t) => t.type === 'page' && t.title && t.title !== t.url) &&
      targets.some((t) => t.url.startsWith(`chrome-extension://${id}/`))
    );
  } catch {
    return false;
  }
}

/**
 * Writes the extension's settings once, in a headless run of the same profile driven over the
 * DevTools protocol, then closes it; the browser the person uses afterwards is started without it.
 * `update` gets what is stored (and its settings version) and returns what to store. `url` is a
 * page with a title (the server's) for that run to open.
 */
export async function writeSettings(
  o: ChromiumOptions,
  url: string,
  update: (stored: unknown, version: number | undefined) => Settings,
  version: number,
): Promise<void> {
  const child = await launchChromium({ ...o, headless: true, remoteDebugging: true }, url);
  try {
    const id = unpackedExtensionId(o.extension);
    await started(child, () => debuggingEndpoint(o.profile) !== undefined);
    const endpoint = debuggingEndpoint(o.profile)!;
    await started(child, () => settled(endpoint, id));
    const browser = await chromium.connectOverCDP(endpoint);
    const origin = `chrome-extension://${id}/`;
    const ctx = browser.contexts()[0]!;
    const worker =
      ctx.serviceWorkers().find((w) => w.url().startsWith(origin)) ??
      (await ctx.waitForEvent('serviceworker', {
        predicate: (w) => w.url().startsWith(origin),
        timeout: 60_000,
      }));
    const stored = await worker.evaluate(() =>
      (globalThis as any).chrome.storage.local.get(['settings', 'settings$']),
    );
    const next = update(stored.settings, stored.settings$?.v);
    await worker.evaluate(
      ({ s, v }) => (globalThis as any).chrome.storage.local.set({ settings: s, settings$: { v } }),
      { s: next, v: version },
    );
    const session = await browser.newBrowserCDPSession();
    const exited = new Promise((r) => child.once('exit', r));
    await session.send('Browser.close').catch(() => {});
    await exited;
  } finally {
    await stopProcess(child);
  }
}
