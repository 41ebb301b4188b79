// Launches Debian's Chromium with the built extension loaded, for the e2e tests.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page, type Worker } from 'playwright-core';

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
  close(): Promise<void>;
}

export interface LaunchOptions {
  /**
   * Base64 SHA-256 public-key hashes of certificates to accept (a TLS reference server's
   * `tls.spkiSha256`): Chromium ignores certificate errors for exactly these, no others.
   */
  trustSpki?: string[];
}

export async function launchExtension(options: LaunchOptions = {}): Promise<ExtensionBrowser> {
  if (!existsSync(join(EXT_PATH, 'manifest.json')))
    throw new Error(`No built extension at ${EXT_PATH}: run \`npm run build\` first.`);
  const profile = mkdtempSync(join(tmpdir(), 'hushdrop-e2e-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: true,
    acceptDownloads: true,
    args: [
      '--no-sandbox',
      `--disable-extensions-except=${EXT_PATH}`,
      `--load-extension=${EXT_PATH}`,
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
      await sw.evaluate((s) => chrome.storage.local.set({ settings: s, settings$: { v: 2 } }), settings);
    },
    async close() {
      await ctx.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
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
    await page.setInputFiles('#file', file);
    await page.click('#upload');
    const field = page.locator('.job[data-state="done"] input[id^="link-"]');
    await field.waitFor({ timeout: 30_000 });
    return await field.inputValue();
  } finally {
    await page.close();
  }
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Number of uploads in the extension's history, read from its own IndexedDB. */
export async function historyCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((res, rej) => {
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
      }),
  );
}

/** Settings pointing the extension at a reference server, as one profile. */
export function serverSettings(
  server: { baseUrl: string; apiUrl: string; uploadUrl: string },
  variant: 'legacy' | 'current',
  extra: Record<string, unknown> = {},
) {
  const profile = {
    id: 'test',
    name: 'Test server',
    server: {
      variant,
      baseUrl: server.baseUrl,
      apiUrl: server.apiUrl,
      uploadUrl: server.uploadUrl,
      username: '',
      token: '',
    },
    defaults: {
      mode: 'client',
      saveKey: true,
      genDeletionKey: true,
      expireUnit: 'never',
      expireLength: 1,
      doNotTrack: true,
    },
    ...extra,
  };
  return { profiles: [profile], activeProfileId: 'test' };
}
