// What this browser knows of the servers it uploads to, one record per origin, and its own
// encryption rates (lib/upload/capabilities.ts): the planner's memory. In IndexedDB, not extension
// storage: uploads also run in Chromium's offscreen document, which has no extension API but
// chrome.runtime. Its own small database, so the history's schema is not touched. Not secret:
// origins, what their info answers said, and rates; never a path. Read once per upload and changed
// in one transaction per lesson, so every document (a page, the offscreen document, the background)
// sees the same record at once; nothing is cached in memory.
import { type IDBPDatabase, openDB } from 'idb';
import {
  type Capabilities,
  capabilitiesFromRates,
  type Learned,
  learn,
  NO_CAPABILITIES,
  readCapabilities,
} from '../../lib/upload';

export const CAPABILITIES_DB = 'hushdrop-transport';
/** 1: the rates alone (store `figures`, key `rates`); 2: the records (store `servers`). */
export const CAPABILITIES_DB_VERSION = 2;
export const CAPABILITIES_STORE = 'servers';
/** The one record (all origins together: a read and a write per lesson, a few KiB at most). */
export const CAPABILITIES_KEY = 'capabilities';

let dbPromise: Promise<IDBPDatabase> | undefined;

function db(): Promise<IDBPDatabase> {
  dbPromise ??= openDB(CAPABILITIES_DB, CAPABILITIES_DB_VERSION, {
    async upgrade(database, oldVersion, _newVersion, tx) {
      const store = database.createObjectStore(CAPABILITIES_STORE);
      if (oldVersion < 1 || !database.objectStoreNames.contains('figures')) return;
      // The rates version 1 kept become the records' rates, so no upload loses its way.
      const rates = await tx.objectStore('figures').get('rates');
      await store.put(capabilitiesFromRates(rates), CAPABILITIES_KEY);
      database.deleteObjectStore('figures');
    },
    // Another document deletes or upgrades the database (a reset, an update): let it, open again next time.
    blocking() {
      void dbPromise?.then((open) => open.close());
      dbPromise = undefined;
    },
  }).catch((err) => {
    dbPromise = undefined;
    throw err;
  });
  return dbPromise;
}

/** Everything known, or nothing when it cannot be read (an upload then plans from nothing). */
export async function loadCapabilities(): Promise<Capabilities> {
  try {
    return readCapabilities(await (await db()).get(CAPABILITIES_STORE, CAPABILITIES_KEY));
  } catch {
    return NO_CAPABILITIES;
  }
}

/**
 * Remembers what was learned of `origin`, read and written in one transaction (uploads end side by
 * side). Resolves with what is known now. Never fails an upload: a write that fails costs a lesson.
 */
export async function remember(origin: string, learned: Learned): Promise<Capabilities> {
  try {
    const tx = (await db()).transaction(CAPABILITIES_STORE, 'readwrite');
    const old = readCapabilities(await tx.store.get(CAPABILITIES_KEY));
    const now = learn(old, origin, learned, Date.now());
    if (now !== old) await tx.store.put(now, CAPABILITIES_KEY);
    await tx.done;
    return now;
  } catch {
    return loadCapabilities();
  }
}
