// Shared by the reference server's tests: a server on a free port in a temp dir, and upload shortcuts.

import { createDecipheriv } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { type ReferenceServer, type ServerOptions, startServer } from './server';

export interface TestServer {
  server: ReferenceServer;
  dataDir: string;
  stop(): Promise<void>;
}

export async function startTestServer(opts: Partial<ServerOptions> = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'hushdrop-ref-'));
  // A server that refuses to start (its settings, a busy port) leaves no folder behind.
  const server = await startServer({ dataDir, ...opts }).catch(async (err: unknown) => {
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  });
  return {
    server,
    dataDir,
    async stop() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts test servers that are stopped (their folders removed) after the test that started them. */
export function serversStoppedAfterEach(): (opts?: Partial<ServerOptions>) => Promise<TestServer> {
  const started: TestServer[] = [];
  afterEach(async () => {
    for (const server of started.splice(0)) await server.stop();
  });
  return async (opts) => {
    const server = await startTestServer(opts);
    started.push(server);
    return server;
  };
}

export interface FilePart {
  bytes: Uint8Array<ArrayBuffer> | Blob;
  name?: string;
  type?: string;
}

/** A multipart form with the fields in the given order; `file` is appended where its key appears. */
export function form(entries: Record<string, string | FilePart>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) {
    if (typeof value === 'string') data.append(name, value);
    else {
      const blob =
        value.bytes instanceof Blob
          ? value.bytes
          : new Blob([value.bytes], value.type ? { type: value.type } : {});
      data.append(name, blob, value.name ?? 'file.bin');
    }
  }
  return data;
}

/**
 * A client-mode upload's form as Hushdrop sends it (Teknik format): `plain` encrypted here with `key` and
 * `iv`, the IV sent, no key, `fields` on top.
 */
export function clientModeForm(
  plain: Uint8Array,
  key: string,
  iv: string,
  name: string,
  fields: Record<string, string> = {},
): FormData {
  return form({
    encrypt: 'false',
    saveKey: 'false',
    iv,
    keySize: '256',
    blockSize: '128',
    contentType: 'image/png',
    ...fields,
    file: { bytes: teknikCtr(key, iv, plain), name },
  });
}

export interface UploadAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export async function post(
  url: string,
  body: FormData | Uint8Array<ArrayBuffer>,
  headers: Record<string, string> = {},
) {
  return answerOf(await fetch(url, { method: 'POST', body, headers }));
}

/** A response read whole: its status, headers, text, and JSON when it is JSON. */
export async function answerOf(res: Response): Promise<UploadAnswer> {
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json } satisfies UploadAnswer;
}

export const legacyUploadUrl = (s: ReferenceServer) => `${s.baseUrl}/v1/Upload?sub=api`;
export const currentUploadUrl = (s: ReferenceServer) => `${s.apiUrl}/v1/Upload`;

export async function getBytes(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** Teknik's cipher done independently of the server's code: AES-CTR over the UTF-8 key and IV text. */
export function teknikCtr(key: string, iv: string, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const keyBytes = Buffer.from(key, 'utf8');
  const algorithm = `aes-${keyBytes.length * 8}-ctr`;
  const decipher = createDecipheriv(algorithm, keyBytes, Buffer.from(iv, 'utf8'));
  return new Uint8Array(Buffer.concat([decipher.update(data), decipher.final()]));
}

export function bytesOf(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text);
}

export function randomBytesOf(length: number, seed = 1): Uint8Array<ArrayBuffer> {
  // Deterministic filler (xorshift) so failures reproduce.
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/**
 * What the server's store holds for uploads, whichever store it is: the ids of finished blobs, and one
 * `(being written)` for each write still in progress (a `.part` file, an open multipart upload).
 */
export async function storedFiles(server: ReferenceServer): Promise<string[]> {
  const { blobs, inProgress } = await server.storedBlobs();
  return [...blobs, ...Array.from({ length: inProgress }, () => '(being written)')];
}

/**
 * Bytes of an upload the store takes in before a write in progress shows in it: none on disk (the `.part`
 * file is there at once); on S3 a whole part, since the multipart upload is opened only once its first
 * part is full and more bytes follow. A test that waits to see a write begin sends this much more.
 */
export function heldBeforeStoring(server: ReferenceServer): number {
  return server.hushdrop.settings.s3?.partSize ?? 0;
}
