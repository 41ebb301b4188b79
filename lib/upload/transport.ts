/**
 * Two ways to send the multipart POST. Both turn every failure into an UploadError:
 * a broken connection → 'network', the caller's signal → 'aborted', the timeout → 'timeout'.
 */
import { abortedError, networkError, timeoutError, UploadError } from './errors';
import type { Transport, TransportOptions, TransportRequest, TransportResponse } from './types';

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
    const controller = new AbortController();
    let timedOut = false;
    const timer = watchdog(timers, timeoutMs, () => {
      timedOut = true;
      controller.abort();
    });
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    timer.restart();
    try {
      const response = await fetchImpl(req.url, {
        method: 'POST',
        headers: req.headers,
        body: req.body,
        signal: controller.signal,
      });
      const body = await response.text();
      return { status: response.status, contentType: response.headers.get('content-type'), body };
    } catch (error) {
      if (timedOut) throw timeoutError();
      if (signal?.aborted) throw abortedError(signal.reason);
      if (error instanceof UploadError) throw error;
      // fetch rejects with a TypeError for every network failure.
      throw networkError(error);
    } finally {
      timer.stop();
      signal?.removeEventListener('abort', onAbort);
    }
  };
}

/**
 * A transport on XMLHttpRequest (the constructor is passed in), which reports upload progress
 * through `xhr.upload.onprogress`. `timeoutMs` is the longest wait with no progress at all,
 * so a slow but moving upload of a large file is never cut off.
 */
export function xhrTransport(XHR: typeof XMLHttpRequest, timers: Timers = globalTimers): Transport {
  return (req: TransportRequest, { onProgress, signal, timeoutMs }: TransportOptions = {}) =>
    new Promise<TransportResponse>((resolve, reject) => {
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

      xhr.open('POST', req.url);
      xhr.responseType = 'text';
      for (const [name, value] of Object.entries(req.headers)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => {
        timer.restart();
        if (event.lengthComputable) onProgress?.(event.loaded, event.total);
      };
      xhr.onprogress = () => timer.restart();
      xhr.onload = () =>
        settle(() =>
          resolve({
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
