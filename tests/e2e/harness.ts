// Launches Debian's Chromium with the built extension loaded, for the e2e tests.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Locator, type Page, type Worker } from 'playwright-core';
import { expect } from 'vitest';
import { newProfile, SETTINGS_VERSION } from '../../lib/settings';

export const EXT_PATH = resolve('.output/chrome-mv3');
export const SCREENSHOTS = resolve('test-results/screenshots');

declare const chrome: any;

export interface ExtensionBrowser {
  ctx: BrowserContext;
  sw: Worker;
  extId: string;
  url(path: string): string;
  open(path: string): Promise<Page>;
  setSettings(settings: unknown): Promise<void>;
  /** The browser's profile directory (removed by close unless asked to keep it). */
  profileDir: string;
  close(options?: { keepProfile?: boolean }): Promise<void>;
}

/** A loopback address the manifest does not grant: servers there need the permission request. */
export const UNGRANTED_HOST = '127.0.0.2';

/**
 * Starts Chromium with the built extension. `grantHosts` and `grantPermissions` stand in for the
 * person's "Allow" on Chromium's permission prompt, which no automation can click in headless
 * Chromium (it is a native dialog; CDP does not reach it, and
 * --apps-gallery-install-auto-confirm-for-tests does not answer it in Chromium 156): the build is
 * copied and its manifest lists them as granted, so the extension's real permissions.request for
 * them resolves true, as after an Allow. The code loaded is the built bundle, byte for byte; only
 * manifest.json differs. `profileDir` restarts a profile an earlier launch kept.
 */
export async function launchExtension(
  options: {
    grantHosts?: string[];
    grantPermissions?: string[];
    profileDir?: string;
    /** The browser's language (`--lang` picks the extension's messages; `locale` the pages' navigator.language). */
    lang?: string;
    headless?: boolean;
    executablePath?: string;
    handleSignals?: boolean;
    /**
     * Base64 SHA-256 public-key hashes of certificates to accept (a TLS reference server's
     * `tls.spkiSha256`): Chromium ignores certificate errors for exactly these, no others.
     */
    trustSpki?: string[];
  } = {},
): Promise<ExtensionBrowser> {
  if (!existsSync(join(EXT_PATH, 'manifest.json')))
    throw new Error(`No built extension at ${EXT_PATH}: run \`npm run build\` first.`);
  const profile = options.profileDir ?? mkdtempSync(join(tmpdir(), 'hushdrop-e2e-'));
  let extPath = EXT_PATH;
  if (options.grantHosts?.length || options.grantPermissions?.length) {
    extPath = join(profile, 'extension');
    cpSync(EXT_PATH, extPath, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(extPath, 'manifest.json'), 'utf8'));
    manifest.host_permissions = [...manifest.host_permissions, ...(options.grantHosts ?? [])];
    manifest.permissions = [...manifest.permissions, ...(options.grantPermissions ?? [])];
    writeFileSync(join(extPath, 'manifest.json'), JSON.stringify(manifest));
  }
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: options.executablePath ?? process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: options.headless ?? true,
    viewport: options.headless === false ? null : undefined,
    // A caller that stops things itself on Ctrl+C (npm start) must not have Playwright exit first.
    handleSIGINT: options.handleSignals ?? true,
    handleSIGTERM: options.handleSignals ?? true,
    handleSIGHUP: options.handleSignals ?? true,
    acceptDownloads: true,
    ...(options.lang ? { locale: options.lang } : {}),
    args: [
      ...(options.lang ? [`--lang=${options.lang}`] : []),
      '--no-sandbox',
      `--disable-extensions-except=${extPath}`,
      `--load-extension=${extPath}`,
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...(options.trustSpki?.length
        ? [`--ignore-certificate-errors-spki-list=${options.trustSpki.join(',')}`]
        : []),
    ],
  });
  const sw = ctx.serviceWorkers()[0] ?? (await ctx.waitForEvent('serviceworker'));
  const extId = new URL(sw.url()).host;
  const url = (path: string) => `chrome-extension://${extId}/${path.replace(/^\//, '')}`;
  return {
    ctx,
    sw,
    extId,
    url,
    async open(path) {
      const page = await ctx.newPage();
      await page.goto(url(path));
      return page;
    },
    async setSettings(settings) {
      // The version marker tells the settings item that no migration is due.
      await sw.evaluate(({ s, v }) => chrome.storage.local.set({ settings: s, settings$: { v } }), {
        s: settings,
        v: SETTINGS_VERSION,
      });
    },
    profileDir: profile,
    async close({ keepProfile = false } = {}) {
      await ctx.close();
      if (!keepProfile) rmSync(profile, { recursive: true, force: true });
    },
  };
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

/** Uploads one file through the upload page and returns its link; `prepare` may choose options first. */
export async function uploadThroughPage(
  browser: ExtensionBrowser,
  file: { name: string; mimeType: string; buffer: Buffer },
  prepare?: (page: Page) => Promise<void>,
): Promise<string> {
  const page = await browser.open('upload.html');
  try {
    await prepare?.(page);
    return await (await submitFile(page, file)).locator('input[id^="link-"]').inputValue();
  } finally {
    await page.close();
  }
}

/** Chooses a file on an open upload page, presses Upload, and returns the finished job's card. */
export async function submitFile(
  page: Page,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<Locator> {
  await page.setInputFiles('#file', file);
  await page.click('#upload');
  const job = page.locator('.job[data-state="done"]');
  await job.waitFor({ timeout: 30_000 });
  return job;
}

/** Opens the viewer and types a link into it, as a person pasting one would. */
export async function openInViewer(browser: ExtensionBrowser, link: string): Promise<Page> {
  const viewer = await browser.open('viewer.html');
  await viewer.fill('#link', link);
  await viewer.click('#open');
  return viewer;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Number of uploads in the extension's history, read from its own IndexedDB. */
export async function historyCount(page: Page): Promise<number> {
  return page.evaluate(countUploads);
}

/** Runs in an extension page: the number of uploads in the history database (0 when there is none). */
export function countUploads(): Promise<number> {
  return new Promise<number>((res, rej) => {
    const open = indexedDB.open('hushdrop');
    // No database yet: do not create an empty one under the extension's feet.
    open.onupgradeneeded = () => open.transaction?.abort();
    open.onerror = () => (open.error?.name === 'AbortError' ? res(0) : rej(open.error));
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('uploads')) return res(0);
      const req = db.transaction('uploads').objectStore('uploads').count();
      req.onsuccess = () => res(req.result);
      req.onerror = () => rej(req.error);
    };
  });
}

/** Settings pointing the extension at a reference server, as one profile. */
export function serverSettings(
  server: { baseUrl: string; apiUrl: string; uploadUrl: string },
  variant: 'legacy' | 'current',
  extra: Record<string, unknown> = {},
) {
  const profile = {
    ...newProfile('test', 'Test server', {
      variant,
      baseUrl: server.baseUrl,
      apiUrl: server.apiUrl,
      uploadUrl: server.uploadUrl,
    }),
    ...extra,
  };
  return { profiles: [profile], activeProfileId: 'test' };
}
