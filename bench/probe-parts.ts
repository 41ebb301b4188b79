// Where row o's time goes: a file's parts sent from a plain Chromium to a loopback sink, each way the
// page could send them (XMLHttpRequest of a Blob, of the bytes, fetch of the bytes, a private file),
// plain or sealed, on the page's thread or in a dedicated worker; with the browser's peak memory.
// Not a bench row: `npx tsx bench/probe-parts.ts` (PROBE_MIB, default 512; PROBE_ONLY, a comma list).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { launch, sampler } from './chromium';
import { fmt, MIB, mibps, run, writeRandomFile } from './common';

const SIZE = Number(process.env.PROBE_MIB ?? 512) * MIB;
const ONLY = process.env.PROBE_ONLY?.split(',');
const REPS = Number(process.env.PROBE_REPS ?? 2);

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'hushdrop-probe-'));
  process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
  const file = join(tmp, 'plain.bin');
  await writeRandomFile(file, SIZE);
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, 'probe-parts-client.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2022',
  });
  const js = bundle.outputFiles[0]!.text;
  const server = createServer((req, res) => {
    if (req.method === 'PUT') {
      req.on('data', () => {});
      req.on('end', () => res.end('ok'));
      return;
    }
    if (req.url === '/probe.js') {
      res.setHeader('content-type', 'text/javascript');
      return res.end(js);
    }
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><input type=file id=f><script src="/probe.js"></script>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const b = await launch();
  const rows: string[] = [];
  try {
    const curl = async () => {
      const t0 = performance.now();
      await run('curl', ['-s', '-o', '/dev/null', '-T', file, `${base}/put/curl`]);
      return performance.now() - t0;
    };
    const ways = [
      ['page', 'slice', false],
      ['page', 'none', true],
      ['worker', 'none', true],
      ['page', 'blob', false],
      ['page', 'u8', false],
      ['page', 'opfs', false],
      ['worker', 'u8', false],
      ['worker', 'fetch', false],
      ['worker', 'blob', false],
      ['page', 'opfs', true],
      ['page', 'blob', true],
      ['page', 'u8', true],
      ['worker', 'u8', true],
      ['worker', 'fetch', true],
      ['worker', 'blob', true],
    ] as const;
    for (let rep = 0; rep < REPS; rep++) {
      rows.push(`curl ${fmt(mibps(SIZE, await curl()), 0)} MiB/s (load ${fmt(loadavg()[0]!, 1)})`);
      for (const [where, way, sealed] of ways) {
        const name = `${where}-${way}${sealed ? '-sealed' : ''}`;
        if (ONLY && !ONLY.includes(name)) continue;
        const page = await b.ctx.newPage();
        await page.goto(`${base}/`);
        await page.setInputFiles('#f', file);
        const idle = b.rss();
        const s = sampler(() => b.rss());
        const ms = await page.evaluate(
          ([where, way, sealed, base]) => {
            const f = (document.getElementById('f') as HTMLInputElement).files![0]!;
            return where === 'page'
              ? (globalThis as any).probe(f, way, sealed, base)
              : (globalThis as any).inWorker(f, way, sealed, base);
          },
          [where, way, sealed, base] as const,
        );
        const peak = Math.max(...s.stop());
        rows.push(
          `${name.padEnd(22)} ${fmt(mibps(SIZE, ms), 0).padStart(5)} MiB/s  +${fmt((peak - idle) / MIB, 0)} MiB`,
        );
        console.log(rows.at(-1));
        await page.close();
      }
    }
  } finally {
    await b.close();
    server.close();
  }
  console.log(rows.join('\n'));
}

await main();
