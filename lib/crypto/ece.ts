/**
 * Hushdrop's authenticated format: RFC 8188's "aes128gcm" content coding (Encrypted Content-Encoding),
 * with the parameters Firefox Send used. The README's "authenticated format" section is the spec.
 *
 * - The link carries a 16-byte secret. A random 16-byte salt per file, in the header, makes the
 *   file's content key and nonce base by HKDF-SHA-256 (RFC 5869): CEK = 16 bytes with info
 *   "Content-Encoding: aes128gcm\0", nonce base = 12 bytes with info "Content-Encoding: nonce\0".
 * - Header: salt (16) | record size rs as uint32 big-endian (65536) | key id length (0): 21 bytes.
 * - Records of rs bytes (the last one may be shorter): AES-128-GCM over plaintext + a delimiter byte
 *   (1 = more records follow, 2 = the last record), 16-byte tag; the nonce is the nonce base XOR the
 *   record's index as a 96-bit big-endian number. So a record opens only with its own index, and
 *   the end is marked inside an authenticated record.
 *
 * This file holds the parts that work on one record at a time; ece-stream.ts runs them over streams.
 */
import { LinkIntegrityError } from './integrity';
import type { RandomSource } from './text';

/** Bytes of the secret in a link: AES-128's key size, and what Send used. */
export const ECE_SECRET_BYTES = 16;
export const ECE_SALT_BYTES = 16;
export const ECE_TAG_BYTES = 16;
/** rs: bytes of each record on the wire, tag included (Send's 64 KiB). */
export const ECE_RECORD_BYTES = 64 * 1024;
/** Header bytes without a key id: salt, rs, idlen. */
export const ECE_HEADER_BYTES = ECE_SALT_BYTES + 4 + 1;

const DELIMITER_MORE = 1;
const DELIMITER_LAST = 2;
/** Per record: the delimiter and the tag. */
export const ECE_RECORD_OVERHEAD = 1 + ECE_TAG_BYTES;

const NONCE_BYTES = 12;
const utf8 = new TextEncoder();
const CEK_INFO = utf8.encode('Content-Encoding: aes128gcm\0');
const NONCE_INFO = utf8.encode('Content-Encoding: nonce\0');

/**
 * Record size and key id. Hushdrop always writes rs = 65536 and no key id, and only reads what it
 * was told to expect (a header that differs is refused), so no header byte can change unnoticed.
 * Other values exist for RFC 8188's own examples.
 */
export interface EceLayout {
  recordSize?: number;
  keyId?: Uint8Array;
}

/** The layout with its defaults filled in, checked, and its header size. */
export function resolveLayout({ recordSize = ECE_RECORD_BYTES, keyId = new Uint8Array(0) }: EceLayout = {}) {
  if (!Number.isSafeInteger(recordSize) || recordSize <= ECE_RECORD_OVERHEAD || recordSize >= 2 ** 32)
    throw new RangeError(`An aes128gcm record size must be from 18 to 2^32 − 1 bytes, not ${recordSize}.`);
  if (keyId.length > 255) throw new RangeError('A key id has at most 255 bytes.');
  return { recordSize, keyId, headerBytes: ECE_HEADER_BYTES + keyId.length };
}

export type ResolvedLayout = ReturnType<typeof resolveLayout>;

/** A fresh secret for one link. */
export function randomSecret(random: RandomSource = (b) => globalThis.crypto.getRandomValues(b)): Uint8Array {
  const secret = new Uint8Array(ECE_SECRET_BYTES);
  random(secret);
  return secret;
}

export function checkSecret(secret: Uint8Array): void {
  if (!(secret instanceof Uint8Array) || secret.length !== ECE_SECRET_BYTES)
    throw new RangeError(`A link secret has ${ECE_SECRET_BYTES} bytes.`);
}

export function encodeHeader(salt: Uint8Array, layout: ResolvedLayout): Uint8Array<ArrayBuffer> {
  if (salt.length !== ECE_SALT_BYTES) throw new RangeError(`A salt has ${ECE_SALT_BYTES} bytes.`);
  const header = new Uint8Array(layout.headerBytes);
  header.set(salt);
  new DataView(header.buffer).setUint32(ECE_SALT_BYTES, layout.recordSize);
  header[ECE_SALT_BYTES + 4] = layout.keyId.length;
  header.set(layout.keyId, ECE_HEADER_BYTES);
  return header;
}

/** The salt of a header that is exactly what `layout` writes; LinkIntegrityError otherwise. */
export function decodeHeader(header: Uint8Array, layout: ResolvedLayout): Uint8Array<ArrayBuffer> {
  if (header.length < layout.headerBytes) throw new LinkIntegrityError('cut-short');
  const salt = header.slice(0, ECE_SALT_BYTES);
  const expected = encodeHeader(salt, layout);
  for (let i = ECE_SALT_BYTES; i < expected.length; i++)
    if (header[i] !== expected[i]) throw new LinkIntegrityError('header');
  return salt;
}

/** Seals and opens the records of one file (one secret and salt). */
export interface RecordCipher {
  /**
   * Encrypts record `index`. `body` holds its plaintext, and the byte after it (inside `body`'s
   * buffer) must be free: the delimiter is written there.
   */
  seal(body: Uint8Array<ArrayBuffer>, index: number, last: boolean): Promise<Uint8Array<ArrayBuffer>>;
  /**
   * Decrypts and verifies record `index`; resolves with its plaintext and whether it is marked as
   * the last record. Nothing of a record that fails comes out.
   */
  open(
    record: Uint8Array<ArrayBuffer>,
    index: number,
  ): Promise<{ plain: Uint8Array<ArrayBuffer>; last: boolean }>;
}

/** Nonce of record `index`: the nonce base XOR the index as a 96-bit big-endian number. */
export function recordNonce(base: Uint8Array, index: number): Uint8Array<ArrayBuffer> {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`Invalid record index: ${index}`);
  const nonce = Uint8Array.from(base);
  // A safe integer fits in the last 7 bytes.
  for (let i = NONCE_BYTES - 1, rest = index; rest > 0; i--, rest = Math.floor(rest / 256))
    nonce[i]! ^= rest % 256;
  return nonce;
}

/** HKDF-SHA-256 from the secret and salt: the content key and the nonce base. */
export async function deriveRecordCipher(
  secret: Uint8Array,
  salt: Uint8Array,
  subtle: SubtleCrypto = globalThis.crypto.subtle,
): Promise<RecordCipher> {
  checkSecret(secret);
  const ikm = await subtle.importKey('raw', Uint8Array.from(secret), 'HKDF', false, ['deriveBits']);
  const hkdf = (info: Uint8Array<ArrayBuffer>, bits: number) =>
    subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: Uint8Array.from(salt), info }, ikm, bits);
  const [cek, nonceBase] = await Promise.all([hkdf(CEK_INFO, 128), hkdf(NONCE_INFO, NONCE_BYTES * 8)]);
  const key = await subtle.importKey('raw', cek, 'AES-GCM', false, ['encrypt', 'decrypt']);
  const base = new Uint8Array(nonceBase);
  const gcm = (index: number) => ({ name: 'AES-GCM', iv: recordNonce(base, index), tagLength: 128 });

  return {
    async seal(body, index, last) {
      const withDelimiter = new Uint8Array(body.buffer, body.byteOffset, body.length + 1);
      withDelimiter[body.length] = last ? DELIMITER_LAST : DELIMITER_MORE;
      return new Uint8Array(await subtle.encrypt(gcm(index), key, withDelimiter));
    },
    async open(record, index) {
      let padded: Uint8Array<ArrayBuffer>;
      try {
        padded = new Uint8Array(await subtle.decrypt(gcm(index), key, record));
      } catch {
        // A wrong tag: the first record cannot tell a wrong secret from a changed file.
        throw new LinkIntegrityError(index === 0 ? 'wrong-link' : 'changed', index);
      }
      // RFC 8188 §2: the delimiter is the last non-zero byte; zeros after it are padding.
      let end = padded.length - 1;
      while (end >= 0 && padded[end] === 0) end--;
      const delimiter = padded[end];
      if (delimiter !== DELIMITER_MORE && delimiter !== DELIMITER_LAST)
        throw new LinkIntegrityError('changed', index);
      return { plain: padded.subarray(0, end), last: delimiter === DELIMITER_LAST };
    },
  };
}

/** Records a plaintext of `plainSize` bytes takes: at least one, as the end is marked in a record. */
export function recordCount(plainSize: number, recordSize = ECE_RECORD_BYTES): number {
  if (!Number.isSafeInteger(plainSize) || plainSize < 0) throw new RangeError(`Invalid size: ${plainSize}`);
  return Math.max(1, Math.ceil(plainSize / (recordSize - ECE_RECORD_OVERHEAD)));
}

/** Bytes Hushdrop writes for a plaintext of `plainSize` bytes: header + plaintext + 17 per record. */
export function eceCiphertextSize(plainSize: number, layout?: EceLayout): number {
  const { recordSize, headerBytes } = resolveLayout(layout);
  return headerBytes + plainSize + recordCount(plainSize, recordSize) * ECE_RECORD_OVERHEAD;
}

/**
 * The plaintext size behind `cipherSize` bytes as Hushdrop writes them (it never pads), or
 * undefined when no file of this format has that size. An upper bound for padded files.
 */
export function ecePlaintextSize(cipherSize: number, layout?: EceLayout): number | undefined {
  const { recordSize, headerBytes } = resolveLayout(layout);
  if (!Number.isSafeInteger(cipherSize)) return undefined;
  const body = cipherSize - headerBytes;
  if (body < ECE_RECORD_OVERHEAD) return undefined;
  const records = Math.ceil(body / recordSize);
  // The last record holds at least a delimiter and a tag, and Hushdrop writes an empty one only
  // for an empty file.
  const lastRecord = body - (records - 1) * recordSize;
  if (lastRecord < ECE_RECORD_OVERHEAD || (records > 1 && lastRecord === ECE_RECORD_OVERHEAD))
    return undefined;
  return body - records * ECE_RECORD_OVERHEAD;
}
