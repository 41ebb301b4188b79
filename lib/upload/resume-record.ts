/**
 * What the server's upload page keeps of an upload in parts so that, after a reload, it can resume it
 * when the person picks the same file again (server/recipient/client/home-resume.ts keeps it in that
 * tab's session storage only). Resuming means sealing the file again with the same cipher (its salt
 * included: lib/crypto/file-cipher.ts), so the record holds the secret; it is never sent anywhere.
 *
 * The same file: the same name, size and last-modified time, and the same SHA-256 of its first part's
 * worth of bytes, the plaintext [0, min(size, partBytes)) (partBytes as the session cuts the
 * ciphertext; the span needs no knowledge of the format and is read before anything is sent). A file
 * changed further on without a change to its size or time is not seen; its resumed upload would
 * mix old and new parts.
 *
 * No address is kept: a resume asks the addresses the page would start with now (parts-runner.ts),
 * so nothing read back from storage is ever requested. Stored text is read as hostile: anything that
 * is not a record this module wrote, whole, is no record.
 */
import { base64urlnopad } from '@scure/base';
import { ECE_SALT_BYTES, ECE_SECRET_BYTES } from '../crypto/ece';
import { type FileCipher, sealedSize } from '../crypto/file-cipher';
import { deriveIv } from '../crypto/iv';
import { KEY_LENGTH } from '../crypto/text';
import { MAX_PART_BYTES, MIN_PART_BYTES, type PartsSession, SESSION_ID } from './parts';
import type { Variant } from './types';

/** What the page knows of a chosen file without reading it. */
export interface FileFacts {
  name: string;
  size: number;
  lastModified: number;
}

export interface ResumeRecord {
  /** The session as Start answered it (every field checked then). */
  session: PartsSession;
  /** The variant it was started with: a resume sends with the same one. */
  variant: Variant;
  cipher: FileCipher;
  file: FileFacts & {
    /** SHA-256 of the plaintext [0, min(size, session.partBytes)), in lowercase hex. */
    firstPart: string;
  };
}

/** The bytes whose SHA-256 stands for the file: the first part's worth of plaintext, or all of a smaller file. */
export function firstPartSpan(partBytes: number, size: number): [number, number] {
  return [0, Math.min(size, partBytes)];
}

/** SHA-256 (lowercase hex) of the file's first part's worth of bytes (firstPartSpan). */
export async function firstPartDigest(
  file: Blob,
  partBytes: number,
  subtle: SubtleCrypto = globalThis.crypto.subtle,
): Promise<string> {
  const digest = await subtle.digest(
    'SHA-256',
    await file.slice(...firstPartSpan(partBytes, file.size)).arrayBuffer(),
  );
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The stored text of the record of `file`'s upload: its facts and first part's digest read now. */
export async function recordOfFile(
  file: Blob & FileFacts,
  fields: Omit<ResumeRecord, 'file'>,
  subtle?: SubtleCrypto,
): Promise<string> {
  const { name, size, lastModified } = file;
  const firstPart = await firstPartDigest(file, fields.session.partBytes, subtle);
  return recordText({ ...fields, file: { name, size, lastModified, firstPart } });
}

/**
 * The stored form: flat. The authenticated format's secret and salt in base64url; Teknik's key as it
 * is (its IV is derived from it again).
 */
interface Stored {
  v: 1;
  id: string;
  partBytes: number;
  parts: number;
  total: number;
  variant: Variant;
  format?: 'teknik';
  key?: string;
  secret?: string;
  salt?: string;
  name: string;
  size: number;
  lastModified: number;
  firstPart: string;
}

export function recordText(record: ResumeRecord): string {
  const { session, variant, cipher, file } = record;
  return JSON.stringify({
    v: 1,
    id: session.id,
    partBytes: session.partBytes,
    parts: session.parts,
    total: session.total,
    variant,
    ...(cipher.format === 'ece'
      ? { secret: base64urlnopad.encode(cipher.secret), salt: base64urlnopad.encode(cipher.salt) }
      : { format: cipher.format, key: cipher.key }),
    name: file.name,
    size: file.size,
    lastModified: file.lastModified,
    firstPart: file.firstPart,
  } satisfies Stored);
}

const count = (value: unknown, min = 0): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= min;

/** `text` in base64url, when it is exactly `bytes` bytes. */
function bytesOf(text: unknown, bytes: number): Uint8Array | undefined {
  if (typeof text !== 'string' || text.length !== Math.ceil((bytes * 8) / 6)) return undefined;
  try {
    const decoded = base64urlnopad.decode(text);
    return decoded.length === bytes ? decoded : undefined;
  } catch {
    return undefined;
  }
}

/** The stored cipher: exactly the fields of one format, each of its form. */
function cipherOf(s: Partial<Record<keyof Stored, unknown>>): FileCipher | undefined {
  if (s.format === undefined) {
    const secret = bytesOf(s.secret, ECE_SECRET_BYTES);
    const salt = bytesOf(s.salt, ECE_SALT_BYTES);
    return secret && salt && s.key === undefined ? { format: 'ece', secret, salt } : undefined;
  }
  if (s.format !== 'teknik' || s.secret !== undefined || s.salt !== undefined) return undefined;
  const key = s.key;
  if (typeof key !== 'string' || !new RegExp(`^[A-Za-z0-9]{${KEY_LENGTH}}$`).test(key)) return undefined;
  return { format: 'teknik', key, iv: deriveIv(key) };
}

/** A record from stored text; undefined for anything else (garbled, another shape, inconsistent). */
export function readRecord(text: unknown): ResumeRecord | undefined {
  if (typeof text !== 'string') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const s = json as Partial<Record<keyof Stored, unknown>>;
  const cipher = cipherOf(s);
  if (
    s.v !== 1 ||
    typeof s.id !== 'string' ||
    !SESSION_ID.test(s.id) ||
    !count(s.partBytes, MIN_PART_BYTES) ||
    s.partBytes > MAX_PART_BYTES ||
    !count(s.size) ||
    !count(s.total, 1) ||
    !cipher ||
    s.total !== sealedSize(cipher, s.size) ||
    s.parts !== Math.ceil(s.total / s.partBytes) ||
    (s.variant !== 'legacy' && s.variant !== 'current') ||
    typeof s.name !== 'string' ||
    s.name === '' ||
    typeof s.lastModified !== 'number' ||
    !Number.isFinite(s.lastModified) ||
    typeof s.firstPart !== 'string' ||
    !/^[0-9a-f]{64}$/.test(s.firstPart)
  )
    return undefined;
  return {
    session: { id: s.id, partBytes: s.partBytes, parts: s.parts, total: s.total },
    variant: s.variant,
    cipher,
    file: { name: s.name, size: s.size, lastModified: s.lastModified, firstPart: s.firstPart },
  };
}

/** Whether `file` may be the record's file: the same name, size and last-modified time (nothing read yet). */
export function sameFacts(record: ResumeRecord, file: FileFacts): boolean {
  const kept = record.file;
  return kept.name === file.name && kept.size === file.size && kept.lastModified === file.lastModified;
}

/** Whether `file`, whose first part's digest is `firstPart` (firstPartDigest), is the record's file. */
export function matches(record: ResumeRecord, file: FileFacts, firstPart: string): boolean {
  return sameFacts(record, file) && record.file.firstPart === firstPart;
}

/** How a chosen file stands to interrupted uploads: the one it resumes, or whether one of its name was another file. */
export interface ResumeMatch<R extends ResumeRecord = ResumeRecord> {
  record?: R;
  notSame?: boolean;
}

/**
 * The interrupted upload `file` resumes, among `records`. Its first part is read (and hashed) only
 * for a record with its name, size and time.
 */
export async function findResumed<R extends ResumeRecord>(
  records: readonly R[],
  file: Blob & FileFacts,
  subtle?: SubtleCrypto,
): Promise<ResumeMatch<R>> {
  const named = records.filter((r) => r.file.name === file.name);
  for (const record of named.filter((r) => sameFacts(r, file)))
    if (matches(record, file, await firstPartDigest(file, record.session.partBytes, subtle)))
      return { record };
  return { notSame: named.length > 0 };
}
