// The server's uploads over a Storage: naming, finding live ones, counting views with compare-and-swap,
// deleting, and sweeping what expired. Nothing here is kept in memory: any instance sharing the store
// sees the same uploads.

import { createHash } from 'node:crypto';
import { randomText } from '../../lib/crypto/text';
import type { PartsSettings } from '../config/settings';
import { sweepQuotaRecord } from '../limits/byte-quotas';
import { StorageError } from '../storage/errors';
import { partsKey, type Storage, type Versioned } from '../storage/types';
import { PartsSessions, parseSession } from './parts-sessions';
import { isExpired, isUploadName, parseUploadRecord, type UploadRecord } from './record';

/** Length of the random part of public names (Teknik's UrlLength default). */
const NAME_LENGTH = 5;
const BLOB_ID_LENGTH = 24;
/** Name draws before giving up (62^5 names: only a nearly full server gets near this). */
const NAME_TRIES = 50;
/** Compare-and-swap rounds for one view before the server says it is busy. */
const CAS_TRIES = 50;

export type NewUpload = Omit<UploadRecord, 'fileName'>;

/**
 * A record's key as the error output may show it: the key itself, unless it is an upload's name (which
 * alone opens an upload whose key the server keeps): then the first 16 hex digits of its SHA-256, which an
 * operator can match (`printf %s <name> | sha256sum`) and a reader of the log cannot turn back.
 */
export function keyForLog(key: string): string {
  if (!isUploadName(key)) return key;
  return `of an upload (sha256 of its name ${createHash('sha256').update(key).digest('hex').slice(0, 16)}…)`;
}

/** What the sweeper says of a record it cannot read: it goes on with the others. */
function logUnreadable(key: string, error: StorageError): void {
  console.error(
    `hushdrop server: skipped the unreadable record ${keyForLog(key)} while sweeping: ${error.message}`,
  );
}

/** What claiming a view gave: the record as it is after this view, or why there is none. */
export type ViewClaim = { ok: true; record: UploadRecord } | { ok: false };

export class Uploads {
  /** Uploads in parts between Start and Done. */
  readonly parts: PartsSessions;

  constructor(
    readonly storage: Storage,
    private readonly now: () => number,
    partsSettings: PartsSettings,
  ) {
    this.parts = new PartsSessions(storage, partsSettings, now);
  }

  newBlobId(): string {
    return randomText(BLOB_ID_LENGTH);
  }

  /** Stores the record under a fresh public name (5 random alphanumerics + `extension`); returns it. */
  async create(upload: NewUpload, extension: string): Promise<UploadRecord> {
    for (let i = 0; i < NAME_TRIES; i++) {
      const record: UploadRecord = { fileName: randomText(NAME_LENGTH) + extension, ...upload };
      if (await this.storage.records.create(record.fileName, { ...record })) return record;
    }
    throw new StorageError(
      'unavailable',
      'No free upload name was found; the server is nearly full of names.',
    );
  }

  private async read(name: string): Promise<Versioned<UploadRecord> | null> {
    if (!isUploadName(name)) return null;
    const stored = await this.storage.records.read(name);
    if (!stored) return null;
    const record = parseUploadRecord(stored.value);
    if (!record) {
      console.error(
        `hushdrop server: the record of ${name} has an unexpected shape; it is treated as absent.`,
      );
      return null;
    }
    return { value: record, version: stored.version };
  }

  /** The upload if it is live; one that expired is removed here (the sweeper also removes it later). */
  async find(name: string): Promise<UploadRecord | null> {
    const found = await this.read(name);
    if (!found) return null;
    if (!isExpired(found.value, this.now())) return found.value;
    await this.remove(found.value);
    return null;
  }

  /**
   * Counts one view and returns the record with it counted, or not ok when the upload is gone, expired or
   * has no view left. The count is a compare-and-swap, so of two requests racing for a one-view link
   * (on one instance or two) exactly one gets it.
   */
  async claimView(name: string): Promise<ViewClaim> {
    for (let i = 0; i < CAS_TRIES; i++) {
      const found = await this.read(name);
      if (!found) return { ok: false };
      if (isExpired(found.value, this.now())) {
        await this.remove(found.value);
        return { ok: false };
      }
      const next: UploadRecord = { ...found.value, downloads: found.value.downloads + 1 };
      if (await this.storage.records.update(name, found.version, { ...next }))
        return { ok: true, record: next };
    }
    throw new StorageError('unavailable', 'This upload is too busy right now.');
  }

  /**
   * Removes the upload `name` whatever its expiry or views (an operator taking it down after a report);
   * resolves with its record, or null when there is no such upload.
   */
  async takeDown(name: string): Promise<UploadRecord | null> {
    const found = await this.read(name);
    if (!found) return null;
    await this.remove(found.value);
    return found.value;
  }

  /** Deletes the record, then the bytes (a crash between the two leaves only bytes, which the sweeper finds). */
  async remove(record: UploadRecord): Promise<void> {
    await this.storage.records.delete(record.fileName);
    await this.storage.blobs.delete(record.blobId);
  }

  /**
   * Removes every expired upload, and bytes no record refers to that are older than `orphanAgeMs`
   * (left by a crash between storing bytes and record; younger ones may belong to an upload finishing now).
   * Expired sessions of uploads in parts go with everything they stored; live ones are kept whatever
   * their age (their writes are passed to the sweep of open uploads as ones to keep).
   */
  async sweep(orphanAgeMs: number): Promise<{ expired: number; orphans: number }> {
    const now = this.now();
    const referenced = new Set<string>();
    const liveParts = new Set<string>();
    let expired = 0;
    for await (const stored of this.storage.records.list({ onUnreadable: logUnreadable })) {
      const record = parseUploadRecord(stored.value);
      if (!record && (await sweepQuotaRecord(this.storage.records, stored.key, stored, now))) continue;
      if (!record) {
        const session = parseSession(stored.value);
        const outcome = await this.parts.sweepRecord(stored.key, stored);
        if (outcome === 'expired') expired += 1;
        if (outcome === 'live' && session) liveParts.add(partsKey(session.blobId, session.handle));
        continue;
      }
      if (isExpired(record, now)) {
        await this.remove(record);
        expired += 1;
      } else referenced.add(record.blobId);
    }
    let orphans = 0;
    const wallClock = Date.now();
    for await (const blob of this.storage.blobs.list()) {
      if (referenced.has(blob.id) || wallClock - blob.modifiedAt < orphanAgeMs) continue;
      await this.storage.blobs.delete(blob.id);
      orphans += 1;
    }
    // Multipart uploads of an instance that died mid-upload, or whose cleanup the store did not answer.
    orphans += (await this.storage.blobs.sweepOpenUploads?.(orphanAgeMs, liveParts)) ?? 0;
    return { expired, orphans };
  }
}
