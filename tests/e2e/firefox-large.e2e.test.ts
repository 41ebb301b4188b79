// A 300 MiB file in real Firefox, with Firefox's memory (all its processes) measured: through the
// upload page, and through a right-click on a link, the job running in the background page.
// Figures are printed. The bound: memory in use (anonymous + shared, all processes) grows by less
// than the file, which holding it whole would take. Measured here: the upload page grew 117-163 MiB
// for 300 MiB and 121 MiB for 900 MiB; the background job 147-180 MiB for 300 MiB and 233 MiB for
// 900 MiB (FX_SIZE_MIB=900 runs the bigger file).
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceServer, startServer } from '../server/server';
import { type FirefoxExtension, launchFirefox, saveServerInOptions, until } from './firefox-harness';
import { UNGRANTED_HOST as HOST } from './harness';
import { decryptedHash, MIB, writeRandomFile } from './large-files';

const SIZE = Number(process.env.FX_SIZE_MIB ?? 300) * MIB;
const BOUND = SIZE;

let fx: FirefoxExtension;
let server: ReferenceServer;
let tmp: string;
let bigPath: string;
let bigHash: string;
let site: Server;
let siteOrigin: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'hushdrop-firefox-large-'));
  bigPath = join(tmp, 'big-300.bin');
  bigHash = await writeRandomFile(bigPath, SIZE);
  server = await startServer({ dataDir: join(tmp, 'server'), host: HOST });
  // A page with a link to the big file, served from disk.
  site = createServer((req, res) => {
    if (req.url === '/big-300.bin') {
      res.writeHead(200, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': statSync(bigPath).size,
      });
      createReadStream(bigPath).pipe(res);
    } else {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>files</title><a id="big" href="/big-300.bin">The big file</a>');
    }
  });
  await new Promise<void>((r) => site.listen(0, HOST, r));
  siteOrigin = `http://${HOST}:${(site.address() as AddressInfo).port}`;
  fx = await launchFirefox();
  await saveServerInOptions(fx, server, 'current');
}, 300_000);

afterAll(async () => {
  await fx?.close();
  await server?.close();
  site?.closeAllConnections();
  site?.close();
  rmSync(tmp, { recursive: true, force: true });
});

type Memory = ReturnType<FirefoxExtension['memory']>;

/** Samples Firefox's memory until `work` ends; returns the highest figure seen of each kind. */
async function peakDuring(work: Promise<unknown>): Promise<Memory> {
  const peak = fx.memory();
  const sample = () => {
    const now = fx.memory();
    for (const k of Object.keys(peak) as (keyof Memory)[]) peak[k] = Math.max(peak[k], now[k]);
  };
  let running = true;
  const sampling = (async () => {
    while (running) {
      sample();
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  try {
    await work;
  } finally {
    running = false;
    await sampling;
  }
  sample();
  return peak;
}

/** Firefox's memory at rest: the lowest of a few samples of each kind, once garbage is collected. */
async function idleMemory(): Promise<Memory> {
  await fx.chrome(() => {
    const g = globalThis as any;
    g.Cu.forceGC();
    g.Services.obs.notifyObservers(null, 'memory-pressure', 'heap-minimize');
  });
  const low = fx.memory();
  for (let i = 0; i < 5; i++) {
    const now = fx.memory();
    for (const k of Object.keys(low) as (keyof Memory)[]) low[k] = Math.min(low[k], now[k]);
    await new Promise((r) => setTimeout(r, 200));
  }
  return low;
}

/** One line of figures, and the growth of memory that is really in use (anonymous + shared). */
function report(what: string, idle: Memory, peak: Memory): number {
  const line = (['total', 'anon', 'shmem', 'file'] as const)
    .map((k) => `${k} ${mib(idle[k])} → ${mib(peak[k])}`)
    .join(', ');
  console.log(`${what}: ${line}`);
  return peak.anon + peak.shmem - (idle.anon + idle.shmem);
}

const mib = (n: number) => `${(n / MIB).toFixed(0)} MiB`;

function checkStored(link: string): Promise<string> {
  const [url, key] = link.split('#') as [string, string];
  const stored = server.stored(new URL(url).pathname.split('/').pop()!);
  expect(stored?.contentLength).toBe(SIZE);
  return decryptedHash(stored!.path, key);
}

describe(`a ${SIZE / MIB} MiB file in Firefox`, () => {
  it('through the upload page: encrypted, sent, decrypts to the original; memory stays bounded', async () => {
    const page = await fx.open('upload.html');
    await page.waitFor('#upload');
    const idle = await idleMemory();
    const field = '.job[data-state="done"] input[id^="link-"]';
    const peak = await peakDuring(
      (async () => {
        await page.setInputFiles('#file', bigPath);
        await page.click('#upload');
        await page.waitFor(field, { timeout: 280_000 });
      })(),
    );
    const growth = report(`Firefox upload page, ${mib(SIZE)}`, idle, peak);
    expect(await checkStored(await page.inputValue(field))).toBe(bigHash);
    expect(growth).toBeLessThan(BOUND);
    await page.close();
  }, 300_000);

  it('through a right-click on a link: the background page fetches, encrypts and sends it; memory stays bounded', async () => {
    const page = await fx.openUrl(`${siteOrigin}/`);
    await page.waitFor('#big');
    const idle = await idleMemory();
    const job = await (async () => {
      let found: any;
      const peak = await peakDuring(
        (async () => {
          await page.rightClick('#big');
          await fx.chooseMenuItem('Upload linked file with Hushdrop');
          found = await until(
            async () => {
              const jobs = (await fx.extension(() => (globalThis as any).browser.storage.session.get('jobs')))
                .jobs;
              const j = Object.values(jobs ?? {}).find((x: any) => x.name === 'big-300.bin') as any;
              return j && j.state !== 'running' ? j : undefined;
            },
            'the background job to end',
            280_000,
          );
        })(),
      );
      expect(report(`Firefox background job, ${mib(SIZE)}`, idle, peak)).toBeLessThan(BOUND);
      return found;
    })();
    expect(job.state, job.error).toBe('done');
    expect(await checkStored(job.link)).toBe(bigHash);
    await page.close();
  }, 300_000);
});
