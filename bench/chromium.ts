// Debian's Chromium driven by playwright-core, with or without a private copy of the built extension
// (copied so that a rebuild in the shared tree during the bench cannot pull files from under it),
// and the browser's memory read from /proc.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page, type Worker } from 'playwright-core';
import { opfsNames } from '../tests/e2e/large-files';

const BUILT = resolve('.output/chrome-mv3');

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
  if (!existsSync(join(BUILT, 'manifest.json')))
    throw new Error(`No built extension at ${BUILT}: run \`npx wxt build\` first.`);
  const dir = join(into, 'chrome-mv3');
  cpSync(BUILT, dir, { recursive: true });
  return dir;
}

function children(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = map.get(ppid) ?? [];
      list.push(Number(name));
      map.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  return map;
}

function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function isChromium(pid: number): boolean {
  try {
    return /chrom/i.test(readFileSync(`/proc/${pid}/comm`, 'utf8'));
  } catch {
    return false;
  }
}

/** `trustSpki`: certificates (base64 SHA-256 of their keys) Chromium accepts, and no others. */
export async function launch(extDir?: string, trustSpki: string[] = []): Promise<BenchBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'hushdrop-bench-profile-'));
  const before = new Set(children().get(process.pid) ?? []);
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      ...(extDir ? [`--disable-extensions-except=${extDir}`, `--load-extension=${extDir}`] : []),
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...(trustSpki.length ? [`--ignore-certificate-errors-spki-list=${trustSpki.join(',')}`] : []),
    ],
  });
  // The browser is a child of this process (playwright-core runs in-process).
  const root = (children().get(process.pid) ?? []).find((p) => !before.has(p) && isChromium(p));
  if (!root) throw new Error('Could not find the Chromium process.');
  const pids = () => {
    const tree = children();
    const out: number[] = [];
    const walk = (p: number) => {
      out.push(p);
      for (const c of tree.get(p) ?? []) walk(c);
    };
    walk(root);
    return out;
  };
  let sw: Worker | undefined;
  let extId: string | undefined;
  if (extDir) {
    sw = ctx.serviceWorkers()[0] ?? (await ctx.waitForEvent('serviceworker'));
    extId = new URL(sw.url()).host;
  }
  return {
    ctx,
    sw,
    extId,
    extDir,
    url: (path) => `chrome-extension://${extId}/${path.replace(/^\//, '')}`,
    pids,
    rss: () => pids().reduce((sum, p) => sum + rssOf(p), 0),
    async close() {
      await ctx.close();
      rmSync(profile, { recursive: true, force: true });
    },
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

export async function settingsFor(b: BenchBrowser, settings: unknown): Promise<void> {
  await b.sw!.evaluate(
    (s) => (globalThis as any).chrome.storage.local.set({ settings: s, settings$: { v: 2 } }),
    settings,
  );
}

/** Waits until the extension's OPFS holds no file (a finished upload removes its copy afterwards). */
export async function opfsSettled(page: Page, limitMs = 60_000): Promise<void> {
  const end = Date.now() + limitMs;
  while ((await opfsNames(page)).length > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
}
