/**
 * Three ways to send the multipart POST: a form with fetch or with XMLHttpRequest (progress), or a
 * streamed body with fetch (encrypting while sending). Each turns every failure into an UploadError:
 * a broken connection → 'network', the caller's signal → 'aborted', the timeout → 'timeout', a
 * stream the browser would not send → 'stream-refused'.
 */
import { type FileCipher, sealedStream } from '../crypto/file-cipher';
import { abortedError, networkError, streamRefusedError, timeoutError, UploadError } from './errors';
import { multipartStream, type StreamBody } from './multipart';
import type { FramedBody, Transport, TransportOptions, TransportRequest, TransportResponse } from './types';

/** The clock the transports use for their timeout; the global timers unless a test passes its own. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const globalTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A timer that can be pushed back; `fire` runs once if it is not pushed back or stopped in time (also the viewer's silence limit). */
export function watchdog(timers: Timers, ms: number | undefined, fire: () => void) {
  let handle: unknown;
  const stop = () => {
    if (handle !== undefined) timers.clearTimeout(handle);
    handle = undefined;
  };
  const restart = () => {
    stop();
    if (ms !== undefined && ms > 0) handle = timers.setTimeout(fire, ms);
  };
  return { restart, stop };
}

/**
 * An AbortController for one request that the caller's signal and a silence timeout both abort.
 * `timedOut()` tells which; `dispose()` stops the timer and lets go of the caller's signal.
 */
function requestAbort(signal: AbortSignal | undefined, timers: Timers, timeoutMs: number | undefined) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = watchdog(timers, timeoutMs, () => {
    timedOut = true;
    controller.abort();
  });
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  timer.restart();
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    /** Pushes the timeout back (a sign of progress). */
    restart: timer.restart,
    dispose() {
      timer.stop();
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

function formOf(req: TransportRequest): FormData {
  if (req.body instanceof FormData) return req.body;
  throw new TypeError('This transport sends forms; use streamTransport for a streamed body.');
}

/**
 * A transport on `fetch`. Fetch cannot report upload progress, so `onProgress` is never
 * called and `timeoutMs` limits the whole exchange (request and answer): prefer xhrTransport
 * for large files.
 */
export function fetchTransport(
  fetchImpl: typeof fetch = globalThis.fetch,
  timers: Timers = globalTimers,
): Transport {
  return async (req: TransportRequest, { signal, timeoutMs }: TransportOptions = {}) => {
    if (signal?.aborted) throw abortedError(signal.reason);
    const abort = requestAbort(signal, timers, timeoutMs);
    try {
      const response = await fetchImpl(req.url, {
        method: 'POST',
        headers: req.headers,
        body: formOf(req),
        signal: abort.signal,
      });
      const body = await response.text();
      return { status: response.status, contentType: response.headers.get('content-type'), body };
    } catch (error) {
      if (abort.timedOut()) throw timeoutError();
      if (signal?.aborted) throw abortedError(signal.reason);
      if (error instanceof UploadError) throw error;
      // fetch rejects with a TypeError for every network failure.
      throw networkError(error);
    } finally {
      abort.dispose();
    }
  };
}

/** One XHR exchange: any method, any body (a form, raw bytes, or none). */
export interface XhrExchange {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body: XMLHttpRequestBodyInit | null;
}

/**
 * One request with XMLHttpRequest (the constructor is passed in), which reports upload progress
 * through `xhr.upload.onprogress`. `timeoutMs` is the longest wait with no progress at all,
 * so a slow but moving upload of a large file is never cut off. Failures are UploadErrors as
 * the transports' are (an upload in parts sends its parts with it: lib/upload/parts.ts).
 */
export function xhrExchange(
  XHR: typeof XMLHttpRequest,
  req: XhrExchange,
  { onProgress, signal, timeoutMs }: TransportOptions = {},
  timers: Timers = globalTimers,
): Promise<TransportResponse> {
  return new Promise<TransportResponse>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError(signal.reason));
      return;
    }
    const xhr = new XHR();
    let timedOut = false;
    const timer = watchdog(timers, timeoutMs, () => {
      timedOut = true;
      xhr.abort();
    });
    const onAbort = () => xhr.abort();
    const settle = (outcome: () => void) => {
      timer.stop();
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };

    xhr.open(req.method, req.url);
    xhr.responseType = 'text';
    for (const [name, value] of Object.entries(req.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      timer.restart();
      if (event.lengthComputable) onProgress?.(event.loaded, event.total);
    };
    xhr.onprogress = () => timer.restart();
    xhr.onload = () =>
      settle(() =>
        // Status 0 is no answer at all: Firefox ends a request whose connection broke off after its
        // body was sent with a load, not an error.
        xhr.status === 0
          ? reject(networkError())
          : resolve({
              status: xhr.status,
              contentType: xhr.getResponseHeader('content-type'),
              body: xhr.responseText,
            }),
      );
    xhr.onerror = () => settle(() => reject(networkError()));
    xhr.ontimeout = () => settle(() => reject(timeoutError()));
    xhr.onabort = () => settle(() => reject(timedOut ? timeoutError() : abortedError(signal?.reason)));
    signal?.addEventListener('abort', onAbort, { once: true });
    timer.restart();
    try {
      xhr.send(req.body);
    } catch (error) {
      settle(() => reject(networkError(error)));
    }
  });
}

/** A transport on XMLHttpRequest: the form as a POST, with progress (xhrExchange). */
export function xhrTransport(XHR: typeof XMLHttpRequest, timers: Timers = globalTimers): Transport {
  return (req: TransportRequest, options: TransportOptions = {}) =>
    xhrExchange(
      XHR,
      { method: 'POST', url: req.url, headers: req.headers, body: formOf(req) },
      options,
      timers,
    );
}

/**
 * Bytes the network may have taken when a failure still counts as "refused before sending".
 * Chromium 156 takes none before it fails a stream to an HTTP/1.1 server (ERR_ALPN_NEGOTIATION_FAILED
 * at once: 0 bytes, measured); the margin covers a browser that reads the form's head first. A
 * server cannot have stored anything by then, so sending the upload again cannot duplicate it.
 */
export const REFUSED_WITHIN_BYTES = 64 * 1024;

/**
 * A transport on `fetch` with a streamed body (`duplex: 'half'`), for bodies made while they are
 * sent. Progress is the bytes the network has taken from the stream (it asks for them as it sends,
 * so this runs ahead of the server by what is in flight); `timeoutMs` is the longest wait with no
 * byte taken and no answer. Aborting cancels the body stream at once. A failure before the network
 * took more than REFUSED_WITHIN_BYTES is a 'stream-refused' UploadError: send the body another way.
 */
export function streamTransport(
  fetchImpl: typeof fetch = globalThis.fetch,
  timers: Timers = globalTimers,
): Transport {
  return async (req: TransportRequest, { onProgress, signal, timeoutMs }: TransportOptions = {}) => {
    if (!('stream' in req.body)) throw new TypeError('streamTransport sends a StreamBody.');
    const body: StreamBody = req.body;
    if (signal?.aborted) {
      await body.stream.cancel(signal.reason).catch(() => {});
      throw abortedError(signal.reason);
    }
    const abort = requestAbort(signal, timers, timeoutMs);
    let taken = 0;
    // Once the server has answered it may hold the file: an error then is never "refused", which
    // would send the file a second time.
    let answered = false;
    const source = body.stream.getReader();
    // Counts what the network takes: nothing is queued here, so each pull is a request for bytes.
    const counted = new ReadableStream<Uint8Array>(
      {
        async pull(out) {
          const { value, done } = await source.read();
          if (done) {
            out.close();
            return;
          }
          taken += value.length;
          abort.restart();
          onProgress?.(taken, body.length);
          out.enqueue(value);
        },
        cancel: (reason) => source.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    try {
      const response = await fetchImpl(req.url, {
        method: 'POST',
        headers: { ...req.headers, 'Content-Type': body.contentType },
        body: counted,
        signal: abort.signal,
        duplex: 'half',
      } as RequestInit);
      answered = true;
      abort.restart();
      const text = await response.text();
      return { status: response.status, contentType: response.headers.get('content-type'), body: text };
    } catch (error) {
      if (abort.timedOut()) throw timeoutError();
      if (signal?.aborted) throw abortedError(signal.reason);
      if (error instanceof UploadError) throw error;
      if (!answered && taken <= REFUSED_WITHIN_BYTES) throw streamRefusedError(error);
      throw networkError(error);
    } finally {
      abort.dispose();
      source.cancel().catch(() => {});
    }
  };
}

/**
 * Sends the upload's form with `file` encrypted into its file part, over a streamed fetch: the
 * stream way's request, as the encrypt worker makes it (platform/upload/encrypt-worker-send.ts says
 * why there) and the page where no worker starts.
 */
export async function sendSealed(
  file: Blob,
  cipher: FileCipher,
  framed: FramedBody,
  options: TransportOptions,
): Promise<TransportResponse> {
  const { request, boundary, fileSize } = framed;
  const body = multipartStream(request, await sealedStream(file, cipher), fileSize, boundary);
  return streamTransport()({ url: request.url, headers: request.headers, body }, options);
}
