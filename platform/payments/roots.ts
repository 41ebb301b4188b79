// Extra certificate authorities trusted for payment requests, on top of the bundled Mozilla
// roots: a private CA a shop uses, or a test merchant's CA in tests. Kept in local storage as
// base64 DER (never sync: a root decides whose requests show as verified).
import { base64 } from '@scure/base';
import { storage } from '@wxt-dev/storage';
import { t } from '../../lib/i18n';
import { displayNameOf, organizationOf, parseCertificate } from '../../lib/payments/certificates';
import { bundledRootStore, type RootStore, rootStoreFromBase64 } from '../../lib/payments/roots';

export const paymentRootsItem = storage.defineItem<string[]>('local:paymentRoots', { fallback: [] });

/** Too many extra roots would make every check slow and is surely a mistake. */
const MAX_EXTRA_ROOTS = 50;

export class RootInputError extends Error {
  override name = 'RootInputError';
}

export interface ExtraRoot {
  /** Base64 DER, also the key to remove it by. */
  der64: string;
  name: string;
  organization?: string;
  notAfter?: Date;
  /** SHA-256 of the DER, as colon-separated upper-case hex. */
  fingerprint: string;
}

export async function loadExtraRoots(): Promise<string[]> {
  const value = await paymentRootsItem.getValue();
  return Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [];
}

/**
 * The last store handed out, under the exact list of extra roots it was made from. Every payment
 * request asks for the store, and the chain check indexes a store the first time it sees it
 * (lib/payments/chain.ts: each root re-encoded and its name prepared, tens of milliseconds for
 * Mozilla's list): a new object per request redid that, and re-parsed the extra roots, each time.
 */
let lastStore: { list: string; store: RootStore } | undefined;

/** The bundled Mozilla roots plus the person's own; the same object until that list changes. */
export async function paymentRootStore(): Promise<RootStore> {
  const extraRoots = await loadExtraRoots();
  // The whole list as the key: a root added, removed or replaced makes a new store.
  const list = JSON.stringify(extraRoots);
  if (lastStore?.list !== list) {
    const bundled = bundledRootStore();
    const extra = rootStoreFromBase64(extraRoots);
    const store = {
      certificates: [...bundled.certificates, ...extra.certificates],
      skipped: bundled.skipped + extra.skipped,
    };
    lastStore = { list, store };
  }
  return lastStore.store;
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/** DER certificates from pasted PEM text (one or more blocks). Throws RootInputError with a sentence. */
export function certificatesFromPem(text: string): Uint8Array[] {
  const blocks = [...text.matchAll(PEM_BLOCK)].map((m) => m[1]!.replace(/\s+/g, ''));
  if (blocks.length === 0) {
    throw new RootInputError(t('payRootNotPem'));
  }
  return blocks.map((b64, i) => {
    const which = blocks.length > 1 ? t('payWhatCertificateN', i + 1) : t('payWhatCertificate');
    let der: Uint8Array;
    try {
      der = base64.decode(b64);
    } catch {
      throw new RootInputError(t('payRootNotBase64', which));
    }
    try {
      parseCertificate(der);
    } catch {
      throw new RootInputError(t('payRootNotX509', which));
    }
    return der;
  });
}

async function fingerprintOf(der: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', der as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
}

export async function describeRoot(der64: string): Promise<ExtraRoot> {
  const der = base64.decode(der64);
  const fingerprint = await fingerprintOf(der);
  try {
    const cert = parseCertificate(der);
    const root: ExtraRoot = { der64, name: displayNameOf(cert.subject), fingerprint };
    const organization = organizationOf(cert.subject);
    if (organization !== undefined && organization !== root.name) root.organization = organization;
    root.notAfter = cert.notAfter.value;
    return root;
  } catch {
    return { der64, name: t('payRootUnreadable'), fingerprint };
  }
}

export async function listExtraRoots(): Promise<ExtraRoot[]> {
  return Promise.all((await loadExtraRoots()).map(describeRoot));
}

/** Adds the certificates in `pem`; returns how many were new. */
export async function addExtraRootsFromPem(pem: string): Promise<number> {
  const ders = certificatesFromPem(pem);
  const current = await loadExtraRoots();
  const fresh = ders
    .map((der) => base64.encode(der))
    .filter((d, i, all) => !current.includes(d) && all.indexOf(d) === i);
  if (current.length + fresh.length > MAX_EXTRA_ROOTS) {
    throw new RootInputError(t('payRootTooMany', MAX_EXTRA_ROOTS));
  }
  if (fresh.length > 0) await paymentRootsItem.setValue([...current, ...fresh]);
  return fresh.length;
}

export async function removeExtraRoot(der64: string): Promise<void> {
  await paymentRootsItem.setValue((await loadExtraRoots()).filter((d) => d !== der64));
}
