// What the extension knows of the servers it uploads to (lib/upload/capabilities.ts: one record per
// origin, with its info answer, a refused stream and the measured rates), read and set in its
// IndexedDB as platform/storage/capabilities.ts keeps it, from any of its pages or its service worker:
// the e2e tests read it to see what an upload taught, and set it (or empty it) to see the way a
// record chooses used; the bench empties it before each link and sets one upload's way.
import { type Capabilities, readCapabilities } from '../lib/upload';
import {
  CAPABILITIES_DB,
  CAPABILITIES_DB_VERSION,
  CAPABILITIES_KEY,
  CAPABILITIES_STORE,
} from '../platform/storage/capabilities';

/** A Playwright page or worker of the extension. */
interface Context {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
}

const db = {
  name: CAPABILITIES_DB,
  version: CAPABILITIES_DB_VERSION,
  store: CAPABILITIES_STORE,
  key: CAPABILITIES_KEY,
};

/** One request on the store: a read, or a put of `put`. */
function onStore(where: Context, put?: Capabilities): Promise<unknown> {
  return where.evaluate(
    ({ db: { name, version, store, key }, put }) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open(name, version);
        // Opened here first (a fresh profile): made as the extension makes it.
        open.onupgradeneeded = () => {
          if (!open.result.objectStoreNames.contains(store)) open.result.createObjectStore(store);
        };
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

/** What is stored, as it is (undefined when nothing was written). */
export const storedCapabilities = (where: Context) => onStore(where) as Promise<Capabilities | undefined>;

/** What is stored, as the extension reads it (nothing: no servers, no rates). */
export const readStoredCapabilities = async (where: Context) => readCapabilities(await onStore(where));

export async function writeCapabilities(where: Context, caps: Capabilities): Promise<void> {
  await onStore(where, caps);
}
