// The rates the extension measured on its uploads, which choose an encrypted upload's way
// (lib/upload/transport-choice.ts), read and set in its IndexedDB as
// platform/storage/transport-figures.ts keeps them, from any of its pages or its service worker: the
// e2e tests set them to see the chosen way used (or empty them so an upload streams as with none),
// and the bench empties them before each link and sends one upload the other way.
import { normalizeFigures, type TransportFigures } from '../lib/upload';
import {
  FIGURES_DB,
  FIGURES_DB_VERSION,
  FIGURES_KEY,
  FIGURES_STORE,
} from '../platform/storage/transport-figures';

/** A Playwright page or worker of the extension. */
interface Context {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
}

const db = { name: FIGURES_DB, version: FIGURES_DB_VERSION, store: FIGURES_STORE, key: FIGURES_KEY };

/** One request on the figures' store: a read, or a put of `put`. */
function onStore(where: Context, put?: TransportFigures): Promise<unknown> {
  return where.evaluate(
    ({ db: { name, version, store, key }, put }) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open(name, version);
        open.onupgradeneeded = () => open.result.createObjectStore(store);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(store, put ? 'readwrite' : 'readonly');
          const request = put ? tx.objectStore(store).put(put, key) : tx.objectStore(store).get(key);
          tx.oncomplete = () => {
            open.result.close();
            resolve(put ? undefined : request.result);
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    { db, put },
  );
}

/** The stored figures as they are (undefined when none were written). */
export const storedTransportFigures = (where: Context) =>
  onStore(where) as Promise<TransportFigures | undefined>;

/** The stored figures, as the extension reads them (none: empty figures). */
export const readTransportFigures = async (where: Context) => normalizeFigures(await onStore(where));

export async function writeTransportFigures(where: Context, figures: TransportFigures): Promise<void> {
  await onStore(where, figures);
}
