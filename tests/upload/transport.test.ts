import { describe, expect, it, vi } from 'vitest';
import { fetchTransport, type TransportRequest, UploadError, xhrTransport } from '../../lib/upload';
import { FakeXHR, ManualTimers, XHR } from './fakes';

const request = (): TransportRequest => {
  const body = new FormData();
  body.append('encrypt', 'false');
  return {
    url: 'https://api.teknik.example/v1/Upload',
    headers: { DNT: '1', Authorization: 'Basic eDp5' },
    body,
  };
};

async function rejection(promise: Promise<unknown>): Promise<UploadError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UploadError);
  return error as UploadError;
}

/** A fetch that waits until aborted, like a server that never answers. */
const hangingFetch = vi.fn(
  (_url: RequestInfo | URL, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () =>
        reject(init.signal?.reason ?? new DOMException('aborted', 'AbortError')),
      );
    }),
);

describe('fetchTransport', () => {
  it('POSTs the form with the headers and returns status, type and text', async () => {
    const fetchImpl = vi.fn(
      async () =>
        new Response('{"result":{}}', { status: 200, headers: { 'Content-Type': 'application/json' } }),
    );
    const req = request();
    const res = await fetchTransport(fetchImpl)(req, {});
    expect(res).toEqual({ status: 200, contentType: 'application/json', body: '{"result":{}}' });
    const [url, init] = fetchImpl.mock.calls[0]! as unknown as [string, RequestInit];
    expect(url).toBe(req.url);
    expect(init.method).toBe('POST');
    expect(init.headers).toEqual(req.headers);
    expect(init.body).toBe(req.body);
  });

  it('returns error statuses instead of throwing (the caller maps them)', async () => {
    const fetchImpl = async () =>
      new Response('<h1>oops</h1>', { status: 500, headers: { 'content-type': 'text/html' } });
    expect(await fetchTransport(fetchImpl)(request(), {})).toMatchObject({
      status: 500,
      contentType: 'text/html',
    });
  });

  it('maps a fetch TypeError to network', async () => {
    const fetchImpl = async () => {
      throw new TypeError('fetch failed');
    };
    const error = await rejection(fetchTransport(fetchImpl)(request(), {}));
    expect(error.kind).toBe('network');
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('maps a body that breaks off to network', async () => {
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"res'));
        controller.error(new TypeError('terminated'));
      },
    });
    const fetchImpl = async () => new Response(stream, { status: 200 });
    expect((await rejection(fetchTransport(fetchImpl)(request(), {}))).kind).toBe('network');
  });

  it('maps the caller’s abort to aborted', async () => {
    const controller = new AbortController();
    const pending = fetchTransport(hangingFetch)(request(), { signal: controller.signal });
    controller.abort();
    expect((await rejection(pending)).kind).toBe('aborted');
  });

  it('does not start when already aborted', async () => {
    const fetchImpl = vi.fn();
    const error = await rejection(fetchTransport(fetchImpl)(request(), { signal: AbortSignal.abort() }));
    expect(error.kind).toBe('aborted');
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('maps its timeout to timeout, and clears the timer when done', async () => {
    const timers = new ManualTimers();
    const pending = fetchTransport(hangingFetch, timers)(request(), { timeoutMs: 1000 });
    expect([...timers.pending.values()].map((t) => t.ms)).toEqual([1000]);
    timers.fireAll();
    expect((await rejection(pending)).kind).toBe('timeout');

    const quick = async () => new Response('ok');
    await fetchTransport(quick, timers)(request(), { timeoutMs: 1000 });
    expect(timers.pending.size).toBe(0);
  });

  it('sets no timer without timeoutMs', async () => {
    const timers = new ManualTimers();
    await fetchTransport(async () => new Response('ok'), timers)(request(), {});
    expect(timers.pending.size).toBe(0);
  });
});

describe('xhrTransport', () => {
  it('POSTs the form with the headers and returns status, type and text', async () => {
    const req = request();
    const pending = xhrTransport(XHR)(req, {});
    const xhr = FakeXHR.last!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(req.url);
    expect(xhr.headers).toEqual(req.headers);
    expect(xhr.body).toBe(req.body);
    xhr.respond(200, 'application/json', '{"result":{}}');
    expect(await pending).toEqual({ status: 200, contentType: 'application/json', body: '{"result":{}}' });
  });

  it('reports upload progress from xhr.upload', async () => {
    const onProgress = vi.fn();
    const pending = xhrTransport(XHR)(request(), { onProgress });
    const xhr = FakeXHR.last!;
    xhr.progress(10, 100);
    xhr.upload.onprogress?.({ lengthComputable: false, loaded: 50, total: 0 });
    xhr.progress(100, 100);
    xhr.respond(200, null, '');
    await pending;
    expect(onProgress.mock.calls).toEqual([
      [10, 100],
      [100, 100],
    ]);
  });

  it('maps onerror (connection failed or closed) to network', async () => {
    const pending = xhrTransport(XHR)(request(), {});
    FakeXHR.last!.fail();
    expect((await rejection(pending)).kind).toBe('network');
  });

  it('maps the caller’s abort to aborted, and aborts the request', async () => {
    const controller = new AbortController();
    const pending = xhrTransport(XHR)(request(), { signal: controller.signal });
    controller.abort();
    expect(FakeXHR.last!.aborted).toBe(true);
    expect((await rejection(pending)).kind).toBe('aborted');
  });

  it('does not open a request when already aborted', async () => {
    FakeXHR.last = undefined;
    const error = await rejection(xhrTransport(XHR)(request(), { signal: AbortSignal.abort() }));
    expect(error.kind).toBe('aborted');
    expect(FakeXHR.last).toBeUndefined();
  });

  it('times out only after a stretch without progress', async () => {
    const timers = new ManualTimers();
    const pending = xhrTransport(XHR, timers)(request(), { timeoutMs: 5000 });
    const xhr = FakeXHR.last!;
    const first = [...timers.pending.keys()];
    xhr.progress(1, 10);
    // Progress replaced the timer with a fresh one.
    expect([...timers.pending.keys()]).not.toEqual(first);
    expect(timers.pending.size).toBe(1);
    timers.fireAll();
    expect(xhr.aborted).toBe(true);
    expect((await rejection(pending)).kind).toBe('timeout');
  });

  it('maps a native xhr timeout to timeout', async () => {
    const pending = xhrTransport(XHR)(request(), {});
    FakeXHR.last!.ontimeout?.({});
    expect((await rejection(pending)).kind).toBe('timeout');
  });

  it('clears its timer and listener once settled', async () => {
    const timers = new ManualTimers();
    const controller = new AbortController();
    const pending = xhrTransport(XHR, timers)(request(), { timeoutMs: 5000, signal: controller.signal });
    FakeXHR.last!.respond(200, null, 'x');
    await pending;
    expect(timers.pending.size).toBe(0);
    controller.abort();
    expect(FakeXHR.last!.aborted).toBe(false);
  });
});
