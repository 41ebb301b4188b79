// The probe page's (and its worker's) ways of sending a file's parts: see probe-parts.ts.
import { newFileCipher, sealedSize, sealedStream } from '../lib/crypto/file-cipher';
import { streamParts } from '../lib/upload/stream-parts';

declare const self: any;
const PART = 16 * 1024 * 1024;

function xhrPut(url: string, body: Blob | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const x = new XMLHttpRequest();
    x.open('PUT', url);
    x.onload = () => (x.status === 200 ? resolve() : reject(new Error(`status ${x.status}`)));
    x.onerror = () => reject(new Error('xhr error'));
    x.send(body as any);
  });
}

async function fetchPut(url: string, body: Uint8Array): Promise<void> {
  const r = await fetch(url, { method: 'PUT', body: body as any });
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`status ${r.status}`);
}

/**
 * `slice`: the chosen File's own slices, never read into script (plain only): the browser's upload alone.
 * `none`: the parts are made and dropped, nothing is sent: making them alone.
 */
type Way = 'blob' | 'u8' | 'fetch' | 'opfs' | 'slice' | 'none';

async function opfsFile(bytes: Uint8Array): Promise<{ file: File; done: () => Promise<void> }> {
  const dir = await navigator.storage.getDirectory();
  const name = `p-${crypto.randomUUID()}`;
  const h = await dir.getFileHandle(name, { create: true });
  const w = await (h as any).createWritable();
  await w.write(bytes);
  await w.close();
  return { file: await h.getFile(), done: () => dir.removeEntry(name) };
}

async function send(way: Way, url: string, bytes: Uint8Array<ArrayBuffer>) {
  if (way === 'none') return;
  if (way === 'blob') return xhrPut(url, new Blob([bytes]));
  if (way === 'u8') return xhrPut(url, bytes);
  if (way === 'fetch') return fetchPut(url, bytes);
  const f = await opfsFile(bytes);
  try {
    await xhrPut(url, f.file);
  } finally {
    await f.done();
  }
}

/** The file's parts, plain (sliced and read) or sealed (cut from the sealed stream), two in flight. */
export async function probe(file: File, way: Way, sealed: boolean, base: string): Promise<number> {
  const t0 = performance.now();
  const cipher = newFileCipher('ece');
  const total = sealed ? sealedSize(cipher, file.size) : file.size;
  const parts = Math.ceil(total / PART);
  const stop = new AbortController();
  let next: (i: number) => Promise<Uint8Array<ArrayBuffer>>;
  let sent = (_i: number) => {};
  if (sealed) {
    const source = streamParts(sealedStream(file, cipher), { parts, partBytes: PART, total }, stop.signal);
    next = (i) => source.part(i);
    sent = (i) => void source.sent(i);
  } else {
    next = async (i) => new Uint8Array(await file.slice(i * PART, (i + 1) * PART).arrayBuffer());
  }
  let index = 0;
  const lane = async () => {
    for (;;) {
      const i = index++;
      if (i >= parts) return;
      if (way === 'slice') {
        await xhrPut(`${base}/put/${i}`, file.slice(i * PART, (i + 1) * PART));
        continue;
      }
      const bytes = await next(i);
      await send(way, `${base}/put/${i}`, bytes);
      sent(i);
    }
  };
  await Promise.all([lane(), lane()]);
  return performance.now() - t0;
}

if (typeof document === 'undefined') {
  self.onmessage = async (e: MessageEvent) => {
    const { file, way, sealed, base } = e.data;
    try {
      self.postMessage({ ms: await probe(file, way, sealed, base) });
    } catch (err) {
      self.postMessage({ error: String(err) });
    }
  };
} else {
  (globalThis as any).probe = probe;
  (globalThis as any).inWorker = (file: File, way: Way, sealed: boolean, base: string) =>
    new Promise((resolve, reject) => {
      const w = new Worker('/probe.js');
      w.onmessage = (e) => {
        w.terminate();
        e.data.error ? reject(new Error(e.data.error)) : resolve(e.data.ms);
      };
      w.postMessage({ file, way, sealed, base });
    });
}
