// Firefox for `npm start -- --firefox`: a persistent profile, and the build installed as a temporary
// add-on through Marionette, as about:debugging would (Firefox loads an unsigned add-on no other way
// without turning signature checks off for the whole profile). Temporary add-ons go when Firefox
// quits, so two preferences keep their data (the uploads list, the settings) and their fixed
// moz-extension:// address for the next start. Firefox shows its remote-control stripe meanwhile.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Marionette } from '../../devkit/marionette';
import type { Settings } from '../../lib/settings';
import { stopProcess } from './chromium';

export const ADDON_ID = 'hushdrop@hushdrop.invalid';
/** The extension's moz-extension:// host in npm start's profile (fixed, so its data stays its own). */
const UUID = '3c1f7a52-8d0e-4b6a-9f21-6e5d4c3b2a10';

export interface FirefoxOptions {
  executable: string;
  profile: string;
  /** The unpacked build (its manifest.json). */
  extension: string;
  headless: boolean;
  signal?: AbortSignal;
}

export interface StartedFirefox {
  process: ChildProcess;
  /** Marionette's port on 127.0.0.1: where a program drives this Firefox (after `release`). */
  marionettePort: number;
  /** Ends npm start's own Marionette session, which Firefox allows one of, so another can drive it. */
  release(): Promise<void>;
  url(path: string): string;
  /** Reads what the extension stores and writes what `update` returns. */
  updateSettings(
    update: (stored: unknown, version: number | undefined) => Settings,
    version: number,
  ): Promise<void>;
  open(url: string): Promise<void>;
  close(): Promise<void>;
}

const PREFS: Record<string, unknown> = {
  'marionette.port': 0,
  'extensions.webextensions.uuids': JSON.stringify({ [ADDON_ID]: UUID }),
  'extensions.webextensions.keepStorageOnUninstall': true,
  'extensions.webextensions.keepUuidOnUninstall': true,
};

/** Sets npm start's preferences in the profile's user.js, keeping any others found there. */
function writePrefs(profile: string): void {
  const file = join(profile, 'user.js');
  const ours = new Set(Object.keys(PREFS));
  const kept = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '' && ![...ours].some((k) => line.includes(JSON.stringify(k))))
    : [];
  const lines = Object.entries(PREFS).map(
    ([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`,
  );
  writeFileSync(file, `${[...kept, ...lines].join('\n')}\n`);
}

async function until<T>(
  probe: () => T | undefined,
  what: string,
  o: { child: ChildProcess; signal?: AbortSignal },
) {
  const end = Date.now() + 120_000;
  for (;;) {
    o.signal?.throwIfAborted();
    if (o.child.exitCode !== null || o.child.signalCode !== null)
      throw new Error(`it exited at start (${what})`);
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`it gave no sign of life in 120 s (${what})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function launchFirefox(o: FirefoxOptions): Promise<StartedFirefox> {
  mkdirSync(o.profile, { recursive: true });
  writePrefs(o.profile);
  const portFile = join(o.profile, 'MarionetteActivePort');
  rmSync(portFile, { force: true });
  const child = spawn(
    o.executable,
    [
      '--marionette',
      ...(o.headless ? ['--headless'] : []),
      '--remote-allow-system-access',
      '--profile',
      o.profile,
    ],
    { stdio: 'ignore' },
  );
  child.once('error', () => {});
  try {
    const port = await until(
      () => (existsSync(portFile) ? Number(readFileSync(portFile, 'utf8').trim()) || undefined : undefined),
      'Marionette',
      { child, signal: o.signal },
    );
    const m = await Marionette.connect(port);
    await m.send('WebDriver:NewSession', { capabilities: { alwaysMatch: { acceptInsecureCerts: false } } });
    await m.send('Addon:Install', { path: o.extension, temporary: true });
    const url = (path: string) => `moz-extension://${UUID}/${path.replace(/^\//, '')}`;
    const run = async (script: string, args: unknown[]) =>
      (await m.send('WebDriver:ExecuteAsyncScript', { script, args })).value;
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await m.send('WebDriver:DeleteSession').catch(() => {});
      m.close();
    };
    return {
      process: child,
      marionettePort: port,
      release,
      url,
      async updateSettings(update, version) {
        // An extension page has the extension's storage.
        await m.send('WebDriver:Navigate', { url: url('icon/16.png') });
        const stored = await run(
          'const done = arguments[arguments.length - 1]; browser.storage.local.get(["settings", "settings$"]).then(done);',
          [],
        );
        const next = update(stored?.settings, stored?.settings$?.v);
        await run(
          'const [s, v, done] = arguments; browser.storage.local.set({ settings: s, settings$: { v } }).then(() => done());',
          [next, version],
        );
      },
      async open(target) {
        await m.send('WebDriver:Navigate', { url: target });
      },
      async close() {
        await release();
        await stopProcess(child);
      },
    };
  } catch (err) {
    await stopProcess(child);
    throw err;
  }
}
