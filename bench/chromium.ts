// Debian's Chromium for the bench, started by the testkit's launch recipe: with or without a
// private copy of the built extension (copied so that a rebuild in the shared tree during the
// bench cannot pull files from under it), and the browser's memory read from /proc.
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { CHROMIUM_BUILD, launchChromium, opfsNames, processTree, settingsItems, treeMemory } from '../devkit';
import type { Settings } from '../lib/settings';

export interface BenchBrowser {
  ctx: BrowserContext;
  /** The extension's service worker (only with the extension). */
  sw?: Worker;
  extId?: string;
  extDir?: string;
  url(path: string): string;
  /** PIDs of the browser and all its descendants. */
  pids(): number[];
  /** Sum of VmRSS over the browser's processes, in bytes. */
  rss(): number;
  close(): Promise<void>;
}

/** Copies the built extension to a temporary directory and returns it. */
export function copyExtension(into: string): string {
  if (!existsSync(join(CHROMIUM_BUILD, 'manifest.json')))
    throw new Error(`No built extension at ${CHROMIUM_BUILD}: run \`npx wxt build\` first.`);
  const dir = join(into, 'chrome-mv3');
  cpSync(CHROMIUM_BUILD, dir, { recursive: true });
  return dir;
}

/**
 * `trustSpki`: certificates (base64 SHA-256 of their keys) Chromium accepts, and no others.
 * `grantHosts`: host patterns beyond loopback the extension holds as granted (the testkit's stand-in
 * for the person's Allow).
 */
export async function launch(
  extDir?: string,
  trustSpki: string[] = [],
  grantHosts: string[] = [],
): Promise<BenchBrowser> {
  const b = await launchChromium({ extensionDir: extDir ?? false, trustSpki, grantHosts });
  return {
    ctx: b.ctx,
    sw: b.sw,
    extId: b.extId,
    extDir,
    url: (path) => `chrome-extension://${b.extId}/${path.replace(/^\//, '')}`,
    pids: () => processTree(b.pid),
    rss: () => treeMemory(b.pid).total,
    close: () => b.close(),
  };
}

/** Samples `read` every `everyMs` until stopped; returns the samples. */
export function sampler(read: () => number, everyMs = 200) {
  const samples: number[] = [];
  const timer = setInterval(() => samples.push(read()), everyMs);
  samples.push(read());
  return {
    samples,
    stop() {
      clearInterval(timer);
      samples.push(read());
      return samples;
    },
  };
}

export async function settingsFor(b: BenchBrowser, settings: Settings): Promise<void> {
  await b.sw!.evaluate(
    (items) => (globalThis as any).chrome.storage.local.set(items),
    settingsItems(settings),
  );
}

/** Waits until the extension's OPFS holds no file (a finished upload removes its copy afterwards). */
export async function opfsSettled(page: Page, limitMs = 60_000): Promise<void> {
  const end = Date.now() + limitMs;
  while ((await opfsNames(page)).length > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
}

/** A file input of the bench's own (the upload page's input starts an upload when a file is chosen). */
export async function benchFileInput(page: Page, files: string | string[]): Promise<void> {
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.id = 'bench-file';
    document.body.append(input);
  });
  await page.setInputFiles('#bench-file', files);
}
