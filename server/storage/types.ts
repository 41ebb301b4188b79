/**
 * Where the Hushdrop server keeps uploads: the contract every storage implementation meets.
 *
 * Two kinds of things are stored, and nothing else is shared between server instances:
 *
 * - **Blobs**: the bytes of an upload (ciphertext when it is encrypted), under a fresh random id
 *   of [A-Za-z0-9] that is never shown to clients. A blob is written once and never changed.
 * - **Records**: an upload's metadata (its public name, type, size, keys it keeps, expiry, views),
 *   a JSON object under the upload's public name. Records change (the view count), so every read
 *   returns an opaque `version`, and an update names the version it replaces.
 *
 * What each operation promises, so that several instances can share one store (issue 18):
 *
 * - `blobs.put` is all or nothing. A blob becomes visible to `get` and `list` only once every byte
 *   of the stream is stored (disk: a temporary file, flushed, then renamed; S3: a multipart upload
 *   that is completed only at the end). If the stream fails, the signal aborts, or the store fails,
 *   nothing stays behind (the temporary file is removed; the multipart upload is aborted) and the
 *   promise rejects. Memory stays bounded whatever the size (disk: one write queue; S3: parts in
 *   flight × part size).
 * - `blobs.get` streams, optionally a byte range, so downloads resume; it never reads a blob whole.
 * - `records.create` succeeds for exactly one caller when several create the same name at the same
 *   moment (disk: link(2) of a finished temporary file; S3: PUT with `If-None-Match: *`). The
 *   server draws a new name when it loses.
 * - `records.update` is compare-and-swap: it replaces the record only if it is still at `version`
 *   (disk: under a per-name lock in the one process that owns the folder; S3: PUT with `If-Match`).
 *   View counts go through it, so a one-view link is delivered once even when two instances are
 *   asked at the same moment: one update wins, the other sees a changed record and reads again.
 * - `records.delete` and `blobs.delete` are idempotent. The server writes the blob before the record
 *   and deletes the record before the blob, so a crash in between leaves at most a blob without a
 *   record, which the sweeper removes once it is older than an upload could take (`list`).
 * - Parts (`beginParts` … `completeParts`): one blob written in numbered pieces by several requests,
 *   possibly at several instances, in any order and in parallel. Between the requests the write is
 *   known by the blob id and the `handle` `beginParts` gave (store it with the session; disk: '', S3:
 *   the multipart upload's id). A part is stored whole or not at all (a failed part leaves its index
 *   absent; `heldParts` tells which are there). `completeParts` checks that every part is there with its size and makes the blob visible
 *   without copying its bytes; until then, nothing of it is in `list`. `abortParts` removes it all.
 * - Failures of the store itself reject with a `StorageError` (see errors.ts) whose `kind` says what
 *   the server answers: `full` (507), `unavailable` (503). Callers never see a raw fs or SDK error.
 */

import type { Readable, Transform } from 'node:stream';
import type { StorageError } from './errors';

/** Bytes `start` to `end`, both included, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobInfo {
  id: string;
  size: number;
  /** When it was stored, in ms since the epoch. */
  modifiedAt: number;
}

export interface PutOptions {
  /** Aborting it stops the write and leaves nothing; `put` rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface BlobStore {
  /** Stores `body` under the new id `id`, all or nothing (see above); resolves with the bytes stored. */
  put(id: string, body: Readable, options?: PutOptions): Promise<{ size: number }>;
  /** The blob's bytes, or `range` of them; rejects with StorageError `not-found` when there is no such blob. */
  get(id: string, range?: ByteRange): Promise<Readable>;
  /** Removes the blob; an absent blob is not an error. */
  delete(id: string): Promise<void>;
  /**
   * Passes the bytes of blob `id` through `transforms` (which keep their length: a cipher) and writes them
   * back in place, needing no room for a second copy. Only for a blob no record refers to yet: a crash
   * halfway leaves it half rewritten, and the orphan sweep removes it. Stores without it copy instead.
   */
  rewrite?(id: string, transforms: Transform[]): Promise<void>;
  /** Every visible blob (never one still being written), in no particular order. */
  list(): AsyncIterable<BlobInfo>;
  /**
   * Removes writes started more than `olderThanMs` ago and never finished (S3: multipart uploads an
   * instance that crashed left open; writes in parts no session knows any more); resolves with how many.
   * `keep` holds the handles of live writes in parts (blob id and handle as `partsKey` makes them), which
   * are never removed whatever their age.
   */
  sweepOpenUploads?(olderThanMs: number, keep?: ReadonlySet<string>): Promise<number>;

  /** Starts blob `id` written in parts; resolves with the handle the other part calls need. */
  beginParts(id: string): Promise<string>;
  /**
   * Stores part `index` (0-based) of `layout` from `body`, which must have exactly its size: otherwise it
   * rejects with PartLengthError and the index is absent (also when it had been stored before). Sending an
   * index again replaces it. Never holds the part whole in memory.
   */
  putPart(id: string, handle: string, layout: PartsLayout, index: number, body: Readable): Promise<void>;
  /**
   * The indices of the parts stored whole, ascending (a part still being written is not); stores nothing.
   * Rejects with StorageError `not-found` when the write in parts is gone.
   */
  heldParts(id: string, handle: string, layout: PartsLayout): Promise<number[]>;
  /** Checks every part and makes the blob visible (no copy); rejects with PartsMissingError otherwise. */
  completeParts(id: string, handle: string, layout: PartsLayout): Promise<{ size: number }>;
  /** Removes everything the write in parts stored; an unknown or finished one is not an error. */
  abortParts(id: string, handle: string): Promise<void>;
}

/** How a blob written in parts is cut: `count` parts of `partBytes` bytes, the last one the remainder. */
export interface PartsLayout {
  count: number;
  partBytes: number;
  totalBytes: number;
}

/** The size part `index` must have in `layout`. */
export function partSize(layout: PartsLayout, index: number): number {
  return index < layout.count - 1
    ? layout.partBytes
    : layout.totalBytes - layout.partBytes * (layout.count - 1);
}

/** A write in parts that `completeParts` cannot finish: some parts never arrived whole. */
export class PartsMissingError extends Error {
  override readonly name = 'PartsMissingError';
  constructor(readonly missing: number) {
    super(`${missing} part(s) are missing.`);
  }
}

/** A part's body was not the size it had to be; nothing of it was kept. */
export class PartLengthError extends Error {
  override readonly name = 'PartLengthError';
  constructor(
    readonly expected: number,
    readonly received: 'more' | number,
  ) {
    super(
      received === 'more'
        ? `The part is longer than its ${expected} bytes.`
        : `The part has ${received} bytes, not ${expected}.`,
    );
  }
}

/** How `keep` of sweepOpenUploads names a live write in parts. */
export function partsKey(id: string, handle: string): string {
  return `${id}/${handle}`;
}

/** A value with the version it was read at; the version is opaque (a counter on disk, an ETag on S3). */
export interface Versioned<T> {
  value: T;
  version: string;
}

export interface RecordStore<T> {
  /** Creates the record only if `key` is absent: true when this call created it, false when it existed. */
  create(key: string, value: T): Promise<boolean>;
  /** The record and its version, or null. */
  read(key: string): Promise<Versioned<T> | null>;
  /** Replaces the record only if it is still at `version`: false when it changed meanwhile or is gone. */
  update(key: string, version: string, value: T): Promise<boolean>;
  /**
   * Removes the record: true when this call removed it, false when it was already gone or, with
   * `version`, when it is no longer at that version (so a change made meanwhile is never lost).
   */
  delete(key: string, version?: string): Promise<boolean>;
  /**
   * Every record with its key and version, in no particular order (the sweeper walks it). A record that is
   * there but cannot be read (StorageError `unreadable`) is skipped and told to `onUnreadable`: one damaged
   * record never stops a walk over the others.
   */
  list(options?: ListOptions): AsyncIterable<Versioned<T> & { key: string }>;
}

export interface ListOptions {
  onUnreadable?(key: string, error: StorageError): void;
}

/** Record values are plain JSON objects; the server checks their shape when it reads them. */
export type JsonRecord = Record<string, unknown>;

export interface Storage {
  blobs: BlobStore;
  records: RecordStore<JsonRecord>;
  /** Resolves when the store answers (the health endpoint asks); rejects with a StorageError otherwise. */
  check(): Promise<void>;
  /** Where the data is, for the start message and the logs, e.g. `disk /var/lib/hushdrop`. */
  readonly description: string;
  /** Releases what the store holds (the data folder's lock on disk). */
  close(): Promise<void>;
}
