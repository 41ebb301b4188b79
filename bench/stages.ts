// Where row i's time goes: each stage of the recipient page's download timed alone in the same
// headless Chromium, against curl of the same bytes from the same loopback server. Not a bench row
// (no target): `npx tsx bench/stages.ts` (STAGES_MIB, default 512; STAGES_REPS, default 3;
// STAGES_ONLY, a comma list of stage names). The stages run in a service worker built from
// bench/stages-sw.ts, which uses the page worker's own decryption code (lib/crypto, `counted`), and
// `sink-handed-decrypt` in a dedicated worker of the probe page (stages-worker.ts), the `opfs-*` stages
// in another (stages-opfs.ts). Each stage's CPU
// time is read per thread from /proc. What each stage is: bench/README.md, "Where row i's time goes".
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { build } from 'esbuild';
import { eceEncryptStream } from '../lib/crypto/ece-stream';
import { launch } from './chromium';
import { fmt, MIB, median, mibps, now, run, writeRandomFile } from './common';

const SIZE = Number(process.env.STAGES_MIB ?? 512) * MIB;
const REPS = Number(process.env.STAGES_REPS ?? 3);
const ONLY = process.env.STAGES_ONLY?.split(',');

/** CPU ticks (1/100 s) of every thread of the given processes, keyed by process type and thread name. */
function threadTicks(pids: number[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of pids) {
    try {
      const type = /--type=([a-z-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1] ?? 'browser';
      const kind = /--utility-sub-type=([a-z.]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1];
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/[0-9]+$/, '');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const key = `${kind ?? type}/${name}`;
        out.set(key, (out.get(key) ?? 0) + Number(fields[11]) + Number(fields[12]));
        out.set(`${key} sys`, (out.get(`${key} sys`) ?? 0) + Number(fields[12]));
      }
    } catch {
      // a process or thread that ended meanwhile
    }
  }
  return out;
}

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'hushdrop-stages-'));
  process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
  // Stopped (Ctrl+C, a timeout): exit, so that the handler above removes the files.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(1));
  const file = join(tmp, 'cipher.bin');
  await writeRandomFile(file, SIZE);
  // The same bytes sealed in the authenticated format, with the probe worker's secret.
  const ece = join(tmp, 'ece.bin');
  await eceEncryptStream(
    Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
    new Uint8Array(16).fill(5),
  ).pipeTo(Writable.toWeb(createWriteStream(ece)));
  const bundle = async (name: string) =>
    (
      await build({
        entryPoints: [join(import.meta.dirname, name)],
        bundle: true,
        write: false,
        format: 'iife',
      })
    ).outputFiles[0]!.text;
  const sw = await bundle('stages-sw.ts');
  const decryptWorker = await bundle('stages-worker.ts');
  const opfsWorker = await bundle('stages-opfs.ts');
  const server = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    if (path === '/') {
      res.setHeader('Content-Type', 'text/html');
      res.end('<!doctype html><title>stages</title><body>');
    } else if (path === '/sw.js' || path === '/worker.js' || path === '/opfs.js') {
      res.setHeader('Content-Type', 'text/javascript');
      res.end(path === '/sw.js' ? sw : path === '/opfs.js' ? opfsWorker : decryptWorker);
    } else if (path === '/cipher' || path === '/native' || path === '/ece') {
      req.resume();
      const served = path === '/ece' ? ece : file;
      res.setHeader('Content-Type', 'application/octet-stream');
      res.setHeader('Content-Length', statSync(served).size);
      if (path === '/native') res.setHeader('Content-Disposition', 'attachment; filename="native.bin"');
      createReadStream(served, { highWaterMark: MIB }).pipe(res);
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const b = await launch();
  const page = await b.ctx.newPage();
  await page.goto(`${origin}/`);
  const worker = b.ctx.waitForEvent('serviceworker');
  await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js');
    await navigator.serviceWorker.ready;
  });
  const w = b.ctx.serviceWorkers()[0] ?? (await worker);
  const call = (name: string, ...args: unknown[]) =>
    w.evaluate(([n, a]) => (globalThis as any).stages[n](...a), [name, args] as const) as Promise<{
      ms: number;
      bytes: number;
      chunks?: number;
    }>;

  const download = async (path: string) => {
    const t0 = now();
    const [d] = await Promise.all([
      page.waitForEvent('download'),
      page.evaluate((src) => {
        const f = document.createElement('iframe');
        f.hidden = true;
        f.src = src;
        document.body.append(f);
      }, path),
    ]);
    const saved = await d.path();
    const ms = now() - t0;
    const size = statSync(saved).size;
    await d.delete();
    if (size !== SIZE) throw new Error(`${path}: saved ${size} bytes, not ${SIZE}`);
    return ms;
  };
  /** Staged in the private file system by a worker, then downloaded from there as a blob URL. */
  const staged = (path: string) => async () => {
    const t0 = now();
    await page.evaluate(async (src) => {
      const w = new Worker('/opfs.js');
      await new Promise((r, j) => {
        w.onmessage = r;
        w.onerror = j;
        w.postMessage({ path: src, name: 'staged.bin' });
      });
      w.terminate();
    }, path);
    const [d] = await Promise.all([
      page.waitForEvent('download'),
      page.evaluate(async () => {
        const file = await (
          await (await navigator.storage.getDirectory()).getFileHandle('staged.bin')
        ).getFile();
        const a = document.createElement('a');
        a.href = URL.createObjectURL(file);
        a.download = 'staged.bin';
        document.body.append(a);
        a.click();
      }),
    ]);
    const saved = await d.path();
    const ms = now() - t0;
    const size = statSync(saved).size;
    await d.delete();
    await page.evaluate(async () => (await navigator.storage.getDirectory()).removeEntry('staged.bin'));
    if (size !== SIZE) throw new Error(`staged ${path}: saved ${size} bytes, not ${SIZE}`);
    return ms;
  };
  /** Written by a worker through createWritable(), as into a file chosen with showSaveFilePicker(). */
  const written = (path: string, batch: number) => async () => {
    const [ms, size] = await page.evaluate(
      async ([src, b]) => {
        const t0 = performance.now();
        const w = new Worker('/opfs.js');
        await new Promise((r, j) => {
          w.onmessage = r;
          w.onerror = j;
          w.postMessage({ path: src, name: 'written.bin', writable: true, batch: b });
        });
        const ms = performance.now() - t0;
        w.terminate();
        const dir = await navigator.storage.getDirectory();
        const bytes = (await (await dir.getFileHandle('written.bin')).getFile()).size;
        await dir.removeEntry('written.bin');
        return [ms, bytes] as const;
      },
      [path, batch] as const,
    );
    if (size !== SIZE) throw new Error(`written ${path}: ${size} bytes, not ${SIZE}`);
    return ms;
  };
  const dl =
    (kind: string, extra = '') =>
    () =>
      download(`/dl/${kind}?size=${SIZE}${extra}`);
  const opts = (o: object) => `&options=${encodeURIComponent(JSON.stringify(o))}`;

  console.error(`byte stream body (BYOB): ${await call('byteStream')}`);
  const stages: [string, () => Promise<number>][] = [
    [
      'curl',
      async () => {
        const t0 = now();
        await run('curl', ['-sS', '-X', 'POST', '-o', join(tmp, 'curl.bin'), `${origin}/cipher`]);
        const ms = now() - t0;
        rmSync(join(tmp, 'curl.bin'));
        return ms;
      },
    ],
    ['native-download', () => download('/native')],
    [
      'fetch-discard',
      async () => {
        const r = await call('fetchDiscard');
        console.error(`  fetch chunks: ${r.chunks}, mean ${fmt(r.bytes / r.chunks! / 1024, 0)} KiB`);
        return r.ms;
      },
    ],
    ['fetch-byob-64k', async () => (await call('fetchByob', 64 * 1024)).ms],
    ['fetch-byob-256k', async () => (await call('fetchByob', 256 * 1024)).ms],
    ['fetch-byob-1m', async () => (await call('fetchByob', MIB)).ms],
    ['fetch-byob-4m', async () => (await call('fetchByob', 4 * MIB)).ms],
    ['allocate-256k', async () => (await call('allocate', SIZE, 256 * 1024)).ms],
    ['webcrypto-256k-x3', async () => (await call('webcrypto', SIZE, 256 * 1024, 3)).ms],
    ['webcrypto-64k-x3', async () => (await call('webcrypto', SIZE, 64 * 1024, 3)).ms],
    ['webcrypto-64k-x16', async () => (await call('webcrypto', SIZE, 64 * 1024, 16)).ms],
    ['webcrypto-128k-x3', async () => (await call('webcrypto', SIZE, 128 * 1024, 3)).ms],
    ['webcrypto-512k-x3', async () => (await call('webcrypto', SIZE, 512 * 1024, 3)).ms],
    ['webcrypto-1m-x3', async () => (await call('webcrypto', SIZE, MIB, 3)).ms],
    ['decrypt-memory-64k-src', async () => (await call('decryptMemory', SIZE, 64 * 1024, {})).ms],
    ['fetch-decrypt', async () => (await call('fetchDecrypt', {})).ms],
    ['sink-fresh-1m', dl('fresh', `&chunk=${MIB}`)],
    ['sink-fresh-256k', dl('fresh', `&chunk=${256 * 1024}`)],
    ['sink-fresh-64k', dl('fresh', `&chunk=${64 * 1024}`)],
    ['sink-pipe', dl('pipe')],
    ['sink-relay', dl('relay')],
    ['sink-bare', dl('bare')],
    ['sink-product', dl('product')],
    ['fetch-ece-decrypt', async () => (await call('fetchEce', {})).ms],
    ['fetch-ece-decrypt-x16', async () => (await call('fetchEce', { inFlight: 16 })).ms],
    ['sink-ece', dl('ece')],
    ['fsa-pipe-4m', written('/cipher', 4 * MIB)],
    ['fsa-ece-64k', written('/ece', 0)],
    ['fsa-ece-4m', written('/ece', 4 * MIB)],
    ['fsa-ece-16m', written('/ece', 16 * MIB)],
    ['opfs-pipe', staged('/cipher')],
    ['opfs-ece', staged('/ece')],
    ['sink-ece-x16', dl('ece', opts({ inFlight: 16 }))],
    ['sink-bare-1m', dl('bare', opts({ chunkSize: MIB }))],
    [
      'page-fetch-discard',
      () =>
        page.evaluate(async () => {
          const t0 = performance.now();
          const reader = (await fetch('/cipher', { method: 'POST', cache: 'no-store' })).body!.getReader();
          while (!(await reader.read()).done);
          return performance.now() - t0;
        }),
    ],
    [
      'sink-handed-decrypt',
      async () => {
        await page.evaluate(async () => {
          const { port1, port2 } = new MessageChannel();
          const ack = new MessageChannel();
          const held = new Promise((r) => {
            ack.port1.onmessage = r;
          });
          (await navigator.serviceWorker.ready).active!.postMessage(
            { type: 'port', id: 'y', port: port2, ack: ack.port2 },
            [port2, ack.port2],
          );
          await held;
          new Worker('/worker.js').postMessage({ port: port1 }, [port1]);
        });
        return dl('port', '&id=y')();
      },
    ],
    [
      'sink-handed-pipe',
      async () => {
        const t0 = now();
        await page.evaluate(async () => {
          const body = (await fetch('/cipher', { method: 'POST', cache: 'no-store' })).body!;
          const channel = new MessageChannel();
          const held = new Promise((r) => {
            channel.port1.onmessage = r;
          });
          (await navigator.serviceWorker.ready).active!.postMessage(
            { type: 'stream', id: 'x', stream: body },
            [body as unknown as Transferable, channel.port2],
          );
          await held;
        });
        return (await dl('handed', '&id=x')()) + (now() - t0) * 0;
      },
    ],
  ];
  const chosen = stages.filter(([name]) => !ONLY || ONLY.includes(name));
  const times = new Map<string, number[]>(chosen.map(([n]) => [n, []]));
  /** CPU seconds per round: the whole browser, and its service worker's thread alone. */
  const cpu = new Map<string, { all: number[]; worker: number[] }>(
    chosen.map(([n]) => [n, { all: [], worker: [] }]),
  );
  const loads: number[] = [loadavg()[0]!];
  try {
    for (let r = 0; r < REPS; r++)
      for (const [name, stage] of chosen) {
        const before = threadTicks(b.pids());
        const ms = await stage();
        const after = threadTicks(b.pids());
        const used = [...after]
          .map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const)
          .filter(([, v]) => v >= 5)
          .sort((x, y) => y[1] - x[1]);
        const total = used.filter(([k]) => !k.endsWith(' sys')).reduce((sum, [, v]) => sum + v, 0);
        console.error(
          `  cpu ${fmt(total / 100, 1)} s: ${used
            .slice(0, 8)
            .map(([k, v]) => `${k} ${fmt(v / 100, 1)}`)
            .join(', ')}`,
        );
        times.get(name)!.push(ms);
        cpu.get(name)!.all.push(total / 100);
        cpu.get(name)!.worker.push((used.find(([k]) => k === 'renderer/ServiceWorker t')?.[1] ?? 0) / 100);
        console.error(
          `  ${name}: ${fmt(ms, 0)} ms (${fmt(mibps(SIZE, ms), 0)} MiB/s), load ${fmt(loadavg()[0]!, 1)}`,
        );
        loads.push(loadavg()[0]!);
      }
  } finally {
    await b.close();
    server.close();
  }
  console.log(
    `\n${SIZE / MIB} MiB, ${REPS} rounds, load average ${fmt(Math.min(...loads), 1)}–${fmt(Math.max(...loads), 1)}`,
  );
  console.log('| stage | MiB/s, median | rounds (MiB/s) | browser CPU s | its service worker thread CPU s |');
  console.log('|---|---|---|---|---|');
  for (const [name, ts] of times) {
    const c = cpu.get(name)!;
    const rate = fmt(mibps(SIZE, median(ts)), 0);
    const rounds = ts.map((t) => fmt(mibps(SIZE, t), 0)).join(', ');
    console.log(`| ${name} | ${rate} | ${rounds} | ${fmt(median(c.all), 1)} | ${fmt(median(c.worker), 1)} |`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
