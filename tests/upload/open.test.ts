// lib/upload/open.ts with Node's fetch: links uploaded to the reference server (tests/server), and
// a small hostile server for the answers a download must not be fooled by.
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deriveIv,
  eceCiphertextSize,
  eceEncryptBytes,
  encryptBlob,
  randomKey,
  randomSecret,
} from '../../lib/crypto';
import { fetchTransport, type Mode, sendUpload, type UploadResult } from '../../lib/upload';
import { OpenLinkError, type OpenProgress, type OpenTarget, openLink } from '../../lib/upload/open';
import { startTestServer, type TestServer } from '../server/test-helpers';

let ref: TestServer;
let hostile: { origin: string; close(): Promise<void>; fetched: string[] };
const routes: Record<string, (res: ServerResponse) => void> = {};

beforeAll(async () => {
  ref = await startTestServer({ downloadPage: true });
  const fetched: string[] = [];
  const server: Server = createServer((req, res) => {
    fetched.push(`${req.method} ${req.url}`);
    const route = routes[req.url ?? ''];
    if (route) route(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  hostile = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    fetched,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
});

afterAll(async () => {
  await ref?.stop();
  await hostile?.close();
});

/** How the last sink ended: a failed download must abort it, never close it as a whole file. */
let sinkEnd: 'open' | 'closed' | 'aborted' | undefined;

/** Opens `target` into memory; resolves with the bytes, the type and every progress report. */
async function open(target: OpenTarget, silenceMs?: number, unannouncedLimit?: number) {
  const chunks: Uint8Array[] = [];
  const progress: OpenProgress[] = [];
  sinkEnd = undefined;
  const { contentType, size } = await openLink(target, {
    fetch,
    openSink: async () => {
      sinkEnd = 'open';
      return new WritableStream({
        write: (chunk) => void chunks.push(chunk),
        close: () => {
          sinkEnd = 'closed';
        },
        abort: () => {
          sinkEnd = 'aborted';
        },
      });
    },
    onProgress: (p) => progress.push(p),
    silenceMs,
    unannouncedLimit,
  });
  return { bytes: Buffer.concat(chunks), contentType, size, progress };
}

async function failure(promise: Promise<unknown>): Promise<OpenLinkError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenLinkError);
  return error as OpenLinkError;
}

async function upload(mode: Mode, plain: Uint8Array<ArrayBuffer>, saveKey = false) {
  const { baseUrl, apiUrl, uploadUrl } = ref.server;
  const target = { variant: 'current' as const, addresses: { baseUrl, apiUrl, uploadUrl } };
  const options = { mode, saveKey, genDeletionKey: false };
  const file = { name: 'photo.png', type: 'image/png' };
  if (mode !== 'client') {
    const result = await sendUpload({
      target,
      options,
      file,
      body: new Blob([plain]),
      transport: fetchTransport(),
    });
    return { result, key: result.key };
  }
  const key = randomKey();
  const iv = deriveIv(key);
  const parts: Uint8Array<ArrayBuffer>[] = [];
  await encryptBlob(new Blob([plain]), { key, iv }, (c) => void parts.push(Uint8Array.from(c)));
  const result: UploadResult = await sendUpload({
    target,
    options,
    file,
    body: new Blob(parts),
    iv,
    transport: fetchTransport(),
  });
  return { result, key };
}

describe('links on the reference server', () => {
  it('decrypts a client-encrypted upload as it arrives, and reports its progress', async () => {
    const plain = new Uint8Array(randomBytes(3 * 1024 * 1024 + 7));
    const { result, key } = await upload('client', plain);
    const opened = await open({
      url: result.url,
      cipher: { key: key!, iv: deriveIv(key!) },
      knownSize: plain.length,
    });
    expect(opened.bytes.equals(plain)).toBe(true);
    expect(opened.size).toBe(plain.length);
    expect(sinkEnd).toBe('closed');
    expect(opened.progress.at(-1)).toEqual({ done: plain.length, total: plain.length });
  });

  it('follows the download page of a server-encrypted upload whose key it did not keep, with its IV', async () => {
    const plain = new Uint8Array(randomBytes(100_000));
    const { result, key } = await upload('server', plain, false);
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    // The IV the link would derive is wrong for a server's upload: the page's must be used.
    const opened = await open({ url: result.url, cipher: { key: key!, iv: deriveIv(key!) } });
    expect(opened.bytes.equals(plain)).toBe(true);
    expect(opened.contentType).toBe('image/png');
  });

  it('a file that is gone says so', async () => {
    expect((await failure(open({ url: `${ref.server.uploadUrl}/nothing-here.png` }))).message).toMatch(
      /no longer on the server/,
    );
  });
});

describe('links in the authenticated format', () => {
  /** Uploads `plain` as a client would in the ece format; returns the file's address and secret, and the server's stored copy. */
  async function uploadEce(plain: Uint8Array<ArrayBuffer>) {
    const { baseUrl, apiUrl, uploadUrl } = ref.server;
    const secret = randomSecret();
    const result = await sendUpload({
      target: { variant: 'current', addresses: { baseUrl, apiUrl, uploadUrl } },
      options: { mode: 'client', format: 'ece', saveKey: false, genDeletionKey: false },
      file: { name: 'notes.bin', type: 'application/octet-stream' },
      body: new Blob([await eceEncryptBytes(plain, secret)]),
      transport: fetchTransport(),
    });
    const target: OpenTarget = {
      url: result.url,
      cipher: { format: 'ece', secret },
      knownSize: eceCiphertextSize(plain.length),
    };
    return { target, stored: (await ref.server.stored(result.fileName))! };
  }

  it('opens an untouched file byte for byte', async () => {
    const plain = new Uint8Array(randomBytes(200_000));
    const { target } = await uploadEce(plain);
    const opened = await open(target);
    expect(opened.bytes.equals(plain)).toBe(true);
    expect(sinkEnd).toBe('closed');
  });

  it('refuses a file with one byte changed on the server, and aborts the sink', async () => {
    const plain = new Uint8Array(randomBytes(200_000));
    const { target, stored } = await uploadEce(plain);
    const bytes = await stored.bytes();
    bytes[100_000]! ^= 0x01;
    await stored.replaceBytes(bytes);
    const err = await failure(open(target));
    expect(err.message).toMatch(/changed/);
    expect(err.message).toMatch(/not saved/i);
    expect(sinkEnd).toBe('aborted');
  });

  it('refuses a file cut short at a record boundary, though its length is what the server announced', async () => {
    const plain = new Uint8Array(randomBytes(200_000));
    const { target, stored } = await uploadEce(plain);
    const cut = (await stored.bytes()).subarray(0, 21 + 65_536);
    routes['/cut.bin'] = (res) =>
      res
        .writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': cut.length })
        .end(cut);
    const err = await failure(open({ ...target, url: `${hostile.origin}/cut.bin`, knownSize: undefined }));
    expect(err.message).toMatch(/cut short/i);
    expect(sinkEnd).toBe('aborted');
  });
});

describe('answers a download must not be fooled by', () => {
  const page = (downloadDataUrl: string) => {
    const html = `<!doctype html><script>var downloadDataUrl = '${downloadDataUrl}'; var fileName = 'a.bin'; var iv = '0123456789ABCDEF';</script>`;
    return (res: ServerResponse) =>
      res
        .writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(html) })
        .end(html);
  };
  const cipher = { key: randomKey(), iv: '0123456789ABCDEF' };

  it('a download page pointing at another server: nothing is fetched there', async () => {
    routes['/elsewhere'] = page('http://192.0.2.1/Action/DownloadData');
    const error = await failure(open({ url: `${hostile.origin}/elsewhere`, cipher }));
    expect(error.message).toMatch(/another server \(192\.0\.2\.1\)/);
    expect(sinkEnd).toBeUndefined();
  });

  it('more bytes than the upload recorded: stopped, and the sink gets an error, not the file', async () => {
    routes['/long'] = (res) =>
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(randomBytes(5000));
    const error = await failure(open({ url: `${hostile.origin}/long`, knownSize: 4000 }));
    expect(error.message).toMatch(/more than the 4,000 bytes/);
    expect(sinkEnd).toBe('aborted');
  });

  it('a redirect to another server: refused, and nothing it sends reaches the sink', async () => {
    routes['/moved'] = (res) => res.writeHead(302, { Location: `${ref.server.uploadUrl}/x.bin` }).end();
    const error = await failure(open({ url: `${hostile.origin}/moved`, cipher }));
    expect(error.message).toMatch(new RegExp(`another server \\(${new URL(ref.server.uploadUrl).host}\\)`));
    expect(sinkEnd).toBeUndefined();
  });

  it('a redirect on the same server is followed', async () => {
    routes['/here'] = (res) => res.writeHead(302, { Location: '/there' }).end();
    routes['/there'] = (res) =>
      res
        .writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': 10 })
        .end('0123456789');
    const opened = await open({ url: `${hostile.origin}/here`, knownSize: 10 });
    expect(opened.bytes.toString()).toBe('0123456789');
  });

  it('a length announced above the recorded size: refused before anything is written', async () => {
    routes['/announced'] = (res) =>
      res
        .writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': 5000 })
        .end(randomBytes(5000));
    const error = await failure(open({ url: `${hostile.origin}/announced`, knownSize: 4000 }));
    expect(error.message).toMatch(/more than the 4,000 bytes/);
    expect(sinkEnd).toBeUndefined();
  });

  it('no length announced and none recorded: held to the limit for unannounced downloads', async () => {
    routes['/endless'] = (res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.end(randomBytes(50_000));
    };
    const error = await failure(open({ url: `${hostile.origin}/endless` }, undefined, 20_000));
    expect(error.message).toMatch(/more than the 20,000 bytes/);
    expect(sinkEnd).toBe('aborted');
  });

  it('a connection that breaks off before the announced length', async () => {
    routes['/cut'] = (res) => {
      res.writeHead(200, { 'Content-Length': '100000' });
      res.write(randomBytes(1000), () => res.destroy());
    };
    const error = await failure(open({ url: `${hostile.origin}/cut`, cipher }));
    expect(error.message).toMatch(/stopped before the end/);
    expect(sinkEnd).toBe('aborted');
  });

  it('a server that falls silent is given up on', async () => {
    routes['/silent'] = (res) => {
      res.writeHead(200, { 'Content-Length': '100000' });
      res.write(randomBytes(1000));
    };
    const error = await failure(open({ url: `${hostile.origin}/silent` }, 300));
    expect(error.message).toMatch(/stopped sending the file/);
    expect(sinkEnd).toBe('aborted');
  });

  it('an HTML file that is not a download page is the file itself', async () => {
    const html = '<!doctype html><p>my notes</p>';
    routes['/notes.html'] = (res) =>
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': html.length }).end(html);
    const opened = await open({ url: `${hostile.origin}/notes.html`, cipher });
    expect(opened.size).toBe(html.length);
    expect(opened.contentType).toBe('text/html');
    expect(hostile.fetched.filter((r) => r.startsWith('POST'))).toEqual([]);
  });
});
