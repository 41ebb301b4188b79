// Row l's view of the figures that choose an encrypted upload's way (lib/upload/transport-choice.ts),
// read and written in the extension's IndexedDB from one of its pages, as
// platform/storage/transport-figures.ts keeps them: to start each link from none, to know what the
// warm-up uploads taught, and to send one upload the other way and then put the figures back.
import type { Page } from 'playwright-core';
import { NO_FIGURES, normalizeFigures, type TransportFigures, type UploadWay } from '../lib/upload';
import {
  FIGURES_DB,
  FIGURES_DB_VERSION,
  FIGURES_KEY,
  FIGURES_STORE,
} from '../platform/storage/transport-figures';

const db = { name: FIGURES_DB, version: FIGURES_DB_VERSION, store: FIGURES_STORE, key: FIGURES_KEY };

/** Runs one request on the figures' store from `page` (an extension page): a read, or a put of `put`. */
function onStore(page: Page, put?: TransportFigures): Promise<unknown> {
  return page.evaluate(
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

export const readFigures = async (page: Page) => normalizeFigures(await onStore(page));
export const writeFigures = async (page: Page, figures: TransportFigures) => {
  await onStore(page, figures);
};

/** Samples the figures hold for `origin` (each finished upload there adds one, just after it ends). */
export function samplesFor(figures: TransportFigures, origin: string): number {
  const o = figures.origins[origin];
  return (o?.stream?.samples ?? 0) + (o?.send?.samples ?? 0);
}

/** Waits until an upload's sample has been written (it is written as the upload ends). */
export async function sampleWritten(page: Page, origin: string, before: number, limitMs = 30_000) {
  const end = Date.now() + limitMs;
  while (samplesFor(await readFigures(page), origin) === before) {
    if (Date.now() > end) throw new Error(`No upload rate was recorded for ${origin}.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Figures that send the next upload to `origin` the given way (none at all: the stream first). */
export function figuresFor(origin: string, way: UploadWay): TransportFigures {
  if (way === 'stream') return NO_FIGURES;
  const figure = (rate: number) => ({ rate, samples: 1, at: Date.now() });
  return {
    origins: { [origin]: { stream: figure(1), send: figure(1e12), chosen: 'disk', streamsSinceDisk: 0 } },
    encrypt: { teknik: figure(1e12), ece: figure(1e12) },
  };
}
