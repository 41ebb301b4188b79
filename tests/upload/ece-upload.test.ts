// An upload in the authenticated format, against the reference server over real HTTP: what goes on
// the wire (the format named, no secret, no plaintext), what is stored (exactly storedSize bytes that
// Node's OpenSSL opens), and what a holder of the link gets back, or is refused once the stored
// bytes have been changed.

import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedBytes } from '../../devkit/stored-bytes';
import {
  eceDecryptBytes,
  eceEncryptStream,
  LinkIntegrityError,
  parseShareLink,
  randomSecret,
} from '../../lib/crypto';
import {
  fetchTransport,
  sendUpload,
  shareLink,
  storedSize,
  type UploadTarget,
  type Variant,
} from '../../lib/upload';
import { nodeEceDecrypt } from '../crypto/ece-node';
import { findInRecorded, type ReferenceServer, startServer } from '../server/server';

let server: ReferenceServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hushdrop-ece-upload-'));
  server = await startServer({ dataDir, port: 0, record: true });
});

afterAll(async () => {
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const target = (variant: Variant): UploadTarget => ({
  variant,
  addresses: { baseUrl: server.baseUrl, apiUrl: server.apiUrl, uploadUrl: server.uploadUrl },
});

const FILE = { name: 'minutes.pdf', type: 'application/pdf' };

async function uploadEce(variant: Variant, plain: Uint8Array<ArrayBuffer>) {
  const secret = randomSecret();
  const body = await new Response(eceEncryptStream(new Blob([plain]).stream(), secret)).blob();
  const options = { mode: 'client' as const, format: 'ece' as const, saveKey: false, genDeletionKey: true };
  const result = await sendUpload({
    target: target(variant),
    options,
    file: FILE,
    body,
    transport: fetchTransport(),
  });
  return { secret, result, size: storedSize(options, plain.length), request: server.requests.at(-1)! };
}

/** The form fields of a recorded multipart body, by name (the file part left out). */
async function fieldsOf(bodyPath: string): Promise<Map<string, string>> {
  const body = await readFile(bodyPath, 'latin1');
  const fields = new Map<string, string>();
  for (const m of body.matchAll(/Content-Disposition: form-data; name="([^"]+)"\r\n\r\n([^\r]*)\r\n/g))
    fields.set(m[1]!, m[2]!);
  return fields;
}

describe.each(['legacy', 'current'] as const)('%s variant', (variant) => {
  it('sends the format, the name and the type, and never the secret or the plaintext', async () => {
    const plain = new Uint8Array(randomBytes(150_000));
    const { secret, result, request } = await uploadEce(variant, plain);
    const fields = await fieldsOf(request.bodyPath);
    expect(Object.fromEntries(fields)).toMatchObject({
      contentType: 'application/pdf',
      encrypt: 'false',
      saveKey: 'false',
      linkFormat: 'ece1',
    });
    for (const absent of ['iv', 'key', 'keySize', 'blockSize'])
      expect(fields.has(absent), absent).toBe(false);
    expect((await readFile(request.bodyPath, 'latin1')).includes('filename="minutes.pdf"')).toBe(true);

    const bytes = Buffer.from(secret);
    for (const form of [
      bytes,
      ...['hex', 'base64', 'base64url'].map((e) => Buffer.from(bytes.toString(e as 'hex'))),
    ])
      expect(findInRecorded(server, form), String(form)).toEqual([]);
    expect(findInRecorded(server, plain.subarray(70_000, 70_064))).toEqual([]);
    // The search works: the stored ciphertext's own bytes are found in the request.
    const stored = await (await server.stored(result.fileName))!.bytes();
    expect(findInRecorded(server, stored.subarray(30_000, 30_064)).length).toBeGreaterThan(0);
  });

  it('stores exactly storedSize bytes, which OpenSSL opens, and the link opens them again', async () => {
    const plain = new Uint8Array(randomBytes(200_001));
    const { secret, result, size } = await uploadEce(variant, plain);
    expect(result.contentLength).toBe(size);
    expect(size).toBe(plain.length + 21 + 4 * 17);
    const stored = await (await server.stored(result.fileName))!.bytes();
    expect(stored.length).toBe(size);
    expect(nodeEceDecrypt(secret, stored).equals(plain)).toBe(true);

    const link = parseShareLink(shareLink(result, secret));
    expect(link).toEqual({ format: 'ece', url: result.url, secret });
    const got = (await storedBytes(link.url)).bytes;
    expect(Buffer.from(await eceDecryptBytes(got, secret)).equals(plain)).toBe(true);
  });

  it('a byte changed on the server’s disk is refused when the link is opened', async () => {
    const plain = new Uint8Array(randomBytes(100_000));
    const { secret, result } = await uploadEce(variant, plain);
    const stored = (await server.stored(result.fileName))!;
    const bytes = await stored.bytes();
    bytes[bytes.length - 100]! ^= 0x20;
    await stored.replaceBytes(bytes);
    const got = (await storedBytes(result.url)).bytes;
    const error = await eceDecryptBytes(got, secret).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LinkIntegrityError);
    expect(error).toMatchObject({ problem: 'changed', record: 1 });
  });
});
