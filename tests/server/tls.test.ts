// The reference server over TLS: HTTP/2 and HTTP/1.1 by ALPN (or HTTP/1.1 alone), a certificate made
// at start that clients trust by its PEM alone, the receive windows a fast stream needs, the HTTP
// version of each upload on record, and bodies cut off mid-way (RST_STREAM, a dropped socket, a form
// that ends early) that leave the server alive with nothing stored.
import { type ClientHttp2Session, connect, constants } from 'node:http2';
import { request } from 'node:https';
import { afterEach, describe, expect, it } from 'vitest';
import { CONNECTION_WINDOW_BYTES, STREAM_WINDOW_BYTES } from '../../devkit/tls';
import { MIN_PART_BYTES } from '../../server/config/settings';
import type { ServerOptions } from './server';
import {
  bytesOf,
  form,
  heldBeforeStoring,
  randomBytesOf,
  startTestServer,
  storedFiles,
  type TestServer,
  teknikCtr,
} from './test-helpers';

const MIB = 1024 * 1024;

let t: TestServer | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function start(http2 = true, settings: ServerOptions['settings'] = {}): Promise<TestServer> {
  t = await startTestServer({ tls: { http2 }, record: true, settings });
  return t;
}

/** The bytes and Content-Type of a multipart form, as fetch would send them. */
async function encoded(data: FormData): Promise<{ body: Uint8Array; type: string }> {
  const req = new Request('http://form.invalid/', { method: 'POST', body: data });
  return { body: new Uint8Array(await req.arrayBuffer()), type: req.headers.get('content-type')! };
}

const uploadForm = (bytes: Uint8Array<ArrayBuffer>) =>
  encoded(form({ encrypt: 'false', genDeletionKey: 'true', file: { bytes, name: 'f.bin' } }));

function h2Session(t: TestServer): ClientHttp2Session {
  const session = connect(t.server.baseUrl, { ca: t.server.tls!.certificatePem });
  session.on('error', () => {});
  return session;
}

/** POSTs over HTTP/2; resolves with the status and the JSON answer. */
function h2Post(session: ClientHttp2Session, path: string, body: Uint8Array, type: string) {
  return new Promise<{ status: number; json: any }>((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': type });
    let status = 0;
    let text = '';
    stream.on('response', (headers) => {
      status = Number(headers[':status']);
    });
    stream.setEncoding('utf8');
    stream.on('data', (d: string) => {
      text += d;
    });
    stream.on('end', () => resolve({ status, json: JSON.parse(text) }));
    stream.on('error', reject);
    stream.end(body);
  });
}

/** POSTs over HTTP/1.1 (node:https, no ALPN); resolves with the status and the JSON answer. */
function h1Post(t: TestServer, path: string, body: Uint8Array, type: string) {
  return new Promise<{ status: number; json: any }>((resolve, reject) => {
    const req = request(
      `${t.server.baseUrl}${path}`,
      { method: 'POST', ca: t.server.tls!.certificatePem, headers: { 'content-type': type } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Resolves once the server holds a file being received (the file part has begun). */
async function partArrived(t: TestServer): Promise<void> {
  // On S3 the write shows once a whole part went through TLS and into the store: more than poll's default second under load.
  await expect.poll(async () => (await storedFiles(t.server)).length, { timeout: 60_000 }).toBeGreaterThan(0);
}

const UPLOAD = '/api/v1/Upload';

describe('TLS with HTTP/2 and HTTP/1.1', () => {
  it('serves both over https, stores the bytes, and records which HTTP version each upload used', async () => {
    const t = await start();
    expect(t.server.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(t.server.tls?.protocols).toEqual(['h2', 'http/1.1']);
    expect(t.server.tls?.spkiSha256).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const bytes = randomBytesOf(3 * MIB + 7, 3);
    const { body, type } = await uploadForm(bytes);
    const session = h2Session(t);
    try {
      const over2 = await h2Post(session, UPLOAD, body, type);
      const over1 = await h1Post(t, UPLOAD, body, type);
      for (const [answer, version] of [
        [over2, '2.0'],
        [over1, '1.1'],
      ] as const) {
        expect(answer.status).toBe(200);
        const stored = (await t.server.stored(answer.json.result.fileName))!;
        expect(stored.httpVersion).toBe(version);
        expect(stored.contentLength).toBe(bytes.length);
      }
      expect(t.server.requests.map((r) => r.httpVersion)).toEqual(['2.0', '1.1']);
    } finally {
      session.close();
    }
  });

  it('is trusted only through its own certificate', async () => {
    const t = await start();
    const untrusted = connect(t.server.baseUrl);
    const failure = await new Promise<Error>((resolve) => untrusted.once('error', resolve));
    untrusted.destroy();
    expect(failure.message).toMatch(/self[- ]signed|certificate/i);
  });

  it('announces a 16 MiB stream window and a 32 MiB connection window', async () => {
    const t = await start();
    const session = h2Session(t);
    try {
      await new Promise<void>((resolve) => session.once('remoteSettings', () => resolve()));
      expect(session.remoteSettings.initialWindowSize).toBe(STREAM_WINDOW_BYTES);
      // The connection window grows with a WINDOW_UPDATE that follows the settings.
      await expect.poll(() => session.state.remoteWindowSize).toBe(CONNECTION_WINDOW_BYTES);
    } finally {
      session.close();
    }
  });

  it('encrypts over HTTP/2 as over HTTP/1.1 (server mode): the stored copy decrypts', async () => {
    const t = await start();
    const bytes = bytesOf('secret over h2');
    const { body, type } = await encoded(
      form({ encrypt: 'true', saveKey: 'false', file: { bytes, name: 'n.txt' } }),
    );
    const session = h2Session(t);
    try {
      const answer = await h2Post(session, UPLOAD, body, type);
      const { key, iv, fileName } = answer.json.result;
      const stored = await (await t.server.stored(fileName))!.bytes();
      expect(Buffer.from(teknikCtr(key, iv, stored)).toString()).toBe('secret over h2');
    } finally {
      session.close();
    }
  });
});

describe('bodies cut off mid-way', () => {
  it('RST_STREAM (CANCEL, INTERNAL_ERROR) mid-body: nothing stored, the same connection and the server go on', async () => {
    const t = await start();
    const session = h2Session(t);
    try {
      for (const [round, code] of [
        constants.NGHTTP2_CANCEL,
        constants.NGHTTP2_INTERNAL_ERROR,
        constants.NGHTTP2_CANCEL,
      ].entries()) {
        const held = heldBeforeStoring(t.server);
        const { body, type } = await uploadForm(randomBytesOf(8 * MIB + held, round + 1));
        const stream = session.request({ ':method': 'POST', ':path': UPLOAD, 'content-type': type });
        stream.on('error', () => {});
        const closed = new Promise((resolve) => stream.once('close', resolve));
        stream.write(body.subarray(0, 4 * MIB + held));
        await partArrived(t);
        stream.close(code);
        await closed;
        await expect.poll(() => storedFiles(t.server)).toEqual([]);
      }
      const { body, type } = await uploadForm(randomBytesOf(MIB, 9));
      expect((await h2Post(session, UPLOAD, body, type)).status).toBe(200);
    } finally {
      session.close();
    }
  });

  it('a dropped HTTP/1.1 connection mid-body: nothing stored, the server goes on', async () => {
    const t = await start();
    const held = heldBeforeStoring(t.server);
    const { body, type } = await uploadForm(randomBytesOf(8 * MIB + held, 4));
    const req = request(`${t.server.baseUrl}${UPLOAD}`, {
      method: 'POST',
      ca: t.server.tls!.certificatePem,
      headers: { 'content-type': type, 'content-length': String(body.length) },
    });
    req.on('error', () => {});
    req.write(body.subarray(0, 4 * MIB + held));
    await partArrived(t);
    req.destroy();
    await expect.poll(() => storedFiles(t.server)).toEqual([]);
    const small = await uploadForm(randomBytesOf(1000, 5));
    expect((await h1Post(t, UPLOAD, small.body, small.type)).status).toBe(200);
  });

  it('a form that ends before its closing boundary ("Unexpected end of form") gets an answer', async () => {
    const t = await start();
    const { body, type } = await uploadForm(randomBytesOf(2 * MIB, 6));
    const cut = body.subarray(0, MIB);
    const session = h2Session(t);
    try {
      const over2 = await h2Post(session, UPLOAD, cut, type);
      const over1 = await h1Post(t, UPLOAD, cut, type);
      for (const answer of [over2, over1]) {
        expect(answer.status).toBe(200);
        expect(answer.json.error.message).toBe('Invalid Upload Request');
      }
      expect(await storedFiles(t.server)).toEqual([]);
      const whole = await h2Post(session, UPLOAD, body, type);
      expect(whole.status).toBe(200);
    } finally {
      session.close();
    }
  });
});

/**
 * Keeps an HTTP/2 connection from ever being idle (a request every 200 ms on another stream), as an attacker
 * would: the connection's own idle timeout then never fires (PINGs alone do not count). Returns the timer.
 */
function keepBusy(session: ClientHttp2Session): NodeJS.Timeout {
  return setInterval(() => {
    if (session.closed || session.destroyed) return;
    const ask = session.request({ ':path': '/_hushdrop/health' });
    ask.on('error', () => {});
    ask.resume();
  }, 200);
}

/** Slow clients cut after one second of moving fewer than 8 KiB. */
const QUICK_CUT = {
  timeouts: {
    headersMs: 20_000,
    slowClientMs: 1000,
    slowClientMinBytes: 8192,
    keepAliveMs: 30_000,
    shutdownGraceMs: 30_000,
  },
};

describe('HTTP/2 streams, each on its own (issue 31)', () => {
  const PART = MIN_PART_BYTES;
  const PARTS = '/api/v1/Upload/Parts';

  it('one stalled stream of a part, on a connection kept busy, is cut on its own: its write is not held, Done finds it missing', async () => {
    const t = await start(true, { ...QUICK_CUT, parts: { partBytes: PART } });
    const session = h2Session(t);
    const busy = keepBusy(session);
    try {
      const startForm = await encoded(
        form({ encrypt: 'false', partsTotal: String(2 * PART), fileName: 's.bin' }),
      );
      const started = await h2Post(session, PARTS, startForm.body, startForm.type);
      expect(started.status).toBe(201);
      const { id } = started.json;
      const stream = session.request({
        ':method': 'PUT',
        ':path': `${PARTS}/${id}/0`,
        'content-length': String(PART),
      });
      let status = 0;
      stream.on('response', (headers) => {
        status = Number(headers[':status']);
      });
      stream.on('error', () => {});
      const closed = new Promise((resolve) => stream.once('close', resolve));
      stream.write(randomBytesOf(64 * 1024, 12));
      await expect.poll(() => t.server.requests.filter((r) => r.method === 'PUT').length).toBe(1);
      // Done meanwhile, on another stream of the same connection: it waits for no stalled part for long.
      const done = await h2Post(session, `${PARTS}/${id}`, new Uint8Array(0), 'application/octet-stream');
      expect(done.status).toBe(409);
      expect(done.json.error.message).toMatch(/^2 of the upload's 2 parts are missing/);
      await closed;
      expect([0, 408]).toContain(status);
      // The connection itself goes on.
      const health = session.request({ ':path': '/_hushdrop/health' });
      const healthStatus = await new Promise<number>((resolve) =>
        health.on('response', (headers) => resolve(Number(headers[':status']))),
      );
      health.resume();
      expect(healthStatus).toBe(200);
    } finally {
      clearInterval(busy);
      session.close();
    }
  });

  it('one stream whose client stops reading a download, on a connection kept busy, is cut on its own', async () => {
    const t = await start(true, QUICK_CUT);
    const size = 8 * MIB;
    const session = h2Session(t);
    const busy = keepBusy(session);
    try {
      const { body, type } = await uploadForm(randomBytesOf(size, 13));
      const made = await h2Post(session, UPLOAD, body, type);
      expect(made.status).toBe(200);
      const stream = session.request({ ':path': new URL(made.json.result.url).pathname });
      stream.on('error', () => {});
      let received = 0;
      // Takes the first bytes, then reads no more: the server's writes to this stream back up.
      stream.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= 64 * 1024) stream.pause();
      });
      await new Promise((resolve) => stream.once('close', resolve));
      expect(stream.rstCode).toBe(constants.NGHTTP2_CANCEL);
      expect(received).toBeLessThan(size);
    } finally {
      clearInterval(busy);
      session.close();
    }
  });

  it('bounds the streams one connection may have open at once (tls.maxConcurrentStreams)', async () => {
    const t = await start(true, { maxConcurrentStreams: 3 });
    const { type } = await uploadForm(bytesOf('x'));
    const session = h2Session(t);
    try {
      const settings = new Promise<{ maxConcurrentStreams?: number }>((resolve) =>
        session.once('remoteSettings', resolve),
      );
      // Four uploads that never end their bodies, sent before the server's settings are known (as a client
      // that ignores them would): the server refuses the fourth stream. (Node's client would queue it.)
      const streams = Array.from({ length: 4 }, () => {
        const stream = session.request({ ':method': 'POST', ':path': UPLOAD, 'content-type': type });
        stream.on('error', () => {});
        stream.write('--');
        return stream;
      });
      const refused = new Promise<number>((resolve) =>
        streams[3]!.once('close', () => resolve(streams[3]!.rstCode ?? 0)),
      );
      expect((await settings).maxConcurrentStreams).toBe(3);
      expect(await refused).toBe(constants.NGHTTP2_REFUSED_STREAM);
      // Node's client (20.20) hangs in session.destroy() with streams like these still open: close them first.
      for (const stream of streams) stream.close(constants.NGHTTP2_CANCEL);
    } finally {
      session.destroy();
    }
  });
});

describe('TLS with HTTP/1.1 only', () => {
  it('offers no HTTP/2: an h2 client cannot connect, an HTTP/1.1 client uploads', async () => {
    const t = await start(false);
    expect(t.server.tls?.protocols).toEqual(['http/1.1']);
    const session = connect(t.server.baseUrl, { ca: t.server.tls!.certificatePem });
    const failure = await new Promise<Error>((resolve) => session.once('error', resolve));
    session.destroy();
    expect(String(failure)).toMatch(/protocol|ALPN|h2|closed|socket/i);
    const { body, type } = await uploadForm(randomBytesOf(MIB, 7));
    const answer = await h1Post(t, UPLOAD, body, type);
    expect(answer.status).toBe(200);
    expect((await t.server.stored(answer.json.result.fileName))!.httpVersion).toBe('1.1');
  });
});
