// Debian's Chromium driven by playwright-core: the one launch recipe for the e2e tests, the bench
// and `npm start`, with the built extension loaded or (for the bench's baseline) without it.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page, type Worker } from 'playwright-core';
import type { Settings } from '../lib/settings';
import { childPids, processName } from './memory';
import { settingsItems } from './settings';
import { until } from './wait';

/** The Chromium build of the extension (`npm run build`). */
export const CHROMIUM_BUILD = resolve('.output/chrome-mv3');
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

declare const chrome: any;

export interface ChromiumOptions {
  /** The unpacked extension to load (default: the build); `false` for a browser without it. */
  extensionDir?: string | false;
  /**
   * Host patterns and permissions the copy of the extension holds as granted: they stand in for
   * the person's "Allow" on Chromium's permission prompt, which no automation can click in headless
   * Chromium (a native dialog: CDP does not reach it, and
   * --apps-gallery-install-auto-confirm-for-tests does not answer it in Chromium 156). The build is
   * copied and its manifest lists them, so the extension's real permissions.request for them
   * resolves true, as after an Allow. The code loaded is the built bundle, byte for byte; only
   * manifest.json differs.
   */
  grantHosts?: string[];
  grantPermissions?: string[];
  /** Restart a profile an earlier launch kept (`close({ keepProfile: true })`). */
  profileDir?: string;
  /** The browser's language (`--lang` picks the extension's messages; `locale` the pages' navigator.language). */
  lang?: string;
  headless?: boolean;
  executablePath?: string;
  /** false: a caller that stops things itself on Ctrl+C (npm start) must not have Playwright exit first. */
  handleSignals?: boolean;
  /**
   * Base64 SHA-256 public-key hashes of certificates to accept (a TLS reference server's
   * `tls.spkiSha256`): Chromium ignores certificate errors for exactly these, no others.
   */
  trustSpki?: string[];
  /**
   * A new installation opens the welcome page by itself (platform/first-run.ts). The launch waits
   * for it on a fresh profile and closes it, so every test starts with the tabs it opens, unless
   * this keeps it (a first-run test), as `welcome`.
   */
  keepWelcome?: boolean;
}

export interface ChromiumBrowser {
  ctx: BrowserContext;
  /** The browser's main process (its helpers are its descendants). */
  pid: number;
  /** The browser's profile directory (removed by close unless asked to keep it). */
  profileDir: string;
  /** Where its downloads are written (in the profile): Playwright names each file by a random id. */
  downloadsDir: string;
  close(options?: { keepProfile?: boolean }): Promise<void>;
}

export interface ExtensionBrowser extends ChromiumBrowser {
  /** The extension's service worker. */
  sw: Worker;
  extId: string;
  /** The welcome page the installation opened, when `keepWelcome` kept it. */
  welcome?: Page;
  url(path: string): string;
  /** Opens a page of the extension in a new tab. */
  open(path: string): Promise<Page>;
  setSettings(settings: Settings): Promise<void>;
}

/** The command-line flags of every Chromium started here. */
export function chromiumArgs(options: {
  extensionDir?: string;
  lang?: string;
  trustSpki?: string[];
}): string[] {
  return [
    ...(options.lang ? [`--lang=${options.lang}`] : []),
    '--no-sandbox',
    ...(options.extensionDir
      ? [`--disable-extensions-except=${options.extensionDir}`, `--load-extension=${options.extensionDir}`]
      : []),
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    ...(options.trustSpki?.length
      ? [`--ignore-certificate-errors-spki-list=${options.trustSpki.join(',')}`]
      : []),
  ];
}

/** Copies the extension into `profile` with extra granted hosts and permissions in its manifest. */
function grantedCopy(from: string, profile: string, hosts: string[], permissions: string[]): string {
  const dir = join(profile, 'extension');
  cpSync(from, dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  manifest.host_permissions = [...manifest.host_permissions, ...hosts];
  manifest.permissions = [...manifest.permissions, ...permissions];
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

/** Starts Chromium (with the extension unless `extensionDir` is false). */
export async function launchChromium(
  options: ChromiumOptions = {},
): Promise<ChromiumBrowser & { sw?: Worker; extId?: string; welcome?: Page }> {
  let extensionDir = options.extensionDir === false ? undefined : (options.extensionDir ?? CHROMIUM_BUILD);
  if (extensionDir && !existsSync(join(extensionDir, 'manifest.json')))
    throw new Error(`No built extension at ${extensionDir}: run \`npm run build\` first.`);
  const profile = options.profileDir ?? mkdtempSync(join(tmpdir(), 'hushdrop-chromium-'));
  if (extensionDir && (options.grantHosts?.length || options.grantPermissions?.length))
    extensionDir = grantedCopy(
      extensionDir,
      profile,
      options.grantHosts ?? [],
      options.grantPermissions ?? [],
    );
  // A profile Chromium has never run: the extension is installed now (not restarted).
  const fresh = !existsSync(join(profile, 'Default'));
  const before = new Set(childPids(process.pid));
  const downloadsDir = join(profile, 'downloads');
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: options.executablePath ?? CHROMIUM_PATH,
    headless: options.headless ?? true,
    viewport: options.headless === false ? null : undefined,
    handleSIGINT: options.handleSignals ?? true,
    handleSIGTERM: options.handleSignals ?? true,
    handleSIGHUP: options.handleSignals ?? true,
    acceptDownloads: true,
    downloadsPath: downloadsDir,
    ...(options.lang ? { locale: options.lang } : {}),
    args: chromiumArgs({ extensionDir, lang: options.lang, trustSpki: options.trustSpki }),
  });
  // playwright-core runs in this process, so the browser is a new child of it.
  const pid = childPids(process.pid).find((p) => !before.has(p) && /chrom/i.test(processName(p)));
  const close = async ({ keepProfile = false } = {}) => {
    await ctx.close();
    if (!keepProfile) rmSync(profile, { recursive: true, force: true });
  };
  if (pid === undefined) {
    await close();
    throw new Error('Chromium started, but its process was not found among this process’s children.');
  }
  if (!extensionDir) return { ctx, pid, profileDir: profile, downloadsDir, close };
  const sw = ctx.serviceWorkers()[0] ?? (await ctx.waitForEvent('serviceworker'));
  const extId = new URL(sw.url()).host;
  let welcome: Page | undefined;
  if (fresh) {
    welcome = await until(
      async () => ctx.pages().find((p) => p.url() === `chrome-extension://${extId}/welcome.html`),
      'the welcome page a new installation opens',
    );
    if (!options.keepWelcome) {
      await welcome.close();
      welcome = undefined;
    }
  }
  return { ctx, pid, profileDir: profile, downloadsDir, close, sw, extId, welcome };
}

/** Starts Chromium with the extension loaded (by default the build). */
export async function launchExtension(options: ChromiumOptions = {}): Promise<ExtensionBrowser> {
  const b = await launchChromium({ ...options, extensionDir: options.extensionDir || undefined });
  const sw = b.sw!;
  const url = (path: string) => `chrome-extension://${b.extId}/${path.replace(/^\//, '')}`;
  return {
    ...b,
    sw,
    extId: b.extId!,
    url,
    async open(path) {
      const page = await b.ctx.newPage();
      await page.goto(url(path));
      return page;
    },
    async setSettings(settings) {
      await sw.evaluate((items) => chrome.storage.local.set(items), settingsItems(settings));
    },
  };
}
