// Row m: Firefox's anonymous memory while it uploads a large file in client mode (issue 21), through
// the upload page and as a job of the background page (a link fetched, encrypted, sent: what a
// right-click runs), as a fraction of the file. Method: bench/README.md.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type FirefoxBrowser, launchFirefox, treeMemory, until, writeRandomFile } from '../devkit';
import { median, sleep } from './common';
import { type BenchServer, benchSettings } from './server';

/** Marionette's key for an element reference (WebDriver). */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
const WARM_UP_BYTES = 1024 * 1024;
const UPLOAD_TIMEOUT_MS = 15 * 60 * 1000;

export interface FirefoxMemoryRun {
  /** Median anonymous memory (all Firefox processes) at rest before the upload, bytes. */
  idle: number;
  /** Highest anonymous memory during the upload, bytes. */
  peak: number;
}

/** Samples Firefox's anonymous memory every 200 ms until `work` ends; the highest figure. */
async function peakDuring(fx: FirefoxBrowser, work: Promise<unknown>): Promise<number> {
  let peak = treeMemory(fx.pid).anon;
  const timer = setInterval(() => {
    peak = Math.max(peak, treeMemory(fx.pid).anon);
  }, 200);
  try {
    await work;
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, treeMemory(fx.pid).anon);
}

/**
 * The median of 2 s of samples, as in row c, after a forced collection in every process: garbage an
 * earlier upload left would otherwise count as idle and hide what this one costs.
 */
async function idle(fx: FirefoxBrowser): Promise<number> {
  await fx.chrome(() => {
    const g = globalThis as any;
    g.Cu.forceGC();
    g.Services.obs.notifyObservers(null, 'memory-pressure', 'heap-minimize');
  });
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) {
    samples.push(treeMemory(fx.pid).anon);
    await sleep(200);
  }
  return median(samples);
}

/** Opens a fresh upload page, chooses `path` in it and waits for its job to end; throws unless done. */
async function throughPage(fx: FirefoxBrowser, path: string, measure: boolean): Promise<FirefoxMemoryRun> {
  const tab = await fx.openUrl(fx.url('upload.html'));
  try {
    await until(
      () => fx.run(tab, () => (document.querySelector('#file') ? true : undefined)),
      'the upload page',
      60_000,
    );
    const before = measure ? await idle(fx) : 0;
    const choose = fx.inWindow(tab, async (m) => {
      const el = await m.send<{ value: Record<string, string> }>('WebDriver:ExecuteScript', {
        script: "return document.querySelector('#file');",
        args: [],
      });
      await m.send('WebDriver:ElementSendKeys', { id: el.value[ELEMENT], text: path });
    });
    const ended = choose.then(() =>
      until(
        () =>
          fx.run(tab, () =>
            document.querySelector('.job:not([data-state="running"])')?.getAttribute('data-state'),
          ),
        'the upload to end',
        UPLOAD_TIMEOUT_MS,
      ),
    );
    const peak = await peakDuring(fx, ended);
    if ((await ended) !== 'done') throw new Error(`row m: the upload page's job ended ${await ended}`);
    return { idle: before, peak };
  } finally {
    await fx.closeWindow(tab);
  }
}

/** Starts a background job for `url`, as the popup does (startUpload), and waits for it; throws unless done. */
async function inBackground(fx: FirefoxBrowser, url: string, measure: boolean): Promise<FirefoxMemoryRun> {
  const before = measure ? await idle(fx) : 0;
  const job = fx.extension(
    async (source) => {
      const b = (globalThis as any).browser;
      const message = { id: 1, type: 'startUpload', data: { source }, timestamp: Date.now() };
      return ((await b.runtime.sendMessage(message)) as { res?: { jobId?: string } }).res?.jobId;
    },
    { kind: 'url', url },
  );
  const ended = job.then((jobId) =>
    until(
      () =>
        fx.extension(async (id) => {
          const { jobs } = await (globalThis as any).browser.storage.session.get('jobs');
          const state = jobs?.[id]?.state;
          return state && state !== 'running' ? String(state) : undefined;
        }, jobId),
      'the background job to end',
      UPLOAD_TIMEOUT_MS,
    ),
  );
  const peak = await peakDuring(fx, ended);
  if ((await ended) !== 'done') throw new Error(`row m: the background job ended ${await ended}`);
  return { idle: before, peak };
}

/**
 * One upload of `file` each way, each after a 1 MiB warm-up the same way (the first worker, the
 * page's first render and the first job are not the file's cost).
 */
export async function firefoxMemoryRow(
  server: BenchServer,
  tmp: string,
  file: string,
): Promise<{ page: FirefoxMemoryRun; background: FirefoxMemoryRun }> {
  const small = join(tmp, 'firefox-warm-up.bin');
  await writeRandomFile(small, WARM_UP_BYTES);
  const site = createServer((req, res) => {
    const path = { '/big.bin': file, '/small.bin': small }[req.url ?? ''];
    if (!path) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': statSync(path).size });
    createReadStream(path).pipe(res);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const fx = await launchFirefox();
  try {
    await fx.grantOrigins(['http://127.0.0.1/*']);
    await fx.setSettings(benchSettings(server, 'client'));
    await throughPage(fx, small, false);
    const page = await throughPage(fx, file, true);
    server.clearFiles();
    await inBackground(fx, `${origin}/small.bin`, false);
    const background = await inBackground(fx, `${origin}/big.bin`, true);
    server.clearFiles();
    return { page, background };
  } finally {
    await fx.close();
    site.closeAllConnections();
    site.close();
  }
}
