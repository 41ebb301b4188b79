// Upload history in IndexedDB (never in sync storage: entries hold decryption keys).
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import { newEntries, type UploadEntry } from '../../lib/history';
import type { Amount, RequestKind } from '../../lib/payments/request';

interface HushdropDB extends DBSchema {
  uploads: { key: string; value: UploadEntry; indexes: { time: number } };
  payments: { key: string; value: PaymentEntry; indexes: { time: number } };
}

/** A payment request the person looked at, with the verdict it got and when. */
export interface PaymentEntry {
  id: string;
  /** Absent means "bip70" (entries from before other kinds were read). */
  kind?: RequestKind;
  /** Where a BIP70 request was fetched from. */
  requestUrl?: string;
  /** The request as text, for the other kinds (to open it again). */
  text?: string;
  pageUrl?: string;
  verdict: 'verified' | 'unsigned' | 'invalid';
  reasons: string[];
  merchant?: string;
  /** Address, node or issuer key, or Lightning Address (other kinds; BIP70 has merchant or its URL's host). */
  payee?: string;
  memo?: string;
  network: string;
  /** Total in satoshis, as decimal text (64-bit values do not fit a JSON number). */
  totalSat: string;
  /** The amount in the unit the request used (an offer's may be another currency's), as decimal text (other kinds). */
  amount?: { value: string; unit: Amount['unit'] };
  expires?: number;
  /** When the request was fetched and verified (ms since the epoch). */
  time: number;
  /** Set once a Payment was sent and acknowledged. */
  paidAt?: number;
  ackMemo?: string;
}

export const DB_NAME = 'hushdrop';
const DB_VERSION = 4;

let dbPromise: Promise<IDBPDatabase<HushdropDB>> | undefined;

function db() {
  dbPromise ??= openDB<HushdropDB>(DB_NAME, DB_VERSION, {
    upgrade(database, oldVersion) {
      if (oldVersion < 1) {
        const uploads = database.createObjectStore('uploads', { keyPath: 'id' });
        uploads.createIndex('time', 'time');
      }
      if (oldVersion < 3)
        database.createObjectStore('payments', { keyPath: 'id' }).createIndex('time', 'time');
      // Version 2 added a store for files waiting to be uploaded; version 4 moved them to OPFS
      // (platform/upload/staging.ts). Deleting the store deletes any file it still held.
      if ((database.objectStoreNames as DOMStringList).contains('staged'))
        database.deleteObjectStore('staged' as never);
    },
  });
  return dbPromise;
}

export class HistoryWriteError extends Error {
  override name = 'HistoryWriteError';
}

function writeError(err: unknown): HistoryWriteError {
  const quota = err instanceof DOMException && err.name === 'QuotaExceededError';
  return new HistoryWriteError(
    quota
      ? 'The upload worked, but the browser is out of storage space, so it could not be added to your history. Copy the link now.'
      : 'The upload worked, but it could not be added to your history. Copy the link now.',
    { cause: err },
  );
}

export async function addUpload(entry: UploadEntry): Promise<void> {
  try {
    await (await db()).put('uploads', entry);
  } catch (err) {
    throw writeError(err);
  }
}

/** Newest first. */
export async function listUploads(): Promise<UploadEntry[]> {
  const all = await (await db()).getAllFromIndex('uploads', 'time');
  return all.reverse();
}

/** The `count` newest, read by a cursor on the time index (the popup needs no more). */
export async function recentUploads(count: number): Promise<UploadEntry[]> {
  const out: UploadEntry[] = [];
  let cursor = await (await db()).transaction('uploads').store.index('time').openCursor(null, 'prev');
  while (cursor && out.length < count) {
    out.push(cursor.value);
    cursor = await cursor.continue();
  }
  return out;
}

export async function countUploads(): Promise<number> {
  return (await db()).count('uploads');
}

export async function getUpload(id: string): Promise<UploadEntry | undefined> {
  return (await db()).get('uploads', id);
}

export async function removeUpload(id: string): Promise<void> {
  await (await db()).delete('uploads', id);
}

export async function clearUploads(): Promise<void> {
  await (await db()).clear('uploads');
}

/** Adds the imported entries that are not there yet, in one transaction; returns how many were added. */
export async function mergeUploads(incoming: UploadEntry[]): Promise<number> {
  const d = await db();
  const fresh = newEntries(await d.getAll('uploads'), incoming);
  const tx = d.transaction('uploads', 'readwrite');
  try {
    await Promise.all([...fresh.map((e) => tx.store.put(e)), tx.done]);
  } catch (err) {
    throw writeError(err);
  }
  return fresh.length;
}

export async function addPayment(entry: PaymentEntry): Promise<void> {
  try {
    await (await db()).put('payments', entry);
  } catch (err) {
    throw new HistoryWriteError(
      'This payment request could not be added to your history: the browser refused to store it.',
      {
        cause: err,
      },
    );
  }
}

/** Newest first. */
export async function listPayments(): Promise<PaymentEntry[]> {
  return (await (await db()).getAllFromIndex('payments', 'time')).reverse();
}
