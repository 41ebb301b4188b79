// An upload's record as the server stores it, and the checks that a stored record (or a name from a URL)
// has the expected shape before anything uses it.

import type { JsonRecord } from '../storage/types';

export type Variant = 'legacy' | 'current';

export interface UploadRecord {
  /** The public name: 5 random alphanumerics plus the file's extension. */
  fileName: string;
  /** The stored bytes (ciphertext when encrypted): a blob id, never shown to clients. */
  blobId: string;
  contentType: string;
  contentLength: number;
  /** The key the server kept (null when none, or saveKey=false). */
  key: string | null;
  iv: string | null;
  /** Whether a key was kept. */
  saved: boolean;
  /** '' when genDeletionKey was not true. */
  deletionKey: string;
  /** Account the upload belongs to (valid Basic auth). */
  username?: string;
  /** 0 = unlimited. */
  maxDownloads: number;
  downloads: number;
  /** As answered to the uploader (legacy variant), or null. */
  expirationDate: string | null;
  /** The instant it expires, in ms since the epoch, or null. */
  expiresAt: number | null;
  variant: Variant;
  /** File name of the multipart file part, as sent. */
  originalName: string;
  /** The doNotTrack form field bound to true (current variant only; legacy ignores it). */
  doNotTrack: boolean;
  /** The request carried the header `DNT: 1`. */
  dntHeader: boolean;
  /** Whether the server encrypted the bytes itself (encrypt=true). */
  encrypted: boolean;
  /** '2.0' or '1.1': the HTTP version the upload came over. */
  httpVersion: string;
  /** When it was stored, in ms since the epoch. */
  createdAt: number;
}

/** Public names the server makes: alphanumerics, then dot-separated extension segments. */
const UPLOAD_NAME = /^[A-Za-z0-9]{1,64}(\.[A-Za-z0-9_-]+)*$/;

/** Whether `name` (from a URL) could be an upload's name; anything else is never looked up. */
export function isUploadName(name: string): boolean {
  return name.length <= 200 && UPLOAD_NAME.test(name);
}

const isText = (v: unknown): v is string => typeof v === 'string';
const isTextOrNull = (v: unknown) => v === null || typeof v === 'string';
const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;

/** The record in `json` if it has every member with the right type, else null. */
export function parseUploadRecord(json: JsonRecord): UploadRecord | null {
  const r = json as Partial<Record<keyof UploadRecord, unknown>>;
  const ok =
    isText(r.fileName) &&
    isUploadName(r.fileName) &&
    isText(r.blobId) &&
    isText(r.contentType) &&
    isCount(r.contentLength) &&
    isTextOrNull(r.key) &&
    isTextOrNull(r.iv) &&
    typeof r.saved === 'boolean' &&
    isText(r.deletionKey) &&
    (r.username === undefined || isText(r.username)) &&
    isCount(r.maxDownloads) &&
    isCount(r.downloads) &&
    isTextOrNull(r.expirationDate) &&
    (r.expiresAt === null || Number.isFinite(r.expiresAt)) &&
    (r.variant === 'legacy' || r.variant === 'current') &&
    isText(r.originalName) &&
    typeof r.doNotTrack === 'boolean' &&
    typeof r.dntHeader === 'boolean' &&
    typeof r.encrypted === 'boolean' &&
    isText(r.httpVersion) &&
    Number.isFinite(r.createdAt);
  return ok ? (json as unknown as UploadRecord) : null;
}

/** Past its date, or every allowed view used. */
export function isExpired(record: UploadRecord, nowMs: number): boolean {
  const byDate = record.expiresAt !== null && nowMs >= record.expiresAt;
  const byViews = record.maxDownloads > 0 && record.downloads >= record.maxDownloads;
  return byDate || byViews;
}
