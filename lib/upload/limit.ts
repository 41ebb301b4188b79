// What is known about the largest upload a server takes. A server that refuses a file for size
// (HTTP 413) may state its limit, as Teknik does ("File Too Large.  Max file size is 1 GB", binary
// units); a proxy in front of it usually does not, and then all that is known is that the limit
// is below the refused size.
import { formatNumber, plural, t } from '../i18n';

export interface SizeLimit {
  bytes: number;
  /** 'at-most': files up to `bytes` go (stated by the server or set by hand); 'below': a file of `bytes` was refused. */
  kind: 'at-most' | 'below';
}

const UNITS: Record<string, number> = { B: 1, BYTES: 1, KB: 2 ** 10, MB: 2 ** 20, GB: 2 ** 30, TB: 2 ** 40 };

export function limitFromMessage(message: string | undefined): number | undefined {
  const m = /max(?:imum)? file size is\s+([\d.,]+)\s*([KMGT]?i?B|bytes)/i.exec(message ?? '');
  if (!m) return undefined;
  const n = Number(m[1]!.replace(/,/g, ''));
  const unit = UNITS[m[2]!.toUpperCase().replace('IB', 'B')];
  return Number.isFinite(n) && unit ? Math.floor(n * unit) : undefined;
}

/** What a refusal for size teaches: the limit the server stated, or else "below this file's size". */
export function learnedLimit(message: string | undefined, refusedSize: number): SizeLimit {
  const stated = limitFromMessage(message);
  return stated !== undefined ? { bytes: stated, kind: 'at-most' } : { bytes: refusedSize, kind: 'below' };
}

export function fitsLimit(limit: SizeLimit, size: number): boolean {
  return limit.kind === 'at-most' ? size <= limit.bytes : size < limit.bytes;
}

const UNIT_NAMES = ['', 'KiB', 'MiB', 'GiB', 'TiB'];

/**
 * A size for a sentence about a limit: exact when it is a whole number of units ("512 KiB",
 * "1 GiB"), otherwise rounded up to one decimal, so "at most" and "smaller than" stay true.
 */
export function limitSize(bytes: number): string {
  let i = 0;
  while (i < UNIT_NAMES.length - 1 && bytes >= 1024 ** (i + 1)) i++;
  if (i === 0) return plural('bytes', bytes);
  const value = bytes / 1024 ** i;
  return `${formatNumber(Number.isInteger(value) ? value : Math.ceil(value * 10) / 10)} ${UNIT_NAMES[i]}`;
}

/** "at most 1 GiB" or "smaller than 512 KiB". */
export function limitText(limit: SizeLimit): string {
  return t(limit.kind === 'at-most' ? 'limitAtMost' : 'limitBelow', limitSize(limit.bytes));
}

/** "files of at most 1 GiB" or "files smaller than 512 KiB". */
export function filesWithin(limit: SizeLimit): string {
  return t(limit.kind === 'at-most' ? 'filesAtMost' : 'filesBelow', limitSize(limit.bytes));
}

/**
 * Reads a stored limit, in the current shape or in settings version 2's (a number of bytes that
 * fit). Version 2 stored a refused size as that size minus one byte; such values are read back
 * as "below" the refused size, whole units as "at most": either way the same files fit.
 */
export function readSizeLimit(value: unknown): SizeLimit | undefined {
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value > 0
      ? value % 1024 === 0
        ? { bytes: value, kind: 'at-most' }
        : { bytes: value + 1, kind: 'below' }
      : undefined;
  const v = value as Partial<SizeLimit> | undefined;
  if (typeof v?.bytes !== 'number' || !Number.isSafeInteger(v.bytes) || v.bytes <= 0) return undefined;
  return v.kind === 'at-most' || v.kind === 'below' ? { bytes: v.bytes, kind: v.kind } : undefined;
}
