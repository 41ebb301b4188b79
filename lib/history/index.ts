// Upload history entries: their shape, how each is opened, and the checks an imported file must
// pass. Persistence (IndexedDB) lives in platform/storage/history.ts.
import { ECE_LINK_PREFIX, LINK_KEY_LENGTHS, type LinkFormat, readSecret } from '../crypto/link';
import { IV_LENGTH, isAlphabetText } from '../crypto/text';
import { formatBytes, type MessageKey, t } from '../i18n';
import type { Mode, Variant } from '../upload';

export interface UploadEntry {
  id: string;
  /** The link to share: for client mode `url#key`, or `url#ece1.<key>` in the authenticated format. */
  link: string;
  /** The server's URL of the stored file (no fragment). */
  url: string;
  fileName: string;
  /** The Teknik key; in the authenticated format the secret's 22 base64url characters. */
  key?: string;
  iv?: string;
  variant: Variant;
  mode: Mode;
  deletionLink?: string;
  expirationDate?: string;
  maxDownloads?: number;
  size: number;
  type: string;
  name: string;
  /** ms since the epoch */
  time: number;
  server: string;
  /** SHA-256 of the original bytes (hex), kept for files up to HASHED_UP_TO so the viewer can check a download. */
  sha256?: string;
  /** Server mode: the server kept the key and serves the file decrypted (absent in entries made before this was recorded). */
  keyKept?: boolean;
  /** Client mode: `ece` when the file is in the authenticated format (absent: Teknik's). */
  format?: LinkFormat;
}

/** The fragment a client-mode entry's link carries: its key, or `ece1.` and the secret. */
export function entryFragment(entry: Pick<UploadEntry, 'key' | 'format'>): string | undefined {
  if (entry.key === undefined) return undefined;
  return entry.format === 'ece' ? ECE_LINK_PREFIX + entry.key : entry.key;
}

function isSecretText(text: string): boolean {
  try {
    readSecret(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * How an upload is opened: `decrypt` — download and decrypt with the entry's key (and its IV, or
 * the one derived from the key); `direct` — the server serves the file as it was uploaded.
 */
export function openingOf(
  entry: Pick<UploadEntry, 'mode' | 'key' | 'keyKept' | 'link'>,
): 'decrypt' | 'direct' {
  if (entry.mode === 'none') return 'direct';
  if (entry.mode === 'server')
    return entry.keyKept === true || !entry.key || !entry.link.includes('#') ? 'direct' : 'decrypt';
  return entry.key ? 'decrypt' : 'direct';
}

/** Files up to this size get their SHA-256 recorded (WebCrypto hashes in one call, so the bytes are read whole). */
export const HASHED_UP_TO = 64 * 1024 * 1024;

export class HistoryImportError extends Error {
  override name = 'HistoryImportError';
}

/** An import larger than this is refused before it is read (a real history is a few hundred KiB). */
export const IMPORT_MAX_BYTES = 4 * 1024 * 1024;
/** The most entries one import may bring. */
export const IMPORT_MAX_ENTRIES = 5000;

const str = (v: unknown) => typeof v === 'string';
const optStr = (v: unknown) => v === undefined || typeof v === 'string';
const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

type Problem = [MessageKey, ...string[]];

/** Checks one entry of an import; returns the reason it is unusable (a message and its words after the entry's number), or undefined. */
function entryProblem(e: any): Problem | undefined {
  if (!e || typeof e !== 'object') return ['importNotObject'];
  for (const k of ['id', 'link', 'url', 'fileName', 'type', 'name', 'server'] as const)
    if (!str(e[k])) return ['importMissing', k];
  for (const k of ['key', 'iv', 'deletionLink', 'expirationDate'] as const)
    if (!optStr(e[k])) return ['importInvalid', k];
  if (e.sha256 !== undefined && !/^[0-9a-f]{64}$/.test(e.sha256)) return ['importInvalid', 'sha256'];
  if (!num(e.size) || !num(e.time)) return ['importNoSizeTime'];
  if (e.variant !== 'legacy' && e.variant !== 'current') return ['importUnknownVariant'];
  if (e.mode !== 'client' && e.mode !== 'server' && e.mode !== 'none') return ['importUnknownMode'];
  if (e.keyKept !== undefined && typeof e.keyKept !== 'boolean') return ['importInvalid', 'keyKept'];
  for (const k of ['link', 'url', 'deletionLink', 'server'] as const) {
    if (e[k] === undefined) continue;
    const proto = URL.canParse(e[k]) ? new URL(e[k]).protocol : '';
    if (proto !== 'http:' && proto !== 'https:') return ['importNotWeb', k];
  }
  if (e.format !== undefined && !(e.format === 'ece' && e.mode === 'client' && e.iv === undefined))
    return ['importInvalid', 'format'];
  if (
    e.format === 'ece'
      ? !(str(e.key) && isSecretText(e.key))
      : e.key !== undefined && !(isAlphabetText(e.key) && LINK_KEY_LENGTHS.includes(e.key.length))
  )
    return ['importBadKey'];
  if (e.iv !== undefined && !(isAlphabetText(e.iv) && e.iv.length === IV_LENGTH))
    return ['importBadIv', String(IV_LENGTH)];
  if (e.url.includes('#')) return ['importHashInUrl'];
  // The link is the file's address, or that address with the entry's own key after “#”.
  if (e.link !== e.url && !(e.key !== undefined && e.link === `${e.url}#${entryFragment(e)}`))
    return ['importLinkMismatch'];
  // A deletion link is followed by a click: it must go to the server that has the file.
  if (e.deletionLink !== undefined && new URL(e.deletionLink).origin !== new URL(e.url).origin)
    return ['importForeignDeletion', new URL(e.deletionLink).host];
  return undefined;
}

export const EXPORT_FORMAT = 'hushdrop-history';

export function exportHistory(entries: UploadEntry[]): string {
  return JSON.stringify({ format: EXPORT_FORMAT, version: 1, uploads: entries }, null, 2);
}

/**
 * Reads an export file: its size is checked before a byte of it is read, so a huge file is
 * refused without being loaded into memory.
 */
export async function readHistoryExport(file: Blob): Promise<UploadEntry[]> {
  if (file.size > IMPORT_MAX_BYTES)
    throw new HistoryImportError(t('importTooLarge', formatBytes(IMPORT_MAX_BYTES)));
  return parseHistoryExport(await file.text());
}

/** Parses an export; throws HistoryImportError with a sentence, and accepts nothing if any entry is bad. */
export function parseHistoryExport(text: string): UploadEntry[] {
  if (text.length > IMPORT_MAX_BYTES)
    throw new HistoryImportError(t('importTooLarge', formatBytes(IMPORT_MAX_BYTES)));
  let data: any;
  try {
    data = JSON.parse(text);
  } catch {
    throw new HistoryImportError(t('importUnreadable'));
  }
  if (!data || data.format !== EXPORT_FORMAT || !Array.isArray(data.uploads))
    throw new HistoryImportError(t('importNotExport'));
  if (data.uploads.length > IMPORT_MAX_ENTRIES)
    throw new HistoryImportError(t('importTooMany', data.uploads.length, IMPORT_MAX_ENTRIES));
  const out: UploadEntry[] = [];
  data.uploads.forEach((e: any, i: number) => {
    const p = entryProblem(e);
    if (p) {
      const [key, ...words] = p;
      throw new HistoryImportError(t(key, i + 1, ...words));
    }
    const clean: UploadEntry = {
      id: e.id,
      link: e.link,
      url: e.url,
      fileName: e.fileName,
      variant: e.variant,
      mode: e.mode,
      size: e.size,
      type: e.type,
      name: e.name,
      time: e.time,
      server: e.server,
    };
    for (const k of ['key', 'iv', 'deletionLink', 'expirationDate', 'sha256'] as const)
      if (e[k] !== undefined) clean[k] = e[k];
    if (num(e.maxDownloads)) clean.maxDownloads = e.maxDownloads;
    if (typeof e.keyKept === 'boolean') clean.keyKept = e.keyKept;
    if (e.format === 'ece') clean.format = 'ece';
    out.push(clean);
  });
  return out;
}

/** Entries of `incoming` that are not already present (same id, or same link). */
export function newEntries(existing: UploadEntry[], incoming: UploadEntry[]): UploadEntry[] {
  const ids = new Set(existing.map((e) => e.id));
  const links = new Set(existing.map((e) => e.link));
  const out: UploadEntry[] = [];
  for (const e of incoming) {
    if (ids.has(e.id) || links.has(e.link)) continue;
    ids.add(e.id);
    links.add(e.link);
    out.push(e);
  }
  return out;
}
