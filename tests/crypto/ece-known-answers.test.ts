// The authenticated format against RFC 8188's own examples and against an implementation written
// separately with Node's OpenSSL (ece-node.ts): each encrypts what the other decrypts.
import { hkdfSync, randomBytes } from 'node:crypto';
import { base64urlnopad } from '@scure/base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ECE_RECORD_BYTES,
  ECE_RECORD_OVERHEAD,
  eceCiphertextSize,
  eceDecryptBytes,
  eceEncryptBytes,
  LinkIntegrityError,
  makeEceLink,
  randomSecret,
} from '../../lib/crypto';
import { nodeEceDecrypt, nodeEceEncrypt } from './ece-node';

const b64 = (text: string) => Uint8Array.from(base64urlnopad.decode(text));
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const walrus = new TextEncoder().encode('I am the walrus');
const PER_RECORD = ECE_RECORD_BYTES - ECE_RECORD_OVERHEAD;

describe('RFC 8188 §3', () => {
  const ikm = b64('yqdlZ-tYemfogSmv7Ws5PQ');
  const salt = b64('I1BsxtFttlv3u_Oo94xnmw');
  const expected = 'I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg';

  it('§3.1: encrypts "I am the walrus" to the RFC’s bytes (rs 4096) and back', async () => {
    const sealed = await eceEncryptBytes(walrus, ikm, { salt, recordSize: 4096 });
    expect(base64urlnopad.encode(sealed)).toBe(expected);
    expect(text(await eceDecryptBytes(sealed, ikm, { recordSize: 4096 }))).toBe('I am the walrus');
    // The independent implementation agrees with the RFC too, so it can be trusted as a judge below.
    expect(base64urlnopad.encode(nodeEceEncrypt(ikm, salt, walrus, { rs: 4096 }))).toBe(expected);
  });

  it('§3.2: opens the RFC’s padded multi-record example (rs 25, key id "a1")', async () => {
    const sealed = b64(
      'uNCkWiNYzKTnBN9ji3-qWAAAABkCYTHOG8chz_gnvgOqdGYovxyjuqRyJFjEDyoF1Fvkj6hQPdPHI51OEUKEpgz3SsLWIqS_uA',
    );
    const key = b64('BO3ZVPxUlnLORbVGMpbT1Q');
    const layout = { recordSize: 25, keyId: new TextEncoder().encode('a1') };
    expect(text(await eceDecryptBytes(sealed, key, layout))).toBe('I am the walrus');
    expect(text(nodeEceDecrypt(key, sealed))).toBe('I am the walrus');
    // Hushdrop reads only the header it writes: rs 65536, no key id.
    await expect(eceDecryptBytes(sealed, key)).rejects.toMatchObject({ problem: 'header' });
  });
});

describe('the README’s worked example', () => {
  it('gives the bytes and the link the README shows', async () => {
    const secret = Uint8Array.from({ length: 16 }, (_, i) => i);
    const salt = Uint8Array.from({ length: 16 }, (_, i) => 0xa0 + i);
    const sealed = await eceEncryptBytes(new TextEncoder().encode('Hello, Hushdrop!'), secret, { salt });
    expect(Buffer.from(sealed).toString('hex')).toBe(
      'a0a1a2a3a4a5a6a7a8a9aaabacadaeaf' +
        '00010000' +
        '00' +
        'a4b52c0fd0d5ceefb41dc39670b7e903' +
        '17' +
        '293dc02fd89f63e86f5c7073c5c923b5',
    );
    expect(makeEceLink('https://files.example/aB3dE.txt', secret)).toBe(
      'https://files.example/aB3dE.txt#ece1.AAECAwQFBgcICQoLDA0ODw',
    );
    // The intermediate values the README gives for a reader checking by hand.
    const hkdf = (info: string, length: number) =>
      Buffer.from(hkdfSync('sha256', secret, salt, `Content-Encoding: ${info}\0`, length)).toString('hex');
    expect(hkdf('aes128gcm', 16)).toBe('73024d651d55a2e232dfda0869d59cf3');
    expect(hkdf('nonce', 12)).toBe('459485c3adf9f2450ad9e76e');
  });
});

describe('against Node’s OpenSSL', () => {
  // Sizes around the record boundary (65,519 bytes of plaintext per record) and the empty file.
  const sizes = [
    0,
    1,
    100,
    PER_RECORD - 1,
    PER_RECORD,
    PER_RECORD + 1,
    2 * PER_RECORD,
    2 * PER_RECORD + 7,
    300_001,
  ];

  it.each(sizes)('what Hushdrop encrypts, OpenSSL decrypts (%i bytes)', async (size) => {
    const plain = new Uint8Array(randomBytes(size));
    const secret = randomSecret();
    const sealed = await eceEncryptBytes(plain, secret);
    expect(sealed.length).toBe(eceCiphertextSize(size));
    expect(nodeEceDecrypt(secret, sealed).equals(plain)).toBe(true);
  });

  it.each(sizes)('what OpenSSL encrypts, Hushdrop decrypts (%i bytes)', async (size) => {
    const plain = new Uint8Array(randomBytes(size));
    const secret = randomSecret();
    const sealed = nodeEceEncrypt(secret, randomBytes(16), plain);
    expect(Buffer.from(await eceDecryptBytes(new Uint8Array(sealed), secret)).equals(plain)).toBe(true);
  });

  it('the same bytes for the same secret and salt, any size and record size (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 2000 }),
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.integer({ min: 18, max: 600 }),
        async (plain, secret, salt, recordSize) => {
          const ours = await eceEncryptBytes(plain as Uint8Array<ArrayBuffer>, secret, { salt, recordSize });
          expect(Buffer.from(ours).equals(nodeEceEncrypt(secret, salt, plain, { rs: recordSize }))).toBe(
            true,
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a file OpenSSL sealed with another secret is refused, as the wrong link', async () => {
    const sealed = nodeEceEncrypt(randomSecret(), randomBytes(16), walrus);
    const error = await eceDecryptBytes(new Uint8Array(sealed), randomSecret()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LinkIntegrityError);
    expect(error).toMatchObject({ problem: 'wrong-link', record: 0 });
    expect((error as Error).message).toMatch(/not the one made for this file/);
  });
});
