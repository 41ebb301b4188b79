// The service worker of the recipient stage probe (stages.ts): each stage of the recipient page's
// download alone, in the same kind of context the page's worker runs in. Functions on
// `globalThis.stages` are called through Playwright; `/dl/<kind>` answers a download the probe page
// starts in a frame, as the page's worker does (a stream with Content-Length).
import { createCipher } from '../lib/crypto/cipher';
import { type EceStreamOptions, eceDecryptStream } from '../lib/crypto/ece-stream';
import { type CryptStreamOptions, cryptStream } from '../lib/crypto/stream';
import { counted } from '../server/recipient/client/stored';

declare const self: any;
const KEY = new Uint8Array(32).fill(7);
const IV = new Uint8Array(16).fill(9);
/** The authenticated format's secret of /ece (stages.ts seals it with the same one). */
export const ECE_SECRET = new Uint8Array(16).fill(5);
const MIB = 1 << 20;

self.addEventListener('install', (e: any) => e.waitUntil(self.skipWaiting()));
self.addEventListener('activate', (e: any) => e.waitUntil(self.clients.claim()));

const cipherFetch = (path = '/cipher') => fetch(path, { method: 'POST', cache: 'no-store' });

async function drain(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  let bytes = 0;
  let chunks = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    bytes += r.value.length;
    chunks++;
  }
  return { bytes, chunks };
}

/** `total` bytes as views of one buffer, in chunks of `chunk` (what a network source hands over). */
function memorySource(total: number, chunk: number): ReadableStream<Uint8Array> {
  const buffer = crypto.getRandomValues(new Uint8Array(64 * 1024)).buffer;
  const pool = new Uint8Array(16 * MIB);
  for (let at = 0; at < pool.length; at += buffer.byteLength) pool.set(new Uint8Array(buffer), at);
  let sent = 0;
  return new ReadableStream({
    pull(c) {
      if (sent >= total) return c.close();
      const n = Math.min(chunk, total - sent);
      c.enqueue(pool.subarray(sent % pool.length, (sent % pool.length) + n));
      sent += n;
    },
  });
}

async function timed<T>(f: () => Promise<T>) {
  const t0 = performance.now();
  const out = await f();
  return { ms: performance.now() - t0, ...out };
}

self.stages = {
  fetchDiscard: () => timed(async () => drain((await cipherFetch()).body!)),
  /** The body read with BYOB reads into buffers of `size`, handed back each time (no new ones). */
  fetchByob: (size: number) =>
    timed(async () => {
      const reader = (await cipherFetch()).body!.getReader({ mode: 'byob' });
      let view = new Uint8Array(size);
      let bytes = 0;
      let chunks = 0;
      for (;;) {
        const { value, done } = await reader.read(view);
        if (done) break;
        bytes += value.length;
        chunks++;
        view = new Uint8Array(value.buffer);
      }
      return { bytes, chunks };
    }),
  /** Allocating `total` bytes as fresh buffers of `chunk`: what every new buffer costs this thread. */
  allocate: (total: number, chunk: number) =>
    timed(async () => {
      let sum = 0;
      for (let n = 0; n < total; n += chunk) sum += new Uint8Array(chunk)[0]!;
      return { bytes: total, sum };
    }),
  byteStream: async () => {
    const body = (await cipherFetch()).body!;
    try {
      body.getReader({ mode: 'byob' }).releaseLock();
      return true;
    } catch {
      return false;
    } finally {
      body.cancel().catch(() => {});
    }
  },
  fetchDecrypt: (options: CryptStreamOptions) =>
    timed(async () => drain(cryptStream((await cipherFetch()).body!, await createCipher(KEY, IV), options))),
  fetchEce: (options: EceStreamOptions) =>
    timed(async () => drain(eceDecryptStream((await cipherFetch('/ece')).body!, ECE_SECRET, options))),
  decryptMemory: (total: number, sourceChunk: number, options: CryptStreamOptions) =>
    timed(async () =>
      drain(cryptStream(memorySource(total, sourceChunk), await createCipher(KEY, IV), options)),
    ),
  /** WebCrypto alone: `total` bytes in calls of `chunk`, `inFlight` at once, no streams. */
  webcrypto: (total: number, chunk: number, inFlight: number) =>
    timed(async () => {
      const cipher = await createCipher(KEY, IV);
      const input = new Uint8Array(chunk);
      let next = 0;
      const lane = async () => {
        while (next < total) {
          const at = next;
          next += chunk;
          await cipher.cryptAt(input, at);
        }
      };
      await Promise.all(Array.from({ length: inFlight }, lane));
      return { bytes: total };
    }),
};

/** Passes a stream on through a pull source, one read per pull (the page worker's `watched`). */
function relay(source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream({
    async pull(c) {
      const { value, done } = await reader.read();
      if (done) c.close();
      else c.enqueue(value);
    },
  });
}

/** Streams the probe page fetched itself and handed over (transferred), by id. */
const handed = new Map<string, ReadableStream<Uint8Array>>();
/** Ports a worker of the probe page sends decrypted chunks on (stages-worker.ts), by id. */
const ports = new Map<string, MessagePort>();
self.addEventListener('message', (e: any) => {
  if (e.data?.type === 'stream') handed.set(e.data.id, e.data.stream);
  else if (e.data?.type === 'port') ports.set(e.data.id, e.data.port);
  else return;
  (e.data.ack ?? e.ports[0]).postMessage('held');
});

/** The chunks a port brings, as a stream; each pull gives the sender one more chunk of credit. */
function fromPort(port: MessagePort): ReadableStream<Uint8Array> {
  let first = true;
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        port.onmessage = (e) => (e.data === null ? c.close() : c.enqueue(e.data as Uint8Array));
      },
      pull() {
        if (!first) port.postMessage('more');
        first = false;
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 4 * MIB }),
  );
}

async function download(url: URL): Promise<ReadableStream<Uint8Array>> {
  const kind = url.pathname.slice('/dl/'.length);
  if (kind === 'handed') return handed.get(url.searchParams.get('id')!)!;
  if (kind === 'port') return fromPort(ports.get(url.searchParams.get('id')!)!);
  const size = Number(url.searchParams.get('size'));
  const chunk = Number(url.searchParams.get('chunk') ?? MIB);
  const options = JSON.parse(url.searchParams.get('options') ?? '{}') as CryptStreamOptions;
  if (kind === 'fresh') {
    // Fresh buffers of zeros, as a decrypting source makes: the download sink alone.
    let sent = 0;
    return new ReadableStream({
      pull(c) {
        if (sent >= size) return c.close();
        const n = Math.min(chunk, size - sent);
        c.enqueue(new Uint8Array(n));
        sent += n;
      },
    });
  }
  if (kind === 'ece') {
    const plain = eceDecryptStream((await cipherFetch('/ece')).body!, ECE_SECRET, options);
    return relay(plain.pipeThrough(counted(size, () => {})));
  }
  const body = (await cipherFetch()).body!;
  if (kind === 'pipe') return body; // the network body handed on untouched
  if (kind === 'relay') return relay(body); // read and re-enqueued in JS
  const plain = cryptStream(body, await createCipher(KEY, IV), options);
  // `product`: as the page's worker does it (progress count, then the watcher); `bare`: decrypted only.
  return kind === 'product' ? relay(plain.pipeThrough(counted(size, () => {}))) : plain;
}

self.addEventListener('fetch', (e: any) => {
  const url = new URL(e.request.url);
  if (!url.pathname.startsWith('/dl/')) return;
  const size = url.searchParams.get('size')!;
  e.respondWith(
    download(url).then(
      (body) =>
        new Response(body, {
          headers: {
            'Content-Type': 'application/octet-stream',
            'Content-Disposition': 'attachment; filename="stage.bin"',
            'Content-Length': size,
          },
        }),
    ),
  );
});
