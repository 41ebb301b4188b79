// The one runner of an upload in parts (lib/upload/parts-runner.ts), which the extension's parts way and
// the server's upload page share, with the parts cut from a sealed stream as the page cuts them
// (lib/upload/stream-parts.ts): against the real server in this process, its requests recorded. The
// requests go through fetch here (the browsers use XHR, for progress); the runner does not care which.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eceDecryptBytes } from '../../lib/crypto';
import { newFileCipher, sealedSize, sealedStream } from '../../lib/crypto/file-cipher';
import { MIN_PART_BYTES, type PartsSession } from '../../lib/upload/parts';
import { MAX_IN_FLIGHT, type PartsExchange, uploadInParts } from '../../lib/upload/parts-runner';
import { Declined } from '../../lib/upload/plan';
import { PARTS_AHEAD, StreamLengthError, streamParts } from '../../lib/upload/stream-parts';
import type { UploadTarget } from '../../lib/upload/types';
import { serversStoppedAfterEach, storedFiles } from '../server/test-helpers';
import { fetchExchange } from './fetch-exchange';
import { ECE, FILE, sealedPartsUpload } from './sealed-parts';

const start = serversStoppedAfterEach();
const PART = MIN_PART_BYTES;

async function server(extra: Parameters<typeof start>[0] = {}) {
  const s = await start({
    record: true,
    settings: { parts: { partBytes: PART, sessionLifetimeMs: 3_600_000, sessionsPerAddress: 0 } },
    ...extra,
  });
  const target: UploadTarget = {
    variant: 'legacy',
    addresses: { baseUrl: s.server.baseUrl, apiUrl: s.server.apiUrl, uploadUrl: s.server.uploadUrl },
  };
  return { ...s, target };
}

/** The upload of `plain`, sealed in the authenticated format as it is read, in parts. */
const upload = sealedPartsUpload;

const PART_PUT = /\/Upload\/Parts\/[A-Za-z0-9]+\/(\d+)\?sub=api$/;

/** Requests as fetch sends them, but the second part's PUT goes to an address rewritten from `from` to `to`. */
const secondPartAddress =
  (from: RegExp, to: string): PartsExchange<Uint8Array<ArrayBuffer>> =>
  (req, options) =>
    fetchExchange(
      req.method === 'PUT' && req.url.includes('/1?') ? { ...req, url: req.url.replace(from, to) } : req,
      options,
    );

describe('an upload in parts through the runner', () => {
  it('sends every part once, in parts of the server’s size, and the stored bytes open with the secret', async () => {
    const { server: s, target } = await server();
    const plain = new Uint8Array(randomBytes(2 * PART + 54321));
    const cipher = newFileCipher('ece');
    const progress: number[] = [];
    const sent = await upload(target, plain, { onProgress: (done) => progress.push(done) }, cipher);
    if (sent instanceof Declined) throw new Error(`declined: ${sent.reason}`);
    const total = sealedSize(cipher, plain.length);
    expect(sent.result.contentLength).toBe(total);
    const puts = s.requests.filter((r) => r.method === 'PUT' && PART_PUT.test(r.url));
    expect(puts.map((r) => Number(PART_PUT.exec(r.url)![1])).sort()).toEqual([0, 1, 2]);
    expect(puts.map((r) => r.bodyBytes).sort((a, b) => a - b)).toEqual([total - 2 * PART, PART, PART]);
    // No one-request upload: the file went in parts only.
    expect(s.requests.filter((r) => /\/v1\/Upload\?sub=api$/.test(r.url))).toEqual([]);
    const stored = await s.stored(sent.result.fileName);
    expect(stored?.linkFormat).toBe('ece1');
    const opened = await eceDecryptBytes(
      new Uint8Array(await stored!.bytes()),
      (cipher as { secret: Uint8Array }).secret,
    );
    expect(Buffer.from(opened).equals(Buffer.from(plain))).toBe(true);
    // Progress rose to the whole, never past it.
    expect(progress.at(-1)).toBe(total);
    expect(progress.every((p, i) => p <= total && (i === 0 || p >= 0))).toBe(true);
  });

  it('a Cancel aborts the session: the server keeps nothing, and the error says cancelled', async () => {
    const { server: s, target } = await server();
    const cancel = new AbortController();
    // Cancel once the first part is on the server.
    let done = 0;
    const outcome = upload(target, new Uint8Array(randomBytes(3 * PART)), {
      signal: cancel.signal,
      onProgress: (n) => {
        done = n;
        if (n >= PART) cancel.abort();
      },
    });
    await expect(outcome).rejects.toMatchObject({ name: 'UploadError', kind: 'aborted' });
    expect(done).toBeGreaterThanOrEqual(PART);
    expect(s.requests.some((r) => r.method === 'DELETE')).toBe(true);
    expect(await storedFiles(s)).toEqual([]);
    const left: string[] = [];
    for await (const r of s.hushdrop.storage.records.list()) left.push(r.key);
    expect(left).toEqual([]);
  });

  it('a file that changes while it is sent fails with a sentence, and the session is aborted', async () => {
    const { server: s, target } = await server();
    const plain = new Uint8Array(randomBytes(2 * PART + 10));
    const cipher = newFileCipher('ece');
    const short = new Blob([plain.subarray(0, PART)]);
    const outcome = uploadInParts({
      target,
      options: ECE,
      file: FILE,
      // Started for the whole file; the stream then gives only its first part's worth.
      total: sealedSize(cipher, plain.length),
      exchange: fetchExchange,
      open: (session, stop) => streamParts(sealedStream(short, cipher), session, stop),
    });
    await expect(outcome).rejects.toBeInstanceOf(StreamLengthError);
    await expect(outcome).rejects.toThrow('The file changed while it was being uploaded');
    expect(await storedFiles(s)).toEqual([]);
  });

  it('a server without parts declines before anything is sent, and nothing is stored', async () => {
    const { server: s, target } = await server({ noParts: true });
    const sent = await upload(target, new Uint8Array(randomBytes(PART + 1)));
    expect(sent).toBeInstanceOf(Declined);
    expect((sent as Declined).reason).toBe('no parts');
    expect(s.requests.filter((r) => r.method === 'PUT')).toEqual([]);
    expect(await storedFiles(s)).toEqual([]);
  });

  it('a refused part ends the upload with the server’s sentence kept, and the session is aborted', async () => {
    const { server: s, target } = await server();
    // The second part goes to an index the session does not have: the server answers 400.
    const refusing = secondPartAddress(/\/1\?/, '/9?');
    const outcome = upload(target, new Uint8Array(randomBytes(2 * PART + 1)), { exchange: refusing });
    await expect(outcome).rejects.toMatchObject({
      name: 'UploadError',
      kind: 'http',
      status: 400,
      serverMessage: expect.stringMatching(/index must be a decimal number from 0 to 2/),
    });
    await expect(outcome).rejects.toThrow(/part 2 of 3 of the upload/);
    expect(await storedFiles(s)).toEqual([]);
  });

  it('a part answered 404 (the session is gone) ends the upload as session-gone, the server’s sentence kept', async () => {
    const { server: s, target } = await server();
    // The second part goes to a session id the server does not know: it answers 404.
    const elsewhere = secondPartAddress(/\/[^/]+\/1\?/, '/Zz0000000000000000000000/1?');
    const outcome = upload(target, new Uint8Array(randomBytes(2 * PART + 1)), { exchange: elsewhere });
    await expect(outcome).rejects.toMatchObject({
      name: 'UploadError',
      kind: 'session-gone',
      status: 404,
      serverMessage: expect.stringMatching(/There is no such upload in progress/),
    });
    expect(await storedFiles(s)).toEqual([]);
  });
});

describe('parts cut from a stream', () => {
  it('hold at most PARTS_AHEAD parts that are not on the server yet, whatever the stream’s size', async () => {
    const session: PartsSession = { id: 'x', partBytes: 1000, parts: 10, total: 10_000 };
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (pulled >= session.total) return controller.close();
          const chunk = new Uint8Array(Math.min(300, session.total - pulled)).fill(pulled % 251);
          pulled += chunk.length;
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    const stop = new AbortController();
    const source = streamParts(stream, session, stop.signal);
    const first = await Promise.all([0, 1, 2].map((i) => source.part(i)));
    expect(first.map((p) => p.length)).toEqual([1000, 1000, 1000]);
    // Let every task that could still read run: none may, until a part is on the server.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(pulled).toBeLessThanOrEqual(PARTS_AHEAD * session.partBytes + 300);
    source.sent(0);
    expect((await source.part(3)).length).toBe(1000);
    for (let i = 1; i < 10; i++) source.sent(i);
    await source.made;
    expect(pulled).toBe(session.total);
    await source.close();
    expect(MAX_IN_FLIGHT).toBeLessThan(PARTS_AHEAD);
  });

  it('a stop while it waits for room (no part on the server yet) ends the making, not hangs it', async () => {
    const session: PartsSession = { id: 'x', partBytes: 1000, parts: 10, total: 10_000 };
    const stop = new AbortController();
    const source = streamParts(new Blob([new Uint8Array(10_000)]).stream(), session, stop.signal);
    await Promise.all([0, 1, 2].map((i) => source.part(i)));
    // The upload fails while the three made parts are still being sent (parts-resume.test once hung so).
    stop.abort(new Error('the session is gone'));
    await expect(source.made).rejects.toThrow('the session is gone');
    await source.close();
  });

  it('cut at part boundaries exactly, the bytes in order', async () => {
    const bytes = new Uint8Array(randomBytes(2500));
    const session: PartsSession = { id: 'x', partBytes: 1000, parts: 3, total: 2500 };
    const source = streamParts(new Blob([bytes]).stream(), session, new AbortController().signal);
    const parts = [];
    for (let i = 0; i < 3; i++) {
      parts.push(await source.part(i));
      source.sent(i);
    }
    await source.made;
    expect(Buffer.concat(parts).equals(Buffer.from(bytes))).toBe(true);
    expect(parts.map((p) => p.length)).toEqual([1000, 1000, 500]);
  });
});
