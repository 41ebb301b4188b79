// A 300 MiB file in both browsers, with the browser's memory (all its processes) measured: through
// the upload page, and through a right-click on a link (the job runs in Chromium's offscreen
// document, in Firefox's background page). Figures are printed. Each case first runs a small
// upload the same way, so what is measured is what the big file costs, not the first use of the
// page, the worker's code or the right-click menu. The bound on memory in use (anonymous +
// shared, all processes): in Firefox a quarter of the file (issue 21: a job holds a bounded window
// of it; after the fix it grew 17-66 MiB (page) and 28-40 MiB (job) for 300 MiB, before it
// 104-114 and 55-171 MiB: lib/free-buffer.ts, platform/storage/scratch-copy.ts). In Chromium less than the file, which
// holding it whole would take (its collector leaves about a third of the file's ciphertexts
// waiting here). The bound is on memory the browser holds: a sample over it is taken again after a
// forced collection (peakDuring says why). FX_SIZE_MIB=900 runs a bigger file. No timing assertions:
// the machine is shared.
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIB, writeRandomFile } from '../../devkit/files';
import { decryptedHash } from '../../devkit/links';
import type { Memory } from '../../devkit/memory';
import { opfsNames } from '../../devkit/opfs';
import { serverSettings } from '../../devkit/settings';
import { until } from '../../devkit/wait';
import { type ReferenceServer, startServer } from '../testkit/server';
import { ChromiumPage } from './driver/chromium';
import type { Driver, JobView } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { historyCount } from './support/history';
import { UNGRANTED_HOST as HOST } from './support/hosts';
import { chooseFiles, DONE_LINK, FILE_INPUT } from './support/uploads';

const SIZE = Number(process.env.FX_SIZE_MIB ?? 300) * MIB;
/** The warm-up file, served and picked before each measured case. */
const SMALL = MIB;
/**
 * Firefox: a quarter of the file. A job's fixed costs (its worker's start, the send's buffers) are
 * 20-40 MiB, a tenth of 300 MiB on their own, so the tenth is the bench's check at 1 GiB
 * (row m); before spent buffers were freed this grew by 104-114 MiB (page) and 55-171 MiB (job).
 */
const bound = (d: Driver) => (d.name === 'firefox' ? SIZE / 4 : SIZE);

let tmp: string;
let bigPath: string;
let bigHash: string;
let smallPath: string;
/** No recording: the big body is not copied to disk a second time. */
let server: ReferenceServer;
let site: Server;
let siteOrigin: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'hushdrop-large-'));
  bigPath = join(tmp, 'big-300.bin');
  bigHash = await writeRandomFile(bigPath, SIZE);
  smallPath = join(tmp, 'small.bin');
  await writeRandomFile(smallPath, SMALL);
  server = await startServer({ dataDir: join(tmp, 'server'), host: HOST });
  // A page with a link to the big file, served from disk.
  site = createServer((req, res) => {
    const path = { '/big-300.bin': bigPath, '/small.bin': smallPath }[req.url ?? ''];
    if (path) {
      res.writeHead(200, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': statSync(path).size,
      });
      createReadStream(path).pipe(res);
    } else {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(
        '<!doctype html><title>files</title><a id="big" href="/big-300.bin">The big file</a> <a id="small" href="/small.bin">A small one</a>',
      );
    }
  });
  await new Promise<void>((r) => site.listen(0, HOST, r));
  siteOrigin = `http://${HOST}:${(site.address() as AddressInfo).port}`;
}, 300_000);

afterAll(async () => {
  await server?.close();
  site?.closeAllConnections();
  site?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const mib = (n: number) => `${(n / MIB).toFixed(0)} MiB`;

/** What `peakDuring` saw: the highest raw figures, and the highest growth the browser really held. */
interface Peak {
  raw: Memory;
  /** The highest growth in use (anonymous + shared) that was under `limit` or outlived a forced collection. */
  held: number;
  /** How many samples were over `limit` until a forced collection brought them under. */
  collected: number;
}

/** Growth of memory in use (anonymous + shared) from `idle` to `now`. */
const growthOf = (idle: Memory, now: Memory) => now.anon + now.shmem - (idle.anon + idle.shmem);

/**
 * Samples the browser's memory until `work` ends. A sample over `limit` is taken again right after a
 * forced collection, and only what survives it counts: under load the collector runs late (Firefox's
 * waits for idle time, which a loaded machine does not give), and a CI run beside stress-ng once saw
 * Firefox 106 MB over its idle figure where 11 runs here under stress-ng and other work grew 13-58 MiB,
 * and a collection forced mid-upload took a +20 MiB sample under 8 MiB. What the collector has not
 * freed yet is not memory the upload keeps; memory the upload keeps survives and fails the bound. On a
 * machine where nothing is over the bound, nothing is forced, and the figures are the browser's own.
 */
async function peakDuring(d: Driver, idle: Memory, limit: number, work: Promise<unknown>): Promise<Peak> {
  const raw = d.memory();
  let held = 0;
  let collected = 0;
  let ended = false;
  const finished = work.finally(() => {
    ended = true;
  });
  const sample = async () => {
    let now = d.memory();
    for (const k of Object.keys(raw) as (keyof Memory)[]) raw[k] = Math.max(raw[k], now[k]);
    if (growthOf(idle, now) >= limit) {
      await d.collectGarbage();
      now = d.memory();
      if (growthOf(idle, now) < limit) collected++;
    }
    held = Math.max(held, growthOf(idle, now));
  };
  while (!ended) {
    await sample();
    // The next sample once the work ends or a quarter of a second has passed, whichever comes first.
    await Promise.race([finished.catch(() => {}), new Promise((resolve) => setTimeout(resolve, 250))]);
  }
  await sample();
  await finished;
  return { raw, held, collected };
}

/** The browser's memory at rest: the lowest of a few samples of each kind, after a collection. */
async function idleMemory(d: Driver): Promise<Memory> {
  await d.collectGarbage();
  const low = d.memory();
  await new Promise<void>((done) => {
    let left = 5;
    const timer = setInterval(() => {
      const now = d.memory();
      for (const k of Object.keys(low) as (keyof Memory)[]) low[k] = Math.min(low[k], now[k]);
      if (--left === 0) {
        clearInterval(timer);
        done();
      }
    }, 200);
  });
  return low;
}

/** Prints one line of figures; returns the growth the browser held (anonymous + shared). */
function report(what: string, idle: Memory, peak: Peak): number {
  const line = (['total', 'anon', 'shmem', 'file'] as const)
    .map((k) => `${k} ${mib(idle[k])} → ${mib(peak.raw[k])}`)
    .join(', ');
  const late =
    peak.collected > 0 ? `; over the bound until a forced collection: ${peak.collected} samples` : '';
  console.log(`${what}: ${line}; held ${mib(peak.held)}${late}`);
  return peak.held;
}

/** The stored copy of a link's upload, decrypted with its key: its SHA-256. */
async function storedHash(link: string): Promise<string> {
  const [url, key] = link.split('#') as [string, string];
  expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
  const stored = await server.stored(new URL(url).pathname.split('/').pop()!);
  expect(stored?.contentLength).toBe(SIZE);
  expect(stored?.encrypted).toBe(false);
  return decryptedHash(await stored!.stream(), key);
}

forEachBrowser({ grantHosts: [HOST] }, (d) => {
  beforeAll(() => d.setSettings(serverSettings(server, 'current')));

  describe(`a ${SIZE / MIB} MiB file in client mode`, () => {
    it('through the upload page: encrypted in a worker, sent, the stored copy decrypts to the original, no copy is left, and memory stays bounded', async () => {
      const warmUp = await d.open('upload.html');
      await warmUp.waitFor(FILE_INPUT);
      await chooseFiles(warmUp, smallPath);
      await warmUp.waitFor(DONE_LINK, { timeout: 60_000 });
      await warmUp.close();
      const page = await d.open('upload.html');
      await page.waitFor(FILE_INPUT);
      // Playwright reports the workers a page starts; Marionette has no such event.
      const workers: string[] = [];
      if (page instanceof ChromiumPage) page.page.on('worker', (w) => workers.push(w.url()));
      // A copy left by an earlier run that crashed: the next upload sweeps it away.
      await page.evaluate(async () => {
        const root = await navigator.storage.getDirectory();
        const handle = await root.getFileHandle('upload-left-by-a-crash.bin', { create: true });
        const w = await (handle as any).createWritable();
        await w.write(new Uint8Array(1000));
        await w.close();
      });
      const before = await historyCount(page);
      const idle = await idleMemory(d);
      const peak = await peakDuring(
        d,
        idle,
        bound(d),
        (async () => {
          await chooseFiles(page, bigPath);
          await page.waitFor(DONE_LINK, { timeout: 280_000 });
        })(),
      );
      const growth = report(`${d.name} upload page, ${mib(SIZE)}`, idle, peak);
      expect(await storedHash(await page.inputValue(DONE_LINK))).toBe(bigHash);
      if (d.name === 'chromium')
        expect(
          workers.some((u) => u.includes('encrypt-worker')),
          workers.join(),
        ).toBe(true);
      expect(await historyCount(page)).toBe(before + 1);
      // The encrypted copy is removed after the link is shown, and the crash leftover with it.
      await until(
        async () => ((await opfsNames(page)).length === 0 ? true : undefined),
        'an empty OPFS',
        60_000,
      );
      expect(growth).toBeLessThan(bound(d));
      await page.close();
    }, 300_000);

    it('through a right-click on a link: the background fetches, encrypts and sends it; memory stays bounded', async () => {
      const page = await d.openUrl(`${siteOrigin}/`);
      await page.waitFor('#big');
      // Jobs of the same name from the upload page's case may still be listed: only new ones count.
      const before = new Set((await d.jobs()).map((j) => j.id));
      const ended = async (name: string) => {
        const j = (await d.jobs()).find((x) => x.name === name && !before.has(x.id));
        return j && j.state !== 'running' ? j : undefined;
      };
      await d.contextMenu(page, '#small', 'link');
      expect((await until(() => ended('small.bin'), 'the warm-up job to end', 60_000)).state).toBe('done');
      const idle = await idleMemory(d);
      let job: JobView | undefined;
      const peak = await peakDuring(
        d,
        idle,
        bound(d),
        (async () => {
          await d.contextMenu(page, '#big', 'link');
          job = await until(() => ended('big-300.bin'), 'the background job to end', 280_000);
        })(),
      );
      expect(report(`${d.name} background job, ${mib(SIZE)}`, idle, peak)).toBeLessThan(bound(d));
      expect(job!.state, job!.error).toBe('done');
      expect(await storedHash(job!.link!)).toBe(bigHash);
      await page.close();
    }, 300_000);
  });
});
