/**
 * Whether to send an encrypted upload as a stream (encrypting while sending) or from the encrypted
 * copy on disk. Measured facts (issue 12): Chromium streams a request body only over HTTP/2, so
 * only to https servers, and fails fast otherwise; Firefox ESR does not support request streams and
 * does not say so: it sends the text "[object ReadableStream]" as the body. So a stream body is
 * never handed to a browser that has not shown it takes one.
 */

/**
 * The feature test for request streams: a browser that supports them reads the `duplex` option and
 * does not turn the stream into text (a text body would get a `text/plain` Content-Type). Firefox
 * fails it. It says nothing about the server: Chromium passes it and still cannot stream to an
 * HTTP/1.1 server, which only trying shows.
 */
export function requestStreamsSupported(RequestImpl: typeof Request | undefined): boolean {
  if (typeof RequestImpl !== 'function' || typeof ReadableStream !== 'function') return false;
  try {
    let duplexRead = false;
    const request = new RequestImpl('https://hushdrop.invalid/', {
      method: 'POST',
      body: new ReadableStream(),
      get duplex() {
        duplexRead = true;
        return 'half';
      },
    } as RequestInit);
    return duplexRead && !request.headers.has('Content-Type');
  } catch {
    return false;
  }
}

export interface StreamChoice {
  /** Where the upload goes. */
  url: string;
  /** The browser takes request streams (requestStreamsSupported, and not a Firefox build). */
  requestStreams: boolean;
  /** Origins that refused a stream earlier in this session: they go to disk at once. */
  refused?: ReadonlySet<string>;
}

/** True when the upload should be tried as a stream; false means the encrypted copy on disk. */
export function shouldStream({ url, requestStreams, refused }: StreamChoice): boolean {
  if (!requestStreams) return false;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  // Browsers speak HTTP/2 only over TLS: a plain-http server cannot take a stream.
  if (target.protocol !== 'https:') return false;
  return !refused?.has(target.origin);
}
