// The decision to stream: never without request streams (Firefox), never to plain http (no HTTP/2
// there), never again to an origin that refused one; and the feature test that tells a browser
// which takes a stream body from one that would turn it into text, as Firefox ESR does.
import { describe, expect, it } from 'vitest';
import { requestStreamsSupported, shouldStream } from '../../lib/upload';

describe('shouldStream', () => {
  const https = 'https://api.example/v1/Upload';

  it('streams to an https server when the browser takes request streams', () => {
    expect(shouldStream({ url: https, requestStreams: true })).toBe(true);
  });

  it('never hands a stream to a browser without request streams (Firefox), whatever the server', () => {
    for (const url of [https, 'http://api.example/v1/Upload'])
      expect(shouldStream({ url, requestStreams: false })).toBe(false);
  });

  it('goes the disk way to plain http, where browsers have no HTTP/2', () => {
    expect(shouldStream({ url: 'http://127.0.0.1:8787/api/v1/Upload', requestStreams: true })).toBe(false);
  });

  it('goes the disk way at once to an origin that refused a stream before', () => {
    const refused = new Set(['https://api.example']);
    expect(shouldStream({ url: https, requestStreams: true, refused })).toBe(false);
    expect(shouldStream({ url: 'https://other.example/api/v1/Upload', requestStreams: true, refused })).toBe(
      true,
    );
  });

  it('does not stream to an address it cannot read', () => {
    expect(shouldStream({ url: 'not a url', requestStreams: true })).toBe(false);
  });
});

describe('requestStreamsSupported', () => {
  it("says yes for Node's fetch Request, which streams request bodies", () => {
    expect(requestStreamsSupported(Request)).toBe(true);
  });

  it('says no for a Request that ignores duplex and turns the stream into text (as Firefox ESR)', () => {
    // What Firefox ESR 153 does, measured: no `duplex` read, the body becomes the string
    // "[object ReadableStream]" with Content-Type text/plain.
    class TextifyingRequest {
      readonly headers = new Headers();
      constructor(_url: string, init: { body?: unknown }) {
        if (init.body !== undefined) {
          String(init.body);
          this.headers.set('Content-Type', 'text/plain;charset=UTF-8');
        }
      }
    }
    expect(requestStreamsSupported(TextifyingRequest as unknown as typeof Request)).toBe(false);
  });

  it('says no when there is no Request, or when making one throws', () => {
    expect(requestStreamsSupported(undefined)).toBe(false);
    class Throwing {
      constructor() {
        throw new TypeError('streams are not supported');
      }
    }
    expect(requestStreamsSupported(Throwing as unknown as typeof Request)).toBe(false);
  });
});
