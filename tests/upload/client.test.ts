import { describe, expect, it, vi } from 'vitest';
import {
  sendUpload,
  type Transport,
  type TransportRequest,
  type TransportResponse,
  UploadError,
  type UploadErrorKind,
  type UploadTarget,
} from '../../lib/upload';

const target: UploadTarget = {
  variant: 'current',
  addresses: {
    baseUrl: 'https://t.example',
    apiUrl: 'https://api.t.example',
    uploadUrl: 'https://u.t.example',
  },
  credentials: { username: 'jörg', token: 'tøken' },
};
const IV = 'AbCdEfGh01234567';
const file = { name: 'report.pdf', type: 'application/pdf' };

const okBody = (more: Record<string, unknown> = {}) =>
  JSON.stringify({
    result: {
      url: 'https://u.t.example/aB3dE.pdf',
      fileName: 'aB3dE.pdf',
      contentType: 'application/pdf',
      contentLength: 3,
      key: null,
      keySize: 256,
      iv: IV,
      blockSize: 128,
      deletionKey: '',
      ...more,
    },
  });

function answering(response: Partial<TransportResponse>) {
  const seen: TransportRequest[] = [];
  const transport = vi.fn<Transport>(async (req) => {
    seen.push(req);
    return { status: 200, contentType: 'application/json', body: okBody(), ...response };
  });
  return { transport, seen };
}

const send = (transport: Transport, more: Partial<Parameters<typeof sendUpload>[0]> = {}) =>
  sendUpload({
    target,
    options: { mode: 'client', saveKey: false, genDeletionKey: false, doNotTrack: true },
    file,
    body: new Blob([new Uint8Array([7, 8, 9])]),
    iv: IV,
    transport,
    ...more,
  });

async function kindOf(promise: Promise<unknown>): Promise<UploadErrorKind> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UploadError);
  return (error as UploadError).kind;
}

describe('sendUpload', () => {
  it('sends the built request through the transport and returns the result', async () => {
    const { transport, seen } = answering({});
    const result = await send(transport);
    expect(result).toEqual({
      url: 'https://u.t.example/aB3dE.pdf',
      fileName: 'aB3dE.pdf',
      contentType: 'application/pdf',
      contentLength: 3,
      keySize: 256,
      iv: IV,
      blockSize: 128,
    });
    const req = seen[0]!;
    expect(req.url).toBe('https://api.t.example/v1/Upload');
    expect(req.headers).toEqual({ DNT: '1', Authorization: 'Basic asO2cmc6dMO4a2Vu' });
    const entries = [...(req.body as FormData).entries()];
    expect(entries.map(([name]) => name)).toEqual([
      'contentType',
      'encrypt',
      'saveKey',
      'keySize',
      'iv',
      'blockSize',
      'genDeletionKey',
      'doNotTrack',
      'file',
    ]);
    const part = entries.at(-1)![1] as File;
    expect(part.name).toBe('report.pdf');
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([7, 8, 9]);
  });

  it('gives a transport that makes the file bytes itself the frame alone (the worker’s stream, issue 21)', async () => {
    const { transport, seen } = answering({});
    const result = await send(transport, { body: { madeByTransport: 1234 } });
    expect(result.fileName).toBe('aB3dE.pdf');
    const body = seen[0]!.body;
    expect(body).not.toBeInstanceOf(FormData);
    expect(body).toMatchObject({
      fileSize: 1234,
      request: { url: seen[0]!.url, headers: seen[0]!.headers, fileName: 'report.pdf', fileField: 'file' },
    });
    expect((body as { boundary: string }).boundary).toMatch(/^----Hushdrop[0-9A-Za-z]{24}$/);
    // The frame carries the same fields a form would: the IV the bytes are encrypted with.
    expect((body as { request: { fields: [string, string][] } }).request.fields).toContainEqual(['iv', IV]);
  });

  it('passes progress, signal and timeout to the transport', async () => {
    const { transport } = answering({});
    const onProgress = vi.fn();
    const signal = new AbortController().signal;
    await send(transport, { onProgress, signal, timeoutMs: 1234 });
    expect(transport.mock.calls[0]![1]).toEqual({ onProgress, signal, timeoutMs: 1234 });
  });

  it('maps the answer’s errors', async () => {
    expect(
      await kindOf(send(answering({ body: JSON.stringify({ error: { message: 'No' } }) }).transport)),
    ).toBe('rejected');
    expect(await kindOf(send(answering({ status: 413 }).transport))).toBe('too-large');
    expect(await kindOf(send(answering({ status: 401 }).transport))).toBe('unauthorized');
    expect(await kindOf(send(answering({ status: 500, body: '<h1>x</h1>' }).transport))).toBe('http');
    expect(await kindOf(send(answering({ body: '<h1>x</h1>' }).transport))).toBe('bad-response');
  });

  it('says a 429 is the server limiting uploads, and keeps its own words on how long to wait', async () => {
    const answer = {
      status: 429,
      contentType: 'application/json',
      body: '{"error":{"message":"Try again in 24 hours."}}',
    };
    const err = await send(answering(answer).transport).catch((e: UploadError) => e);
    expect(err).toBeInstanceOf(UploadError);
    expect((err as UploadError).message).toMatch(
      /taking no more uploads from you for now \(HTTP 429\): wait/,
    );
    expect((err as UploadError).serverMessage).toBe('Try again in 24 hours.');
  });

  it('passes transport UploadErrors through and turns anything else into network', async () => {
    const timeout = vi.fn<Transport>(async () => {
      throw new UploadError('timeout', 'slow');
    });
    expect(await kindOf(send(timeout))).toBe('timeout');
    const broken = vi.fn<Transport>(async () => {
      throw new Error('socket hang up');
    });
    expect(await kindOf(send(broken))).toBe('network');
  });

  it('calls abort "aborted" whatever the transport threw', async () => {
    const controller = new AbortController();
    const transport = vi.fn<Transport>(async () => {
      controller.abort();
      throw new DOMException('The operation was aborted.', 'AbortError');
    });
    expect(await kindOf(send(transport, { signal: controller.signal }))).toBe('aborted');
  });

  it('does not send when already aborted', async () => {
    const { transport } = answering({});
    expect(await kindOf(send(transport, { signal: AbortSignal.abort() }))).toBe('aborted');
    expect(transport).not.toHaveBeenCalled();
  });

  it('refuses a client-mode result whose IV differs from the one used', async () => {
    const { transport } = answering({ body: okBody({ iv: 'ZZZZZZZZZZZZZZZZ' }) });
    expect(await kindOf(send(transport))).toBe('bad-response');
  });

  it('does not send with unusable settings', async () => {
    const { transport } = answering({});
    const bad: UploadTarget = { ...target, addresses: { ...target.addresses, apiUrl: 'nope' } };
    expect(await kindOf(send(transport, { target: bad }))).toBe('settings');
    expect(transport).not.toHaveBeenCalled();
  });
});
