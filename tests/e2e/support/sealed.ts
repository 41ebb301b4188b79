// A file in the authenticated format, sealed in Node by lib/crypto and uploaded as the extension's
// client mode uploads it (encrypt=false, saveKey=false, linkFormat=ece1), and a byte of it changed
// where the server keeps it: what a recipient's browser must refuse.
import { randomBytes } from 'node:crypto';
import { eceEncryptBytes } from '../../../lib/crypto/ece-stream';
import { makeEceLink } from '../../../lib/crypto/link';
import type { ReferenceServer } from '../../testkit/server';

export interface Sealed {
  link: string;
  original: Buffer;
  name: string;
  fileName: string;
}

export async function uploadSealed(server: ReferenceServer, name: string, size: number): Promise<Sealed> {
  const original = randomBytes(size);
  const secret = new Uint8Array(randomBytes(16));
  const sealed = await eceEncryptBytes(new Uint8Array(original), secret);
  const body = new FormData();
  for (const [k, v] of Object.entries({ encrypt: 'false', saveKey: 'false', linkFormat: 'ece1' }))
    body.append(k, v);
  body.append('contentType', 'application/pdf');
  body.append('file', new Blob([sealed]), name);
  const res = await fetch(`${server.apiUrl}/v1/Upload`, { method: 'POST', body });
  const { result } = (await res.json()) as { result: { url: string; fileName: string } };
  return { link: makeEceLink(result.url, secret), original, name, fileName: result.fileName };
}

/** Flips one bit of the stored bytes at `offset`, through the server's store. */
export async function changeStoredByte(
  server: ReferenceServer,
  fileName: string,
  offset: number,
): Promise<void> {
  const stored = (await server.stored(fileName))!;
  const bytes = await stored.bytes();
  bytes[offset]! ^= 1;
  await stored.replaceBytes(bytes);
}
