// One upload's cipher (lib/crypto/file-cipher.ts): in the authenticated format it carries its salt, so
// that the same file sealed again gives the same bytes (an upload resumed after a reload sends only
// the parts the server does not hold, and they must fit the ones it does); another cipher gives others.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eceDecryptBytes } from '../../lib/crypto';
import { newFileCipher, sealedStream } from '../../lib/crypto/file-cipher';

async function sealed(file: Blob, cipher: ReturnType<typeof newFileCipher>): Promise<Buffer> {
  return Buffer.from(await new Response(await sealedStream(file, cipher)).arrayBuffer());
}

describe('newFileCipher', () => {
  it('seals one file to the same bytes each time with one cipher, to other bytes with another, and opens', async () => {
    const plain = new Uint8Array(randomBytes(200_000));
    const file = new Blob([plain]);
    const cipher = newFileCipher('ece');
    const first = await sealed(file, cipher);
    expect((await sealed(file, cipher)).equals(first)).toBe(true);
    expect((await sealed(file, newFileCipher('ece'))).equals(first)).toBe(false);
    if (cipher.format !== 'ece') throw new Error('not ece');
    const opened = await eceDecryptBytes(new Uint8Array(first), cipher.secret);
    expect(Buffer.from(opened).equals(Buffer.from(plain))).toBe(true);
  });

  it('draws a salt of its own for each cipher, apart from its secret', () => {
    const a = newFileCipher('ece');
    const b = newFileCipher('ece');
    if (a.format !== 'ece' || b.format !== 'ece') throw new Error('not ece');
    expect(a.salt).toHaveLength(16);
    expect(Buffer.from(a.salt).equals(Buffer.from(b.salt))).toBe(false);
    expect(Buffer.from(a.salt).equals(Buffer.from(a.secret))).toBe(false);
  });
});
