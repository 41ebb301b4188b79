// Legacy-variant expiry. Accepts the seed's spelling (expireUnit/expireLength) and the real server's
// (expirationUnit/expirationLength, teknik.md §3.2 and §9); the real server's pair wins on conflict.

import { bindInt, type FieldMap } from './fields';

export type ExpiryUnit = 'never' | 'views' | 'minutes' | 'hours' | 'days' | 'months' | 'years';

const SEED_UNITS: Record<string, ExpiryUnit> = {
  never: 'never',
  view: 'views',
  minute: 'minutes',
  hour: 'hours',
  day: 'days',
  month: 'months',
  year: 'years',
};

// Enum member names (any case) and their numbers, as Teknik's UploadExpirationUnit bound them.
const REAL_UNITS: Record<string, ExpiryUnit> = {
  never: 'never',
  views: 'views',
  minutes: 'minutes',
  hours: 'hours',
  days: 'days',
  months: 'months',
  years: 'years',
  '0': 'never',
  '1': 'views',
  '10': 'minutes',
  '11': 'hours',
  '12': 'days',
  '13': 'months',
  '14': 'years',
};

export interface ExpiryRequest {
  unit: ExpiryUnit;
  length: number;
}

function lookup(table: Record<string, ExpiryUnit>, value: string | undefined): ExpiryUnit | undefined {
  const name = value?.trim().toLowerCase();
  return name !== undefined && Object.hasOwn(table, name) ? table[name] : undefined;
}

const UNITS = new Set<unknown>(Object.values(SEED_UNITS));

/** An expiry request as stored (a session of an upload in parts keeps it), or null when not of that shape. */
export function parseExpiryRequest(json: unknown): ExpiryRequest | null {
  if (typeof json !== 'object' || json === null) return null;
  const { unit, length } = json as Record<string, unknown>;
  return UNITS.has(unit) && Number.isSafeInteger(length) ? (json as ExpiryRequest) : null;
}

export function bindExpiry(fields: FieldMap): ExpiryRequest {
  const realUnit = lookup(REAL_UNITS, fields.get('expirationunit'));
  const seedUnit = lookup(SEED_UNITS, fields.get('expireunit'));
  const realLength = bindInt(fields, 'expirationLength');
  const seedLength = bindInt(fields, 'expireLength');
  if (realUnit !== undefined) return { unit: realUnit, length: realLength ?? seedLength ?? 1 };
  if (seedUnit !== undefined) return { unit: seedUnit, length: seedLength ?? realLength ?? 1 };
  return { unit: 'never', length: 1 };
}

export interface ExpiryOutcome {
  /** 0 = unlimited. */
  maxDownloads: number;
  /** ISO 8601 with the server's UTC offset, or null. */
  expirationDate: string | null;
  /** Same instant in ms since the epoch, or null. */
  expiresAt: number | null;
}

/** Like .NET AddMonths: the day is clamped to the target month's last day (Jan 31 + 1 month = Feb 28/29). */
function addCalendarMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getDate();
  result.setDate(1);
  result.setMonth(result.getMonth() + months);
  const lastDay = new Date(result.getFullYear(), result.getMonth() + 1, 0).getDate();
  result.setDate(Math.min(day, lastDay));
  return result;
}

export function computeExpiry(request: ExpiryRequest, nowMs: number): ExpiryOutcome {
  const { unit, length } = request;
  if (unit === 'never') return { maxDownloads: 0, expirationDate: null, expiresAt: null };
  if (unit === 'views') return { maxDownloads: length, expirationDate: null, expiresAt: null };
  const now = new Date(nowMs);
  let at: Date;
  if (unit === 'minutes') at = new Date(nowMs + length * 60_000);
  else if (unit === 'hours') at = new Date(nowMs + length * 3_600_000);
  else if (unit === 'days') {
    // Wall-clock days, as DateTime.Now.AddDays gave.
    at = new Date(nowMs);
    at.setDate(at.getDate() + length);
  } else at = addCalendarMonths(now, unit === 'months' ? length : length * 12);
  return { maxDownloads: 0, expirationDate: isoWithOffset(at), expiresAt: at.getTime() };
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Local time with its UTC offset and trimmed fractional seconds, shaped like Newtonsoft.Json's output. */
export function isoWithOffset(date: Date): string {
  const offsetMinutes = -date.getTimezoneOffset();
  const sign = offsetMinutes >= 0 ? '+' : '-';
  const abs = Math.abs(offsetMinutes);
  const fraction = pad(date.getMilliseconds(), 3).replace(/0+$/, '');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    (fraction ? `.${fraction}` : '') +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}
