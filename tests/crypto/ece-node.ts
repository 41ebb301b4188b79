// RFC 8188 "aes128gcm" written again from the RFC with Node's own crypto (OpenSSL: hkdfSync,
// createCipheriv/createDecipheriv 'aes-128-gcm'), sharing no code with lib/crypto, so that the two
// can check each other.
import { createCipheriv, createDecipheriv, hkdfSync } from 'node:crypto';

function contentKeys(ikm: Uint8Array, salt: Uint8Array) {
  const derive = (info: string, length: number) =>
    Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from(`Content-Encoding: ${info}\0`, 'latin1'), length));
  return { cek: derive('aes128gcm', 16), nonceBase: derive('nonce', 12) };
}

/** The nonce base XOR the sequence number, as a 96-bit big-endian integer. */
function nonceFor(base: Buffer, seq: number): Buffer {
  const nonce = Buffer.from(base);
  const low = nonce.readBigUInt64BE(4) ^ BigInt(seq);
  nonce.writeBigUInt64BE(low, 4);
  return nonce;
}

export interface NodeEceOptions {
  rs?: number;
  keyId?: Uint8Array;
}

/** Encrypts `plain` in records of rs bytes (rs − 17 of plaintext each, at least one record). */
export function nodeEceEncrypt(
  ikm: Uint8Array,
  salt: Uint8Array,
  plain: Uint8Array,
  options: NodeEceOptions = {},
) {
  const rs = options.rs ?? 65536;
  const keyId = Buffer.from(options.keyId ?? []);
  const { cek, nonceBase } = contentKeys(ikm, salt);
  const header = Buffer.alloc(21 + keyId.length);
  Buffer.from(salt).copy(header, 0);
  header.writeUInt32BE(rs, 16);
  header[20] = keyId.length;
  keyId.copy(header, 21);
  const out: Buffer[] = [header];
  const per = rs - 17;
  const count = Math.max(1, Math.ceil(plain.length / per));
  for (let seq = 0; seq < count; seq++) {
    const cipher = createCipheriv('aes-128-gcm', cek, nonceFor(nonceBase, seq));
    const body = Buffer.concat([
      plain.subarray(seq * per, (seq + 1) * per),
      Buffer.of(seq === count - 1 ? 2 : 1),
    ]);
    out.push(cipher.update(body), cipher.final(), cipher.getAuthTag());
  }
  return Buffer.concat(out);
}

/** Decrypts; throws on any tag, delimiter or length that RFC 8188 does not allow. */
export function nodeEceDecrypt(ikm: Uint8Array, data: Uint8Array): Buffer {
  const bytes = Buffer.from(data);
  const rs = bytes.readUInt32BE(16);
  const start = 21 + bytes[20]!;
  const { cek, nonceBase } = contentKeys(ikm, bytes.subarray(0, 16));
  const out: Buffer[] = [];
  for (let seq = 0, at = start; at < bytes.length; seq++, at += rs) {
    const record = bytes.subarray(at, at + rs);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonceFor(nonceBase, seq));
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    const last = at + rs >= bytes.length;
    if (padded[end] !== (last ? 2 : 1)) throw new Error(`record ${seq}: delimiter ${padded[end]}`);
    out.push(padded.subarray(0, end));
  }
  if (out.length === 0) throw new Error('no records');
  return Buffer.concat(out);
}
