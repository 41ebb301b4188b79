// The upload rates this browser measured, per server origin, that choose an encrypted upload's way
// (lib/upload/transport-choice.ts). In IndexedDB, not in extension storage: uploads also run in
// Chromium's offscreen document, which has no extension API but chrome.runtime. Its own small
// database, so the history's schema is not touched. Not secret: rates and origins, never a path.
import { type IDBPDatabase, openDB } from 'idb';
import {
  NO_FIGURES,
  normalizeFigures,
  recordSample,
  type TransportFigures,
  type UploadSample,
} from '../../lib/upload';

export const FIGURES_DB = 'hushdrop-transport';
export const FIGURES_DB_VERSION = 1;
export const FIGURES_STORE = 'figures';
/** The one record (all origins together: a read and a write per upload, a few KiB at most). */
export const FIGURES_KEY = 'rates';

let dbPromise: Promise<IDBPDatabase> | undefined;

function db(): Promise<IDBPDatabase> {
  dbPromise ??= openDB(FIGURES_DB, FIGURES_DB_VERSION, {
    upgrade(database) {
      database.createObjectStore(FIGURES_STORE);
    },
    // Another document deletes or upgrades the database (a reset): let it, and open again next time.
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

/** The figures, or none when they cannot be read (the upload then takes the default way). */
export async function loadTransportFigures(): Promise<TransportFigures> {
  try {
    return normalizeFigures(await (await db()).get(FIGURES_STORE, FIGURES_KEY));
  } catch {
    return NO_FIGURES;
  }
}

/** Adds one finished upload's sample; read and written in one transaction (uploads end side by side). */
export async function recordTransportSample(sample: UploadSample): Promise<void> {
  const tx = (await db()).transaction(FIGURES_STORE, 'readwrite');
  const figures = normalizeFigures(await tx.store.get(FIGURES_KEY));
  await tx.store.put(recordSample(figures, sample, Date.now()), FIGURES_KEY);
  await tx.done;
}
