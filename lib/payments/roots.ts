import { base64 } from '@scure/base';
import type * as pkijs from 'pkijs';
import { parseCertificate } from './certificates';
import { ROOTS } from './gen/roots.js';

/**
 * A root store: the certificate authorities a signed payment request may chain to. The extension
 * bundles Mozilla's list as Node ships it (generated into gen/roots.js at install); tests and
 * test builds pass their own, or add to the bundled one.
 */
export interface RootStore {
  readonly certificates: readonly pkijs.Certificate[];
  /** Roots that could not be parsed and were left out. */
  readonly skipped: number;
}

export function createRootStore(ders: Iterable<Uint8Array>): RootStore {
  const certificates: pkijs.Certificate[] = [];
  let skipped = 0;
  for (const der of ders) {
    try {
      certificates.push(parseCertificate(der));
    } catch {
      skipped++;
    }
  }
  return { certificates, skipped };
}

export function rootStoreFromBase64(list: Iterable<string>): RootStore {
  const ders: Uint8Array[] = [];
  let skipped = 0;
  for (const text of list) {
    try {
      ders.push(base64.decode(text));
    } catch {
      skipped++;
    }
  }
  const store = createRootStore(ders);
  return { certificates: store.certificates, skipped: store.skipped + skipped };
}

/** A store with extra roots added (e.g. a test CA in a test build). */
export function withExtraRoots(store: RootStore, ders: Iterable<Uint8Array>): RootStore {
  const extra = createRootStore(ders);
  return {
    certificates: [...store.certificates, ...extra.certificates],
    skipped: store.skipped + extra.skipped,
  };
}

export const EMPTY_ROOT_STORE: RootStore = { certificates: [], skipped: 0 };

let bundled: RootStore | undefined;

/** The bundled Mozilla roots, parsed once on first use. */
export function bundledRootStore(): RootStore {
  bundled ??= rootStoreFromBase64(ROOTS);
  return bundled;
}
