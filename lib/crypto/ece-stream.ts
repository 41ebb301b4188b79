/**
 * The authenticated format over streams: an encrypting stream for uploads and a decrypting one for
 * the viewer and the recipient page, both reading any ReadableStream of bytes (BYOB when it is a
 * byte stream). Memory stays bounded by the options whatever the file's size.
 */
import {
  checkSecret,
  decodeHeader,
  deriveRecordCipher,
  ECE_RECORD_OVERHEAD,
  ECE_SALT_BYTES,
  ECE_TAG_BYTES,
  type EceLayout,
  encodeHeader,
  type RecordCipher,
  resolveLayout,
} from './ece';
import { LinkIntegrityError } from './integrity';
import { recordStream } from './record-pipeline';
import type { RandomSource } from './text';

export interface EceStreamOptions extends EceLayout {
  /** Records being encrypted or decrypted at once (default 4). */
  inFlight?: number;
  /** Bytes of output the stream may queue before its reader takes them (default 8 MiB). */
  queueBytes?: number;
  subtle?: SubtleCrypto;
}

export interface EceEncryptOptions extends EceStreamOptions {
  /** The file's salt. Leave it out: a fresh random one is drawn (known-answer tests give one). */
  salt?: Uint8Array;
  random?: RandomSource;
}

const DEFAULT_IN_FLIGHT = 4;
const DEFAULT_QUEUE_BYTES = 8 * 1024 * 1024;

function tuning(options: EceStreamOptions) {
  const { inFlight = DEFAULT_IN_FLIGHT, queueBytes = DEFAULT_QUEUE_BYTES } = options;
  if (!Number.isSafeInteger(inFlight) || inFlight < 1) throw new RangeError(`Invalid inFlight: ${inFlight}`);
  return { inFlight, queueBytes };
}

/**
 * Encrypts `source` into the authenticated format: the header, then one record per 65,519 bytes of
 * plaintext (at least one; the last marked as such). Output size = eceCiphertextSize(input size).
 */
export function eceEncryptStream(
  source: ReadableStream<Uint8Array>,
  secret: Uint8Array,
  options: EceEncryptOptions = {},
): ReadableStream<Uint8Array> {
  checkSecret(secret);
  const layout = resolveLayout(options);
  let salt = new Uint8Array(ECE_SALT_BYTES);
  if (options.salt) salt = Uint8Array.from(options.salt);
  else (options.random ?? ((b) => globalThis.crypto.getRandomValues(b)))(salt);
  const header = encodeHeader(salt, layout); // checks the salt's length
  const key = Uint8Array.from(secret);
  let cipher: RecordCipher;
  return recordStream(source, {
    size: layout.recordSize - ECE_RECORD_OVERHEAD,
    // One byte more than the plaintext: the delimiter is written in place.
    bufferBytes: layout.recordSize - ECE_TAG_BYTES,
    ...tuning(options),
    async begin() {
      cipher = await deriveRecordCipher(key, salt, options.subtle);
      return header;
    },
    work: ({ bytes, index, last }) => cipher.seal(bytes, index, last),
  });
}

/**
 * Decrypts the authenticated format. Each record's plaintext goes out only after its tag has been
 * verified, and the last record's only once the source has been seen to end right after it. Any
 * changed, reordered, missing or added byte ends the stream with a LinkIntegrityError; what went out
 * before it must then be thrown away (the error's sentence says the file was not saved, and that a part a browser kept is incomplete).
 */
export function eceDecryptStream(
  source: ReadableStream<Uint8Array>,
  secret: Uint8Array,
  options: EceStreamOptions = {},
): ReadableStream<Uint8Array> {
  checkSecret(secret);
  const layout = resolveLayout(options);
  const key = Uint8Array.from(secret);
  let cipher: RecordCipher;
  return recordStream(source, {
    size: layout.recordSize,
    bufferBytes: layout.recordSize,
    ...tuning(options),
    async begin(input) {
      const header = await input.read(new ArrayBuffer(layout.headerBytes), layout.headerBytes);
      cipher = await deriveRecordCipher(key, decodeHeader(header, layout), options.subtle);
      return undefined;
    },
    async work({ bytes, index, last }) {
      if (bytes.length === 0) throw new LinkIntegrityError('cut-short', index);
      const opened = await cipher.open(bytes, index);
      if (opened.last && !last) throw new LinkIntegrityError('extended', index);
      if (!opened.last && last) throw new LinkIntegrityError('cut-short', index);
      return opened.plain;
    },
  });
}

/** eceEncryptStream as a writable/readable pair, for `pipeThrough`. */
export function eceEncryptTransform(
  secret: Uint8Array,
  options?: EceEncryptOptions,
): ReadableWritablePair<Uint8Array, Uint8Array> {
  const pass = new TransformStream<Uint8Array, Uint8Array>();
  return { writable: pass.writable, readable: eceEncryptStream(pass.readable, secret, options) };
}

/** eceDecryptStream as a writable/readable pair, for `pipeThrough`. */
export function eceDecryptTransform(
  secret: Uint8Array,
  options?: EceStreamOptions,
): ReadableWritablePair<Uint8Array, Uint8Array> {
  const pass = new TransformStream<Uint8Array, Uint8Array>();
  return { writable: pass.writable, readable: eceDecryptStream(pass.readable, secret, options) };
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  let length = 0;
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    parts.push(r.value);
    length += r.value.length;
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const streamOf = (bytes: Uint8Array<ArrayBuffer>) => new Blob([bytes]).stream();

/** Encrypts bytes held in memory (small data; stream files). */
export function eceEncryptBytes(
  plain: Uint8Array<ArrayBuffer>,
  secret: Uint8Array,
  options?: EceEncryptOptions,
): Promise<Uint8Array<ArrayBuffer>> {
  return collect(eceEncryptStream(streamOf(plain), secret, options));
}

/** Decrypts bytes held in memory; rejects with LinkIntegrityError as eceDecryptStream does. */
export function eceDecryptBytes(
  sealed: Uint8Array<ArrayBuffer>,
  secret: Uint8Array,
  options?: EceStreamOptions,
): Promise<Uint8Array<ArrayBuffer>> {
  return collect(eceDecryptStream(streamOf(sealed), secret, options));
}
