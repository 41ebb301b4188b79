// Row a: encryption throughput in an extension page of Chromium, on one 256 MiB file:
//   a1  Hushdrop's chunked loop (createCipher(...).cryptAt, 1 MiB slices, awaited one by one)
//   a2  Hushdrop's pipeline: the bundled files worker reading the disk-backed File and writing
//       OPFS through a sync access handle (exactly what an upload's disk way runs)
//   raw one WebCrypto AES-CTR call over the whole buffer
//   cjs crypto-js 4.2.0 AES-CTR (what Teknik's page used) on a 4 MiB sample of the same bytes
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'vite';
import { STREAM_CHUNK_BYTES } from '../lib/crypto';
import type { SealCommand } from '../platform/upload/encrypt-worker-files';
import { type BenchBrowser, benchFileInput } from './chromium';
import { MIB, median, writeRandomFile } from './common';

/** The Teknik format's key and IV every measure of the row uses (32 and 16 characters). */
const BENCH_KEY = 'abcdefghijklmnopqrstuvwxyzABCDEF';
const BENCH_IV = '0123456789ABCDEF';

export interface CryptoResult {
  size: number;
  raw: number[];
  loop: number[];
  pipeline: number[];
  cryptoJs: number[];
  cryptoJsBytes: number;
  checks: string[];
}

export async function pageCipherBundle(): Promise<string> {
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: {
        entry: join(import.meta.dirname, 'page-cipher.ts'),
        formats: ['iife'],
        name: 'hushdropBenchBundle',
      },
    },
  });
  const first = (Array.isArray(out) ? out[0] : out) as { output: { type: string; code?: string }[] };
  const chunk = first.output.find((o) => o.type === 'chunk');
  if (!chunk?.code) throw new Error('The cipher bundle for the page was not built.');
  return chunk.code;
}

/** `chunkSize`: what the worker is told to use (the upload pipeline's own size by default). */
export async function cryptoRow(
  b: BenchBrowser,
  tmp: string,
  reps: number,
  chunkSize = STREAM_CHUNK_BYTES,
): Promise<CryptoResult> {
  const size = 256 * MIB;
  const sample = 4 * MIB;
  const path = join(tmp, 'crypto-256.bin');
  await writeRandomFile(path, size);
  const worker = readdirSync(join(b.extDir!, 'assets')).find((n) => /^encrypt-worker-files.*\.js$/.test(n));
  if (!worker) throw new Error('The build has no encrypt-worker-files asset.');
  const cryptoJs = readFileSync(createRequire(import.meta.url).resolve('crypto-js/crypto-js.js'), 'utf8');

  const page = await b.ctx.newPage();
  try {
    await page.goto(b.url('upload.html'));
    await page.locator('#file').waitFor({ state: 'attached' });
    await benchFileInput(page, path);
    // DevTools evaluation is not bound by the page's CSP, so the bench code can be put in.
    await page.evaluate(await pageCipherBundle());
    await page.evaluate(cryptoJs);
    await page.evaluate(
      async ({ key, iv }) => {
        const g = globalThis as any;
        const file = (document.querySelector('#bench-file') as HTMLInputElement).files![0]!;
        g.benchFile = file;
        g.benchData = new Uint8Array(await file.arrayBuffer());
        g.benchKey = key;
        g.benchIv = iv;
      },
      { key: BENCH_KEY, iv: BENCH_IV },
    );
    // The worker's own command, typed here so that a change to it breaks the build, not the run
    // (the row failed from 2026-11-25 to 11-26 when the command grew a cipher of either format). One
    // part of the whole file: the disk way's encrypted copy.
    const start: Omit<SealCommand, 'file'> = {
      type: 'seal',
      cipher: { format: 'teknik', key: BENCH_KEY, iv: BENCH_IV },
      partBytes: size,
      chunkSize,
      freeSpent: false,
    };

    const raw = () =>
      page.evaluate(async () => {
        const g = globalThis as any;
        const enc = new TextEncoder();
        const key = await crypto.subtle.importKey('raw', enc.encode(g.benchKey), 'AES-CTR', false, [
          'encrypt',
        ]);
        const t0 = performance.now();
        const out = await crypto.subtle.encrypt(
          { name: 'AES-CTR', counter: enc.encode(g.benchIv), length: 128 },
          key,
          g.benchData,
        );
        const ms = performance.now() - t0;
        g.benchRawDigest = new Uint8Array(await crypto.subtle.digest('SHA-256', out));
        return ms;
      });
    const loop = () =>
      page.evaluate(async () => {
        const g = globalThis as any;
        const data: Uint8Array = g.benchData;
        const t0 = performance.now();
        const cipher = await g.hushdropBench.createCipher(g.benchKey, g.benchIv);
        for (let o = 0; o < data.length; o += 1 << 20)
          await cipher.cryptAt(data.subarray(o, o + (1 << 20)), o);
        return performance.now() - t0;
      });
    const pipeline = () =>
      page.evaluate(
        async ({ url, start }) => {
          const g = globalThis as any;
          const name = `bench-${crypto.randomUUID()}.bin`;
          const t0 = performance.now();
          const w = new Worker(url, { type: 'module' });
          const end: any = await new Promise((resolve) => {
            w.onmessage = (e) => e.data.type !== 'progress' && e.data.type !== 'part-done' && resolve(e.data);
            w.onerror = (e) => resolve({ type: 'onerror', message: e.message });
            w.postMessage({ ...start, file: g.benchFile });
            w.postMessage({ type: 'part-file', index: 0, name });
          });
          const ms = performance.now() - t0;
          w.terminate();
          if (end.type !== 'done') throw new Error(`worker: ${JSON.stringify(end)}`);
          const root = await navigator.storage.getDirectory();
          const copy = await (await root.getFileHandle(name)).getFile();
          const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await copy.arrayBuffer()));
          await root.removeEntry(name);
          const same = g.benchRawDigest && digest.every((x: number, i: number) => x === g.benchRawDigest[i]);
          return { ms, same };
        },
        { url: `/assets/${worker}`, start },
      );
    const cryptoJsRun = () =>
      page.evaluate(async (n) => {
        const g = globalThis as any;
        const C = g.CryptoJS;
        const data: Uint8Array<ArrayBuffer> = g.benchData.subarray(0, n);
        const t0 = performance.now();
        const words = C.lib.WordArray.create(data);
        const out = C.AES.encrypt(words, C.enc.Utf8.parse(g.benchKey), {
          iv: C.enc.Utf8.parse(g.benchIv),
          mode: C.mode.CTR,
          padding: C.pad.NoPadding,
        }).ciphertext;
        const bytes = new Uint8Array(out.sigBytes);
        for (let i = 0; i < out.sigBytes; i++) bytes[i] = (out.words[i >>> 2] >>> (24 - (i % 4) * 8)) & 0xff;
        const ms = performance.now() - t0;
        // Same bytes as WebCrypto with length 128 (no counter carry within 4 MiB for this IV)?
        const enc = new TextEncoder();
        const key = await crypto.subtle.importKey('raw', enc.encode(g.benchKey), 'AES-CTR', false, [
          'encrypt',
        ]);
        const ref = new Uint8Array(
          await crypto.subtle.encrypt(
            { name: 'AES-CTR', counter: enc.encode(g.benchIv), length: 128 },
            key,
            data,
          ),
        );
        return { ms, same: ref.every((x, i) => x === bytes[i]) };
      }, sample);

    const result: CryptoResult = {
      size,
      raw: [],
      loop: [],
      pipeline: [],
      cryptoJs: [],
      cryptoJsBytes: sample,
      checks: [],
    };
    // One untimed round first: JIT, first large allocations, OPFS set-up.
    await raw();
    await loop();
    await pipeline();
    await cryptoJsRun();
    for (let r = 0; r < reps; r++) {
      result.raw.push(await raw());
      result.loop.push(await loop());
      const p = await pipeline();
      result.pipeline.push(p.ms);
      if (!p.same) result.checks.push('pipeline output differs from the one-call WebCrypto output');
      const c = await cryptoJsRun();
      result.cryptoJs.push(c.ms);
      if (!c.same) result.checks.push('crypto-js output differs from WebCrypto');
    }
    return result;
  } finally {
    await page.close();
    rmSync(path, { force: true });
  }
}

export const summarize = (r: CryptoResult) => ({
  raw: median(r.raw),
  loop: median(r.loop),
  pipeline: median(r.pipeline),
  cryptoJsPerByte: median(r.cryptoJs) / r.cryptoJsBytes,
});
