// Binds multipart form fields the way ASP.NET model binding did on the real server (teknik.md §3.2).

/** Form fields by lower-cased name; the first value sent for a name wins. */
export type FieldMap = Map<string, string>;

export const DEFAULT_KEY_SIZE = 256;
export const DEFAULT_BLOCK_SIZE = 128;

/** Only `true`/`false` in any letter case bind; anything else (`1`, `on`, …) leaves the default. */
export function bindBool(fields: FieldMap, name: string, fallback: boolean): boolean {
  const value = fields.get(name.toLowerCase())?.trim().toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  return fallback;
}

/** A decimal integer (optional sign), else undefined. */
export function bindInt(fields: FieldMap, name: string): number | undefined {
  const value = fields.get(name.toLowerCase())?.trim();
  if (value === undefined || !/^[+-]?\d{1,15}$/.test(value)) return undefined;
  return Number.parseInt(value, 10);
}

/** A non-empty string, else undefined (an empty field binds like an absent one). */
export function bindText(fields: FieldMap, name: string): string | undefined {
  const value = fields.get(name.toLowerCase());
  return value === undefined || value === '' ? undefined : value;
}

export interface UploadParams {
  encrypt: boolean;
  saveKey: boolean;
  key: string | undefined;
  iv: string | undefined;
  keySize: number;
  blockSize: number;
  genDeletionKey: boolean;
  doNotTrack: boolean;
  contentType: string | undefined;
  /** `ece1` when a client says the file is in the authenticated link format; absent otherwise. */
  linkFormat: string | undefined;
}

const isBool = (v: unknown) => typeof v === 'boolean';
const isOptionalText = (v: unknown) => v === undefined || typeof v === 'string';
const isPositive = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0;

/** Bound parameters as stored (a session of an upload in parts keeps them), or null when not of that shape. */
export function parseUploadParams(json: unknown): UploadParams | null {
  if (typeof json !== 'object' || json === null) return null;
  const p = json as Partial<Record<keyof UploadParams, unknown>>;
  const ok =
    isBool(p.encrypt) &&
    isBool(p.saveKey) &&
    isOptionalText(p.key) &&
    isOptionalText(p.iv) &&
    isPositive(p.keySize) &&
    isPositive(p.blockSize) &&
    isBool(p.genDeletionKey) &&
    isBool(p.doNotTrack) &&
    isOptionalText(p.contentType) &&
    isOptionalText(p.linkFormat);
  return ok ? (p as UploadParams) : null;
}

export function bindUploadParams(fields: FieldMap): UploadParams {
  const keySize = bindInt(fields, 'keySize');
  const blockSize = bindInt(fields, 'blockSize');
  return {
    encrypt: bindBool(fields, 'encrypt', true),
    saveKey: bindBool(fields, 'saveKey', true),
    key: bindText(fields, 'key'),
    iv: bindText(fields, 'iv'),
    keySize: keySize !== undefined && keySize > 0 ? keySize : DEFAULT_KEY_SIZE,
    blockSize: blockSize !== undefined && blockSize > 0 ? blockSize : DEFAULT_BLOCK_SIZE,
    genDeletionKey: bindBool(fields, 'genDeletionKey', false),
    doNotTrack: bindBool(fields, 'doNotTrack', false),
    contentType: bindText(fields, 'contentType'),
    linkFormat: bindText(fields, 'linkFormat'),
  };
}

/** Longest extension a public name keeps: with the 5-character name it stays far inside a record key's 200. */
export const MAX_EXTENSION_CHARS = 64;

/**
 * Extension of the part's file name, as Teknik appended it to public names: the last dot segment with its
 * dot, `.gz` kept with the segment before it (`.tar.gz`), nothing for dot-less names or dot-files. Anything
 * after `#` or `?` is dropped. Extensions with characters that would need escaping in a URL are dropped too,
 * so public links stay plain, and so are extensions longer than MAX_EXTENSION_CHARS.
 */
export function fileExtension(fileName: string): string {
  const base = fileName.split(/[#?]/)[0].split(/[\\/]/).pop() ?? '';
  const segments = base.split('.');
  if (segments.length < 2 || (segments[0] === '' && segments.length === 2)) return '';
  let ext = `.${segments[segments.length - 1]}`;
  const before = segments[segments.length - 2];
  if (ext.toLowerCase() === '.gz' && segments.length >= 3 && before !== '') ext = `.${before}${ext}`;
  return ext.length <= MAX_EXTENSION_CHARS && /^(\.[A-Za-z0-9_-]+)+$/.test(ext) ? ext : '';
}
