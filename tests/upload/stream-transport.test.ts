// streamTransport and sendUpload with a streamed body, against the reference server over real HTTP
// (Node's fetch streams a request body with chunked HTTP/1.1; browsers need HTTP/2 for the same):
// the encrypted stream is stored and decrypts, progress reaches the whole body, Cancel stops the
// source, a stream the network never took is 'stream-refused', and one that broke off is 'network'.
import { createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCipher, cryptStream, deriveIv, randomKey } from '../../lib/crypto';
import {
  REFUSED_WITHIN_BYTES,
  sendUpload,
  streamTransport,
  UploadError,
  type UploadTarget,
} from '../../lib/upload';
import { type ReferenceServer, startServer } from '../server/server';

let server: ReferenceServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hushdrop-stream-transport-'));
  server = await startServer({ dataDir, record: true });
});
afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const target = (s: { baseUrl: string; apiUrl: string; uploadUrl: string }): UploadTarget => ({
  variant: 'current',
  addresses: { baseUrl: s.baseUrl, apiUrl: s.apiUrl, uploadUrl: s.uploadUrl },
});
const options = { mode: 'client' as const, saveKey: false, genDeletionKey: true };

/** A source of `size` bytes in 64 KiB pieces that notes how far it was read and whether it was cancelled. */
function countingSource(bytes: Uint8Array) {
  const seen = { read: 0, cancelled: false };
  let at = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        const piece = bytes.slice(at, at + 65_536);
        at += piece.length;
        seen.read = at;
        controller.enqueue(piece);
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

/** Sends `size` zero bytes from a counting source to `to` with streamTransport. */
function sendZeros(
  size: number,
  to: UploadTarget,
  more: { signal?: AbortSignal; onProgress?: (sent: number) => void } = {},
) {
  const { stream, seen } = countingSource(new Uint8Array(size));
  const sending = sendUpload({
    target: to,
    options,
    file: { name: 'zeros.bin', type: '' },
    body: { stream, size },
    iv: deriveIv(randomKey()),
    transport: streamTransport(),
    ...more,
  });
  return { sending, seen };
}

describe('a streamed, encrypted upload', () => {
  it('is stored as sent, decrypts with the key, and reports progress up to the whole body', async () => {
    const plain = new Uint8Array(randomBytes(3 * 1024 * 1024 + 11));
    const key = randomKey();
    const iv = deriveIv(key);
    const stream = cryptStream(new Blob([plain]).stream(), await createCipher(key, iv));
    const progress: Array<[number, number]> = [];
    const result = await sendUpload({
      target: target(server),
      options,
      file: { name: 'photo.jpg', type: 'image/jpeg' },
      body: { stream, size: plain.length },
      iv,
      transport: streamTransport(),
      onProgress: (sent, total) => progress.push([sent, total]),
    });
    const stored = (await server.stored(result.fileName))!;
    expect(stored.contentLength).toBe(plain.length);
    expect(stored.contentType).toBe('image/jpeg');
    expect(stored.originalName).toBe('photo.jpg');
    const decipher = createDecipheriv('aes-256-ctr', Buffer.from(key), Buffer.from(iv));
    const back = Buffer.concat([decipher.update(await stored.bytes()), decipher.final()]);
    expect(back.equals(Buffer.from(plain))).toBe(true);
    const [last, total] = progress.at(-1)!;
    expect(last).toBe(total);
    expect(total).toBeGreaterThan(plain.length);
    expect(progress.map(([sent]) => sent)).toEqual([...progress.map(([sent]) => sent)].sort((a, b) => a - b));
  });

  it('Cancel stops at once: aborted, the source cancelled, nothing stored', async () => {
    const abort = new AbortController();
    const files = async () => (await import('node:fs/promises')).readdir(join(dataDir, 'files'));
    const before = await files();
    const { sending, seen } = sendZeros(64 * 1024 * 1024, target(server), {
      signal: abort.signal,
      onProgress: (sent) => {
        if (sent > 4 * 1024 * 1024) abort.abort();
      },
    });
    await expect(sending).rejects.toMatchObject({ kind: 'aborted' });
    expect(seen.cancelled).toBe(true);
    expect(seen.read).toBeLessThan(64 * 1024 * 1024);
    await expect.poll(files).toEqual(before);
  });

  it('a server nobody answers at: stream-refused, and the stream was never read', async () => {
    // A port that was free a moment ago: the connection is refused before any byte is taken.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    const nowhere = `http://127.0.0.1:${port}`;
    const { sending, seen } = sendZeros(
      1024 * 1024,
      target({ baseUrl: nowhere, apiUrl: `${nowhere}/api`, uploadUrl: `${nowhere}/u` }),
    );
    const error = await sending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect((error as UploadError).kind).toBe('stream-refused');
    expect((error as UploadError).message).toMatch(/nothing was sent/);
    expect(seen.read).toBeLessThanOrEqual(REFUSED_WITHIN_BYTES);
  });

  it('a connection that breaks off after the body began: network, not refused', async () => {
    server.setFault('close-mid-upload', { once: true });
    const error = await sendZeros(8 * 1024 * 1024, target(server)).sending.catch((e: unknown) => e);
    expect((error as UploadError).kind).toBe('network');
  });

  it('a small body the server took and answered, then a broken answer: network, never refused', async () => {
    // The server stored the file before its answer broke: calling that "refused" would send it again.
    const answering = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
        res.write('{"result":', () => res.destroy());
      });
    });
    await new Promise<void>((resolve) => answering.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(answering.address() as { port: number }).port}/upload`;
      const body = new Blob([new Uint8Array(1000)]);
      const error = await streamTransport()(
        {
          url,
          headers: {},
          body: { stream: body.stream(), length: body.size, contentType: 'application/octet-stream' },
        },
        {},
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UploadError);
      expect((error as UploadError).kind).toBe('network');
    } finally {
      answering.closeAllConnections();
      await new Promise((resolve) => answering.close(resolve));
    }
  });
});
