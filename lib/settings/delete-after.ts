// "Delete after": the expiry of an upload in plain words (never / 1 download / 1 hour / 1 day /
// 1 week / …), offered only where the server supports it. The wire keeps the seed's pair
// (expireUnit, expireLength); this module maps between the two.
import type { MessageKey } from '../i18n';
import type { ExpireUnit, Variant } from '../upload';

/** The seed's legacy expiry units: what a legacy server that does not describe itself is taken to know. */
export const SEED_LEGACY_UNITS: readonly ExpireUnit[] = [
  'never',
  'view',
  'minute',
  'hour',
  'day',
  'month',
  'year',
];

export interface DeleteAfterChoice {
  /** The select's value: `unit:length`. */
  value: string;
  unit: ExpireUnit;
  length: number;
  label: MessageKey;
}

// The presets, in the order shown. A week is 7 days: the seed has no week unit.
const PRESETS: Omit<DeleteAfterChoice, 'value'>[] = [
  { unit: 'never', length: 1, label: 'deleteNever' },
  { unit: 'view', length: 1, label: 'deleteAfterDownload' },
  { unit: 'hour', length: 1, label: 'deleteAfterHour' },
  { unit: 'day', length: 1, label: 'deleteAfterDay' },
  { unit: 'day', length: 7, label: 'deleteAfterWeek' },
  { unit: 'month', length: 1, label: 'deleteAfterMonth' },
  { unit: 'year', length: 1, label: 'deleteAfterYear' },
];

export function deleteAfterValue(unit: ExpireUnit, length: number): string {
  return unit === 'never' ? 'never:1' : `${unit}:${length}`;
}

/**
 * The choices a server with these expiry units supports. "Never" is always there (it is sending
 * no expiry); a list of only "never" means the server deletes nothing by time, and the caller
 * hides the field.
 */
export function deleteAfterChoices(units: readonly ExpireUnit[]): DeleteAfterChoice[] {
  return PRESETS.filter((p) => p.unit === 'never' || units.includes(p.unit)).map((p) => ({
    ...p,
    value: deleteAfterValue(p.unit, p.length),
  }));
}

/** The choice for a stored (unit, length); undefined when it is not among `choices` (set elsewhere). */
export function chosenDeleteAfter(
  choices: DeleteAfterChoice[],
  unit: ExpireUnit,
  length: number,
): DeleteAfterChoice | undefined {
  const value = deleteAfterValue(unit, length);
  return choices.find((c) => c.value === value);
}

/**
 * The expiry units to offer for a variant: what the server said (its info answer, kept in the
 * profile), else for the legacy variant the seed's units, and none for the current variant
 * (the seed gives it no expiry).
 */
export function expiryUnitsFor(
  known: Partial<Record<Variant, ExpireUnit[]>> | undefined,
  variant: Variant,
): readonly ExpireUnit[] {
  return known?.[variant] ?? (variant === 'legacy' ? SEED_LEGACY_UNITS : []);
}
