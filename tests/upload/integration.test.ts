// lib/upload against the reference server (tests/server), over real HTTP with fetchTransport.
import { createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedBytes } from '../../devkit/stored-bytes';
import { deriveIv, encryptBlob, parseLink, randomKey } from '../../lib/crypto';
import {
  deletionLink,
  fetchTransport,
  type Mode,
  sendUpload,
  shareLink,
  UploadError,
  type UploadErrorKind,
  type UploadOptions,
  type UploadResult,
  type UploadTarget,
  type Variant,
} from '../../lib/upload';
import { type Fault, findInRecorded, type ReferenceServer, startServer } from '../server/server';

const ACCOUNT = { username: 'jörg', token: 'tøken' };
const NOW = Date.parse('2030-01-15T12:00:00Z');
const MAX_UPLOAD = 256 * 1024;

let server: ReferenceServer;
let dataDir: string;
const clientKeys: string[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hushdrop-upload-it-'));
  server = await startServer({
    dataDir,
    port: 0,
    maxUploadBytes: MAX_UPLOAD,
    accounts: [ACCOUNT],
    record: true,
    now: () => NOW,
    dripIntervalMs: 1,
  });
});

afterAll(async () => {
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function target(variant: Variant, credentials?: { username: string; token: string }): UploadTarget {
  const { baseUrl, apiUrl, uploadUrl } = server;
  return { variant, addresses: { baseUrl, apiUrl, uploadUrl }, ...(credentials ? { credentials } : {}) };
}

const options = (mode: Mode, more: Partial<UploadOptions> = {}): UploadOptions => ({
  mode,
  saveKey: true,
  genDeletionKey: false,
  ...more,
});

/** AES-256-CTR decryption by Node's OpenSSL, independent of lib/crypto. */
function nodeDecrypt(key: string, iv: string, data: Uint8Array): Buffer {
  const decipher = createDecipheriv('aes-256-ctr', Buffer.from(key, 'utf8'), Buffer.from(iv, 'utf8'));
  return Buffer.concat([decipher.update(data), decipher.final()]);
}

/** Encrypts like the extension does: chunk by chunk, with the key-derived IV. */
async function clientEncrypt(plain: Uint8Array<ArrayBuffer>) {
  const key = randomKey();
  const iv = deriveIv(key);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  await encryptBlob(new Blob([plain]), { key, iv }, (chunk) => void chunks.push(Uint8Array.from(chunk)), {
    chunkSize: 10_007,
  });
  clientKeys.push(key);
  return { key, iv, body: new Blob(chunks) };
}

/** The stored bytes behind a link, as a program gets them (through the recipient page when it opens one). */
async function download(url: string): Promise<{ status: number; bytes: Buffer }> {
  const { status, bytes } = await storedBytes(url);
  return { status, bytes: Buffer.from(bytes) };
}

const plainFile = () => new Uint8Array(randomBytes(70_000 + Math.floor(Math.random() * 1000)));
const FILE = { name: 'notes.tar.gz', type: 'application/gzip' };

interface Uploaded {
  result: UploadResult;
  plain: Uint8Array<ArrayBuffer>;
  key?: string;
  iv?: string;
}

async function upload(
  variant: Variant,
  mode: Mode,
  more: Partial<UploadOptions> = {},
  credentials?: { username: string; token: string },
): Promise<Uploaded> {
  const plain = plainFile();
  if (mode === 'client') {
    const { key, iv, body } = await clientEncrypt(plain);
    const result = await sendUpload({
      target: target(variant, credentials),
      options: options(mode, more),
      file: FILE,
      body,
      iv,
      transport: fetchTransport(),
    });
    return { result, plain, key, iv };
  }
  const result = await sendUpload({
    target: target(variant, credentials),
    options: options(mode, more),
    file: FILE,
    body: new Blob([plain], { type: FILE.type }),
    transport: fetchTransport(),
  });
  return { result, plain };
}

async function failureKind(promise: Promise<unknown>): Promise<UploadError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UploadError);
  return error as UploadError;
}

describe.each(['legacy', 'current'] as const)('%s variant', (variant) => {
  const fileUrl = (name: string) =>
    variant === 'legacy' ? `${server.baseUrl}/${name}?sub=u` : `${server.uploadUrl}/${name}`;

  it('client mode: the server stores ciphertext that decrypts with the link’s key', async () => {
    const { result, plain, key, iv } = await upload(variant, 'client');
    expect(result.url).toBe(fileUrl(result.fileName));
    expect(result.fileName).toMatch(/\.tar\.gz$/);
    expect(result.contentType).toBe('application/gzip');
    expect(result.contentLength).toBe(plain.length);
    expect(result.iv).toBe(iv);
    expect(result.key).toBeUndefined();
    expect(result.keySize).toBe(256);
    expect(result.blockSize).toBe(128);

    const stored = (await server.stored(result.fileName))!;
    expect(stored).toMatchObject({
      key: null,
      iv,
      saved: false,
      encrypted: false,
      originalName: 'notes.tar.gz',
    });
    const onDisk = await stored.bytes();
    expect(onDisk.equals(Buffer.from(plain))).toBe(false);
    expect(nodeDecrypt(key!, iv!, onDisk).equals(Buffer.from(plain))).toBe(true);

    // What a holder of the link gets: the ciphertext, and the key in the fragment.
    const link = shareLink(result, key);
    const parsed = parseLink(link);
    expect(parsed.key).toBe(key);
    const got = await download(parsed.url);
    expect(got.status).toBe(200);
    expect(nodeDecrypt(parsed.key, deriveIv(parsed.key), got.bytes).equals(Buffer.from(plain))).toBe(true);
  });

  it('server mode with saveKey: the download is the original', async () => {
    const { result, plain } = await upload(variant, 'server', { saveKey: true });
    expect(result.url).not.toContain('#');
    expect(result.key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(result.iv).toMatch(/^[A-Za-z0-9]{16}$/);
    const stored = (await server.stored(result.fileName))!;
    expect(stored).toMatchObject({ saved: true, encrypted: true });
    expect(nodeDecrypt(result.key!, result.iv!, await stored.bytes()).equals(Buffer.from(plain))).toBe(true);
    expect(shareLink(result)).toBe(result.url);
    const got = await download(result.url);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(Buffer.from(plain))).toBe(true);
  });

  it('server mode without saveKey: url#key, and the download decrypts with that key', async () => {
    const { result, plain } = await upload(variant, 'server', { saveKey: false });
    const link = shareLink(result);
    const { url, key } = parseLink(link);
    expect(key).toBe(result.key);
    expect(await server.stored(result.fileName)).toMatchObject({ key: null, saved: false, iv: result.iv });
    const got = await download(url);
    expect(got.bytes.equals(Buffer.from(plain))).toBe(false);
    expect(nodeDecrypt(key, result.iv!, got.bytes).equals(Buffer.from(plain))).toBe(true);
  });

  it('none mode: stored and served as sent', async () => {
    const { result, plain } = await upload(variant, 'none');
    expect(result.key).toBeUndefined();
    expect(result.iv).toBeUndefined();
    const stored = (await server.stored(result.fileName))!;
    expect(stored).toMatchObject({ key: null, iv: null, encrypted: false });
    expect((await stored.bytes()).equals(Buffer.from(plain))).toBe(true);
    expect((await download(result.url)).bytes.equals(Buffer.from(plain))).toBe(true);
  });

  for (const mode of ['client', 'server', 'none'] as const) {
    it(`${mode} mode: a deletion link when asked, which deletes the file`, async () => {
      const { result } = await upload(variant, mode, { genDeletionKey: true });
      expect(result.deletionKey).toMatch(/^[A-Za-z0-9]{24}$/);
      const link = deletionLink(target(variant), result)!;
      const expected =
        variant === 'legacy'
          ? `${server.baseUrl}/${result.fileName}/${result.deletionKey}?sub=u`
          : `${server.uploadUrl}/${result.fileName}/${result.deletionKey}`;
      expect(link).toBe(expected);
      expect((await download(result.url)).status).toBe(200);
      const answer = await fetch(link);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toMatch(/has been Deleted/);
      expect(await server.stored(result.fileName)).toBeUndefined();
      expect((await download(result.url)).status).toBe(404);
    });

    it(`${mode} mode: no deletion link unless asked`, async () => {
      const { result } = await upload(variant, mode, { genDeletionKey: false });
      expect(result).not.toHaveProperty('deletionKey');
      expect(deletionLink(target(variant), result)).toBeUndefined();
      expect((await server.stored(result.fileName))!.deletionKey).toBe('');
    });
  }
});

describe('legacy expiry', () => {
  it('views: maxDownloads in the answer, and the file goes after that many downloads', async () => {
    const { result } = await upload('legacy', 'none', { expireUnit: 'view', expireLength: 2 });
    expect(result.maxDownloads).toBe(2);
    expect(result).not.toHaveProperty('expirationDate');
    expect((await download(result.url)).status).toBe(200);
    expect((await download(result.url)).status).toBe(200);
    expect((await download(result.url)).status).toBe(404);
  });

  it('hours: an expiration date that many hours from now', async () => {
    const { result } = await upload('legacy', 'client', { expireUnit: 'hour', expireLength: 5 });
    expect(result.maxDownloads).toBe(0);
    expect(Date.parse(result.expirationDate!)).toBe(NOW + 5 * 3_600_000);
    expect((await server.stored(result.fileName))!.expirationDate).toBe(result.expirationDate);
  });

  it('never: neither limit', async () => {
    const { result } = await upload('legacy', 'server', { expireUnit: 'never' });
    expect(result.maxDownloads).toBe(0);
    expect(result).not.toHaveProperty('expirationDate');
  });

  it('the current variant sends no expiry and answers none', async () => {
    const { result } = await upload('current', 'none', { expireUnit: 'view', expireLength: 1 });
    expect(result).not.toHaveProperty('maxDownloads');
    expect((await server.stored(result.fileName))!.maxDownloads).toBe(0);
    expect((await download(result.url)).status).toBe(200);
    expect((await download(result.url)).status).toBe(200);
  });
});

describe('current variant: account and tracking', () => {
  it('the right username and token (UTF-8) associate the upload with the account', async () => {
    const { result } = await upload('current', 'client', {}, ACCOUNT);
    expect((await server.stored(result.fileName))!.username).toBe('jörg');
  });

  it('no credentials: an anonymous upload', async () => {
    const { result } = await upload('current', 'none');
    expect((await server.stored(result.fileName))!.username).toBeUndefined();
  });

  it('wrong credentials: unauthorized, pointing at username and token', async () => {
    for (const wrong of [
      { username: 'jörg', token: 'wrong' },
      { username: 'joerg', token: 'tøken' },
    ]) {
      const error = await failureKind(upload('current', 'client', {}, wrong));
      expect(error.kind).toBe('unauthorized');
      expect(error.status).toBe(401);
      expect(error.message).toMatch(/username and token/);
    }
  });

  it('doNotTrack sends both the field and the DNT header', async () => {
    const tracked = await upload('current', 'none', { doNotTrack: false });
    expect(await server.stored(tracked.result.fileName)).toMatchObject({
      doNotTrack: false,
      dntHeader: false,
    });
    const untracked = await upload('current', 'none', { doNotTrack: true });
    expect(await server.stored(untracked.result.fileName)).toMatchObject({
      doNotTrack: true,
      dntHeader: true,
    });
  });

  it('doNotTrack sends the DNT header in the legacy variant too (it has no such field)', async () => {
    const tracked = await upload('legacy', 'none', { doNotTrack: false });
    expect(await server.stored(tracked.result.fileName)).toMatchObject({ dntHeader: false });
    const untracked = await upload('legacy', 'none', { doNotTrack: true });
    expect(await server.stored(untracked.result.fileName)).toMatchObject({
      doNotTrack: false,
      dntHeader: true,
    });
  });
});

describe('client mode keeps the key off the wire', () => {
  it('no request ever carried a key: not as text, hex or base64', async () => {
    // Make sure both variants' client uploads are among the recorded requests.
    const mine = [await upload('legacy', 'client'), await upload('current', 'client', {}, ACCOUNT)];
    expect(clientKeys.length).toBeGreaterThanOrEqual(2);
    const encodings = (key: string) => {
      const bytes = Buffer.from(key, 'utf8');
      return [
        key,
        bytes.toString('hex'),
        bytes.toString('hex').toUpperCase(),
        bytes.toString('base64'),
        bytes.toString('base64url'),
      ];
    };
    for (const key of clientKeys) {
      for (const form of encodings(key)) {
        expect(findInRecorded(server, Buffer.from(form, 'utf8')), form).toEqual([]);
      }
      expect(findInRecorded(server, Buffer.from(key, 'utf8'))).toEqual([]);
    }
    // The search itself works: the IV, which is sent, is found, and the plaintext is not.
    for (const { iv, plain } of mine) {
      expect(findInRecorded(server, Buffer.from(iv!, 'utf8')).length).toBeGreaterThan(0);
      expect(findInRecorded(server, plain.subarray(1000, 1064))).toEqual([]);
    }
  });
});

describe('on the wire', () => {
  /** Part names of the last recorded request body, in the order they arrived. */
  async function partNames(): Promise<string[]> {
    const body = await readFile(server.requests.at(-1)!.bodyPath, 'latin1');
    return [...body.matchAll(/Content-Disposition: form-data; name="([^"]+)"/g)].map((m) => m[1]!);
  }

  it('legacy client mode sends exactly its fields, the file part last', async () => {
    await upload('legacy', 'client', { genDeletionKey: true, expireUnit: 'day', expireLength: 2 });
    expect(server.requests.at(-1)!.url).toBe('/v1/Upload?sub=api');
    expect(await partNames()).toEqual([
      'contentType',
      'encrypt',
      'saveKey',
      'keySize',
      'iv',
      'blockSize',
      'genDeletionKey',
      'expireUnit',
      'expireLength',
      'expirationUnit',
      'expirationLength',
      'file',
    ]);
    expect(server.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('current client mode sends exactly its fields, the file part last, and the auth header', async () => {
    await upload('current', 'client', { doNotTrack: true }, ACCOUNT);
    const request = server.requests.at(-1)!;
    expect(request.url).toBe('/api/v1/Upload');
    expect(await partNames()).toEqual([
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
    expect(request.headers.authorization).toBe('Basic asO2cmc6dMO4a2Vu');
    expect(request.headers.dnt).toBe('1');
  });
});

describe('failures map to one error kind each', () => {
  const cases: Array<[Fault, UploadErrorKind]> = [
    ['close-mid-upload', 'network'],
    ['html-500', 'http'],
    ['error-200', 'rejected'],
    ['too-large-413', 'too-large'],
    ['malformed-json', 'bad-response'],
  ];
  for (const variant of ['legacy', 'current'] as const) {
    for (const [fault, kind] of cases) {
      it(`${variant}: ${fault} → ${kind}`, async () => {
        server.setFault(fault, { once: true });
        const error = await failureKind(upload(variant, 'client'));
        expect(error.kind).toBe(kind);
        expect(error.message).toMatch(/^[A-Z].*[.…]$/);
        if (fault === 'error-200') {
          expect(error.serverMessage).toBe('Uploads are Disabled');
          expect(error.message).toBe('The server refused the upload: Uploads are Disabled.');
        }
        if (fault === 'html-500') {
          expect(error.status).toBe(500);
          expect(error.serverMessage).toBeUndefined();
        }
        if (fault === 'too-large-413') expect(error.serverMessage).toMatch(/File Too Large/);
      });
    }
  }

  it('stall → timeout', async () => {
    server.setFault('stall', { once: true });
    const error = await failureKind(
      sendUpload({
        target: target('current'),
        options: options('none'),
        file: FILE,
        body: new Blob([plainFile()]),
        transport: fetchTransport(),
        timeoutMs: 300,
      }),
    );
    expect(error.kind).toBe('timeout');
  });

  it('stall, then the person cancels → aborted', async () => {
    server.setFault('stall', { once: true });
    const controller = new AbortController();
    const pending = sendUpload({
      target: target('legacy'),
      options: options('none'),
      file: FILE,
      body: new Blob([plainFile()]),
      transport: fetchTransport(),
      signal: controller.signal,
    });
    // Cancel once the server has the whole body and is stalling.
    while (!server.requests.at(-1) || server.requests.at(-1)!.bodyBytes < 70_000) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    controller.abort();
    expect((await failureKind(pending)).kind).toBe('aborted');
  });

  it('drip (a correct answer, written slowly) → success', async () => {
    server.setFault('drip', { once: true });
    const { result, plain } = await upload('current', 'none');
    expect((await download(result.url)).bytes.equals(Buffer.from(plain))).toBe(true);
  });

  it('a file over the server’s own limit → too-large, with the limit in the server’s words', async () => {
    const error = await failureKind(
      sendUpload({
        target: target('current'),
        options: options('none'),
        file: FILE,
        body: new Blob([new Uint8Array(MAX_UPLOAD + 100_000)]),
        transport: fetchTransport(),
      }),
    );
    expect(error.kind).toBe('too-large');
    expect(error.status).toBe(413);
    expect(error.serverMessage).toMatch(/File Too Large/);
  });

  it('nothing listening → network', async () => {
    const closed = await startServer({ dataDir: join(dataDir, 'closed'), port: 0 });
    const { baseUrl, apiUrl, uploadUrl } = closed;
    await closed.close();
    const error = await failureKind(
      sendUpload({
        target: { variant: 'current', addresses: { baseUrl, apiUrl, uploadUrl } },
        options: options('none'),
        file: FILE,
        body: new Blob(['x']),
        transport: fetchTransport(),
      }),
    );
    expect(error.kind).toBe('network');
  });

  it('after a fault, uploads work again', async () => {
    const { result } = await upload('current', 'client');
    expect(result.fileName).toBeTruthy();
  });
});
