// Known answers from notes/teknik.md §14 (OpenSSL, Python, Teknik's CryptoJS worker all agree).
import CryptoJS from 'crypto-js';
import { describe, expect, it } from 'vitest';
import { counterBlock, createCipher, encryptBytes, textBytes } from '../../lib/crypto';

const KEY = 'abcdefghijklmnopqrstuvwxyzABCDEF';
const IV = '0123456789ABCDEF';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const ascii = (text: string) => new TextEncoder().encode(text);

describe('Teknik known answers', () => {
  it('uses the UTF-8 bytes of the key text as the AES-256 key', () => {
    expect(hex(textBytes(KEY))).toBe('6162636465666768696a6b6c6d6e6f707172737475767778797a414243444546');
  });

  it('uses the IV bytes as counter block 0, plus one per block', () => {
    const iv = textBytes(IV);
    expect(hex(counterBlock(iv, 0))).toBe('30313233343536373839414243444546');
    expect(hex(counterBlock(iv, 1))).toBe('30313233343536373839414243444547');
    expect(hex(counterBlock(iv, 2))).toBe('30313233343536373839414243444548');
  });

  it('gives keystream blocks 0, 1 and 2', async () => {
    const keystream = await encryptBytes(KEY, IV, new Uint8Array(48));
    expect(hex(keystream.subarray(0, 16))).toBe('81ca094f700e05d5ce0947d35ec60c98');
    expect(hex(keystream.subarray(16, 32))).toBe('b5fa3d73d71841628926252c60ace269');
    expect(hex(keystream.subarray(32, 48))).toBe('b29b9bf15db12e30e83802d42fe74b7a');
  });

  it('encrypts "Hello, Teknik!" to 14 bytes with no padding', async () => {
    const out = await encryptBytes(KEY, IV, ascii('Hello, Teknik!'));
    expect(hex(out)).toBe('c9af65231f222581ab6229ba35e7');
  });

  it('encrypts the bytes 0x00..0x27', async () => {
    const plain = Uint8Array.from({ length: 40 }, (_, i) => i);
    expect(hex(await encryptBytes(KEY, IV, plain))).toBe(
      '81cb0b4c740b03d2c6004dd852cb0297a5eb2f60c30d5775913f3f377cb1fc7692bab9d279940817',
    );
  });

  it('uses AES-128 for a 16-character key', async () => {
    const out = await encryptBytes('abcdefghijklmnop', IV, ascii('Hello, Teknik!'));
    expect(hex(out)).toBe('b3c402fb2c0b13716ef5a5aa2a44');
  });

  it('decrypts its own output', async () => {
    const cipher = await createCipher(KEY, IV);
    const back = await cipher.cryptAt(Buffer.from('c9af65231f222581ab6229ba35e7', 'hex'), 0);
    expect(new TextDecoder().decode(back)).toBe('Hello, Teknik!');
  });

  it("matches Teknik's own browser library (CryptoJS CTR, fed in 1024- and 7-byte pieces)", async () => {
    const plain = new Uint8Array(5000);
    crypto.getRandomValues(plain);
    const ours = await encryptBytes(KEY, IV, plain);
    for (const piece of [1024, 7]) {
      const encryptor = CryptoJS.algo.AES.createEncryptor(CryptoJS.enc.Utf8.parse(KEY), {
        iv: CryptoJS.enc.Utf8.parse(IV),
        mode: CryptoJS.mode.CTR,
        padding: CryptoJS.pad.NoPadding,
      });
      let out = '';
      for (let at = 0; at < plain.length; at += piece) {
        const part = Buffer.from(plain.subarray(at, at + piece)).toString('hex');
        out += CryptoJS.enc.Hex.stringify(encryptor.process(CryptoJS.enc.Hex.parse(part)));
      }
      out += CryptoJS.enc.Hex.stringify(encryptor.finalize());
      expect(out).toBe(hex(ours));
    }
  });
});
