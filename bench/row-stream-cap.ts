// Row b5, the stream cap: the cheapest streamed request body Chromium allows, as a yardstick for
// b3. A ReadableStream of constant bytes (a multipart form around b3's file size of one repeated
// chunk: no reading, no encryption, no UI) sent with fetch duplex 'half' over HTTP/2 to the same
// server, from the upload page itself and from a dedicated worker of the extension (where
// Hushdrop's streamed upload now sends from), against curl --http2 -F in the same rounds.
// The worker's script is the bench's own, written into the bench's copy of the built extension
// (an extension page may start workers from its own origin only); the product has no such file.
// b5p sends the same bytes as two streams at once, half each, from the page: whether the cap is
// per request (then a server that took an upload in parts could pass it) or the browser's.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchBrowser } from './chromium';
import { median } from './common';
import { curlUpload } from './row-upload';
import type { BenchServer } from './server';

/**
 * Sends `size` constant bytes as a form's file part and resolves with the milliseconds from the
 * fetch to the whole answer. Plain JavaScript text: it runs in the page (evaluated there) and in
 * the worker (as its script), unchanged by the bench's TypeScript compiler.
 */
const SEND_CONSTANT = `async ({ url, size, chunkBytes }) => {
  const boundary = '----HushdropBenchCap';
  const text = new TextEncoder();
  const head = text.encode('--' + boundary + '\\r\\nContent-Disposition: form-data; name="file"; ' +
    'filename="cap.bin"\\r\\nContent-Type: application/octet-stream\\r\\n\\r\\n');
  const tail = text.encode('\\r\\n--' + boundary + '--\\r\\n');
  const chunk = new Uint8Array(chunkBytes).fill(0x61);
  let left = size;
  let headSent = false;
  const body = new ReadableStream({
    pull(out) {
      if (!headSent) { headSent = true; out.enqueue(head); return; }
      if (left === 0) { out.enqueue(tail); out.close(); return; }
      const n = Math.min(left, chunk.length);
      left -= n;
      out.enqueue(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  }, { highWaterMark: 0 });
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    body,
    duplex: 'half',
    headers: { 'Content-Type': 'multipart/form-data; boundary=' + boundary },
  });
  const answer = await res.text();
  if (!res.ok) throw new Error('The server answered HTTP ' + res.status + ': ' + answer.slice(0, 200));
  return performance.now() - t0;
}`;

const WORKER_FILE = 'bench-stream-cap-worker.js';
const WORKER_SCRIPT = `const sendConstant = ${SEND_CONSTANT};
onmessage = (event) => sendConstant(event.data).then(
  (ms) => postMessage({ ms }),
  (err) => postMessage({ error: String(err) }),
);
`;

/** The same chunk size as the upload's stream (lib/crypto STREAM_CHUNK_BYTES). */
const CHUNK_BYTES = 256 * 1024;

export interface StreamCapResult {
  curl: number[];
  page: number[];
  worker: number[];
  /** Two streams at once, half the bytes each: ms until both were answered. */
  pair: number[];
}

/** Puts the worker's script into the bench's copy of the extension (before the browser starts). */
export function addStreamCapWorker(extDir: string): void {
  writeFileSync(join(extDir, WORKER_FILE), WORKER_SCRIPT);
}

export async function streamCapRow(
  b: BenchBrowser,
  server: BenchServer,
  path: string,
  size: number,
  reps: number,
): Promise<StreamCapResult> {
  const result: StreamCapResult = { curl: [], page: [], worker: [], pair: [] };
  const args = { url: `${server.apiUrl}/v1/Upload`, size, chunkBytes: CHUNK_BYTES };
  const half = Math.floor(size / 2);
  const pairArgs = [
    { ...args, size: half },
    { ...args, size: size - half },
  ];
  const page = await b.ctx.newPage();
  try {
    await page.goto(b.url('upload.html'));
    await page.locator('#file').waitFor({ state: 'attached' });
    for (let r = 0; r < reps; r++) {
      result.curl.push(await curlUpload(server, path));
      server.clearFiles();
      result.page.push(await page.evaluate(`(${SEND_CONSTANT})(${JSON.stringify(args)})`));
      server.clearFiles();
      result.worker.push(
        await page.evaluate(
          ({ file, args }) =>
            new Promise<number>((resolve, reject) => {
              const worker = new Worker(`/${file}`);
              worker.onmessage = (event) => {
                worker.terminate();
                if (event.data.error) reject(new Error(event.data.error));
                else resolve(event.data.ms);
              };
              worker.onerror = (event) => {
                worker.terminate();
                reject(new Error(`The bench's worker did not run: ${event.message}`));
              };
              worker.postMessage(args);
            }),
          { file: WORKER_FILE, args },
        ),
      );
      server.clearFiles();
      result.pair.push(
        await page.evaluate(`(async (send, both) => {
          const t0 = performance.now();
          await Promise.all(both.map((one) => send(one)));
          return performance.now() - t0;
        })(${SEND_CONSTANT}, ${JSON.stringify(pairArgs)})`),
      );
      server.clearFiles();
    }
  } finally {
    await page.close();
  }
  return result;
}

export const capMedians = (r: StreamCapResult) => ({
  curl: median(r.curl),
  page: median(r.page),
  worker: median(r.worker),
  pair: median(r.pair),
});
