// The hand-written multipart body for a streamed file: the same bytes as a FormData of the same
// fields and file (boundary aside), read back by busboy (the reference server's parser), and exact
// about the file's length.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { describe, expect, it } from 'vitest';
import {
  buildFormData,
  buildUploadRequest,
  multipartFrame,
  multipartStream,
  randomBoundary,
  type UploadRequest,
} from '../../lib/upload';

const target = {
  variant: 'current' as const,
  addresses: {
    baseUrl: 'https://t.example',
    apiUrl: 'https://api.t.example',
    uploadUrl: 'https://u.t.example',
  },
};
const request = (name = 'holiday "photo"\r\n.png'): UploadRequest =>
  buildUploadRequest(
    target,
    { mode: 'client', saveKey: false, genDeletionKey: true, doNotTrack: true },
    { name, type: 'image/png' },
    'AbCdEfGh01234567',
  );

const streamOf = (bytes: Uint8Array, piece = 1000) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += piece) controller.enqueue(bytes.slice(i, i + piece));
      controller.close();
    },
  });

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

describe('multipartStream', () => {
  it('gives the bytes FormData gives for the same fields and file, boundary aside', async () => {
    const file = new Uint8Array(randomBytes(5000));
    const req = request();
    const boundary = randomBoundary();
    const body = multipartStream(req, streamOf(file), file.length, boundary);
    const ours = await bytesOf(body.stream);
    expect(ours.length).toBe(body.length);
    const reference = new Request('https://x.invalid/', {
      method: 'POST',
      body: buildFormData(req, new Blob([file])),
    });
    const theirBoundary = /boundary=(.+)$/.exec(reference.headers.get('content-type')!)![1]!;
    const theirs = Buffer.from(await reference.arrayBuffer())
      .toString('latin1')
      .replaceAll(theirBoundary, boundary);
    // FormData ends with the closing boundary and CRLF as we do (RFC 7578 allows either).
    expect(ours.toString('latin1').replace(/\r\n$/, '')).toBe(theirs.replace(/\r\n$/, ''));
    expect(body.contentType).toBe(`multipart/form-data; boundary=${boundary}`);
  });

  it('is read back by busboy: every field in order, and the file byte for byte', async () => {
    const file = new Uint8Array(randomBytes(300_000));
    const req = request('naïve résumé.pdf');
    const body = multipartStream(req, streamOf(file, 65_536), file.length, randomBoundary());
    const fields: Array<[string, string]> = [];
    const parts: Buffer[] = [];
    let fileName = '';
    await new Promise<void>((resolve, reject) => {
      const parser = busboy({ headers: { 'content-type': body.contentType }, defParamCharset: 'utf8' });
      parser.on('field', (name, value) => fields.push([name, value]));
      parser.on('file', (_name, stream, info) => {
        fileName = info.filename ?? '';
        stream.on('data', (d: Buffer) => parts.push(d));
      });
      parser.on('close', resolve);
      parser.on('error', reject);
      Readable.fromWeb(body.stream as never).pipe(parser);
    });
    expect(fields).toEqual(req.fields);
    expect(fileName).toBe('naïve résumé.pdf');
    expect(Buffer.concat(parts).equals(Buffer.from(file))).toBe(true);
  });

  it('fails when the file gives fewer or more bytes than its size', async () => {
    const file = new Uint8Array(100);
    await expect(
      bytesOf(multipartStream(request(), streamOf(file), 101, randomBoundary()).stream),
    ).rejects.toThrow(/100 of its 101 bytes/);
    await expect(
      bytesOf(multipartStream(request(), streamOf(file), 99, randomBoundary()).stream),
    ).rejects.toThrow(/more than its 99 bytes/);
  });

  it('cancelling the body cancels the file stream', async () => {
    let reason: unknown;
    const file = new ReadableStream<Uint8Array>({
      pull: (c) => c.enqueue(new Uint8Array(10)),
      cancel: (r) => {
        reason = r;
      },
    });
    const reader = multipartStream(request(), file, 1000, randomBoundary()).stream.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel('stop');
    expect(reason).toBe('stop');
  });

  it('refuses a boundary that would need quoting', () => {
    expect(() => multipartFrame(request(), 'a b')).toThrow(RangeError);
    expect(randomBoundary()).toMatch(/^----Hushdrop[A-Za-z0-9]{24}$/);
  });
});
