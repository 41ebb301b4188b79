// The daily byte quotas (per client address and per account), kept in the record store so that every
// instance sharing it counts the same bytes. An upload reserves its bytes before it stores them: a Start
// its declared size, a one-request upload its bytes as they arrive (api/quota-gate.ts). A reservation is
// never given back once its bytes were allowed in: an abort, an expiry or a failure later does not refund.
//
// Each quota is a record `quota-address-<hash>` or `quota-account-<hash>` (the first 32 hex digits of the
// SHA-256 of the address key or the username; no upload name has a `-` before its first dot, so neither is
// ever read as an upload): the bytes reserved in each BUCKET_MS of the last day, changed by
// compare-and-swap only. A bucket counts for a day from its start, so a reservation ages out up to one
// bucket early, never late. The sweeper deletes a record whose buckets all aged out (at the version read).

import { createHash } from 'node:crypto';
import { addressKey } from '../http/client';
import { bytesReadable } from '../http/responses';
import { StorageError } from '../storage/errors';
import type { JsonRecord, RecordStore, Versioned } from '../storage/types';
import type { Admission } from './admission';

const DAY_MS = 86_400_000;
/** Reservations are summed per 5 minutes: a record holds at most 288 numbers, whatever the upload count. */
const BUCKET_MS = 5 * 60_000;
const PREFIX = 'quota-';
const CAS_TRIES = 50;

interface QuotaRecord {
  kind: 'upload-bytes';
  /** Bucket start (ms since the epoch, as text) → bytes reserved in it. */
  buckets: Record<string, number>;
}

/** One quota an upload counts against: its record and what it allows in a day. */
interface Quota {
  key: string;
  limit: number;
  /** How refusals name it: "Your address", "This account". */
  who: string;
}

/** Bytes one reservation took, and where, so that bytes that never came in can be given back. */
export interface Reservation {
  taken: { key: string; bucket: string; bytes: number }[];
}

export type Reserved = { ok: true; reservation: Reservation } | (Admission & { ok: false });

export interface ByteQuotaLimits {
  uploadBytesPerDayPerAddress: number;
  uploadBytesPerDayPerAccount: number;
}

const hashed = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

function parseQuota(json: JsonRecord): QuotaRecord | null {
  if (json.kind !== 'upload-bytes' || typeof json.buckets !== 'object' || json.buckets === null) return null;
  return Object.values(json.buckets).every((v) => Number.isSafeInteger(v) && v >= 0)
    ? (json as unknown as QuotaRecord)
    : null;
}

/** The buckets still inside the day at `now`, oldest first. */
function liveBuckets(record: QuotaRecord | null, now: number): [number, number][] {
  if (!record) return [];
  return Object.entries(record.buckets)
    .map(([start, bytes]) => [Number(start), bytes] as [number, number])
    .filter(([start, bytes]) => start > now - DAY_MS && bytes > 0)
    .sort(([a], [b]) => a - b);
}

/** How long until `bytes` more fit under `limit`, given what is reserved in `buckets`. */
function waitFor(buckets: [number, number][], bytes: number, limit: number, now: number): number {
  if (bytes > limit) return DAY_MS;
  let used = buckets.reduce((sum, [, b]) => sum + b, 0);
  for (const [start, b] of buckets) {
    used -= b;
    if (used + bytes <= limit) return Math.max(1000, start + DAY_MS - now);
  }
  return DAY_MS;
}

export class ByteQuotas {
  constructor(
    private readonly records: RecordStore<JsonRecord>,
    private readonly limits: ByteQuotaLimits,
    private readonly now: () => number,
  ) {}

  /** Whether any byte quota is set at all (none: uploads never touch the store for it). */
  get enabled(): boolean {
    return this.limits.uploadBytesPerDayPerAddress > 0 || this.limits.uploadBytesPerDayPerAccount > 0;
  }

  private quotasOf(address: string, username: string | undefined): Quota[] {
    const quotas: Quota[] = [];
    const { uploadBytesPerDayPerAddress: perAddress, uploadBytesPerDayPerAccount: perAccount } = this.limits;
    if (perAddress > 0)
      quotas.push({
        key: `${PREFIX}address-${hashed(addressKey(address))}`,
        limit: perAddress,
        who: 'Your address',
      });
    if (perAccount > 0 && username !== undefined)
      quotas.push({ key: `${PREFIX}account-${hashed(username)}`, limit: perAccount, who: 'This account' });
    return quotas;
  }

  private refusal(quota: Quota, left: number, retryAfterMs: number): Admission & { ok: false } {
    return {
      ok: false,
      message: `${quota.who} has used its upload quota for today (${bytesReadable(quota.limit)} a day; ${bytesReadable(left)} left).`,
      retryAfterMs,
    };
  }

  /**
   * What is left today of the quotas this upload counts against: refused when even `atLeast` bytes would
   * not fit (a declared size checked before any byte is read); nothing is reserved.
   */
  async check(address: string, username: string | undefined, atLeast: number): Promise<Admission> {
    const now = this.now();
    for (const quota of this.quotasOf(address, username)) {
      const refused = this.overIf(quota, await this.state(quota), atLeast, now);
      if (refused) return refused;
    }
    return { ok: true };
  }

  /** The quota's record as stored now, and its reservations still inside the day. */
  private async state(quota: Quota) {
    const now = this.now();
    const stored = await this.records.read(quota.key);
    const buckets = liveBuckets(stored && parseQuota(stored.value), now);
    return { stored, buckets, used: buckets.reduce((sum, [, b]) => sum + b, 0) };
  }

  /** The refusal when `bytes` more would pass the quota, else null. */
  private overIf(
    quota: Quota,
    { buckets, used }: { buckets: [number, number][]; used: number },
    bytes: number,
    now: number,
  ): (Admission & { ok: false }) | null {
    if (used + bytes <= quota.limit) return null;
    return this.refusal(quota, Math.max(0, quota.limit - used), waitFor(buckets, bytes, quota.limit, now));
  }

  /** Reserves `bytes` against every quota of this upload, all or none (compare-and-swap on each record). */
  async reserve(address: string, username: string | undefined, bytes: number): Promise<Reserved> {
    const reservation: Reservation = { taken: [] };
    for (const quota of this.quotasOf(address, username)) {
      const outcome = await this.take(quota, bytes);
      if (!outcome.ok) {
        // The bytes never came in: what an earlier quota took for them goes back.
        await this.release(reservation);
        return outcome;
      }
      reservation.taken.push(outcome.taken);
    }
    return { ok: true, reservation };
  }

  /** Gives back a reservation whose bytes never came in (an upload refused before it began). */
  async release(reservation: Reservation): Promise<void> {
    for (const { key, bucket, bytes } of reservation.taken.splice(0)) {
      for (let i = 0; i < CAS_TRIES; i++) {
        const stored = await this.records.read(key);
        const record = stored && parseQuota(stored.value);
        if (!stored || !record || !(bucket in record.buckets)) break;
        const left = Math.max(0, (record.buckets[bucket] ?? 0) - bytes);
        const next: QuotaRecord = { kind: 'upload-bytes', buckets: { ...record.buckets, [bucket]: left } };
        if (await this.records.update(key, stored.version, { ...next })) break;
      }
    }
  }

  private async take(
    quota: Quota,
    bytes: number,
  ): Promise<{ ok: true; taken: Reservation['taken'][number] } | (Admission & { ok: false })> {
    for (let i = 0; i < CAS_TRIES; i++) {
      const now = this.now();
      const state = await this.state(quota);
      const refused = this.overIf(quota, state, bytes, now);
      if (refused) return refused;
      const { stored, buckets } = state;
      const bucket = String(Math.floor(now / BUCKET_MS) * BUCKET_MS);
      const kept = Object.fromEntries(buckets.map(([start, b]) => [String(start), b]));
      const next: QuotaRecord = {
        kind: 'upload-bytes',
        buckets: { ...kept, [bucket]: (kept[bucket] ?? 0) + bytes },
      };
      const done = stored
        ? await this.records.update(quota.key, stored.version, { ...next })
        : await this.records.create(quota.key, { ...next });
      if (done) return { ok: true, taken: { key: quota.key, bucket, bytes } };
    }
    throw new StorageError('unavailable', 'Too many uploads are starting from your address at once.');
  }
}

/**
 * For the sweeper, given a record that is not an upload's: removes a quota record whose reservations all
 * aged out, at the version read (a reservation made meanwhile keeps it). True when the key is a quota's.
 */
export async function sweepQuotaRecord(
  records: RecordStore<JsonRecord>,
  key: string,
  stored: Versioned<JsonRecord>,
  now: number,
): Promise<boolean> {
  if (!key.startsWith(PREFIX)) return false;
  const record = parseQuota(stored.value);
  if (record && liveBuckets(record, now).length === 0) await records.delete(key, stored.version);
  return true;
}
