import { describe, expect, it } from 'vitest';
import {
  chosenDeleteAfter,
  deleteAfterChoices,
  deleteAfterValue,
  expiryUnitsFor,
  SEED_LEGACY_UNITS,
} from '../../lib/settings/delete-after';

const labels = (units: Parameters<typeof deleteAfterChoices>[0]) =>
  deleteAfterChoices(units).map((c) => c.label);

describe('"Delete after"', () => {
  it('offers never, 1 download, 1 hour, 1 day, 1 week, 1 month, 1 year for the seed’s units', () => {
    expect(labels(SEED_LEGACY_UNITS)).toEqual([
      'deleteNever',
      'deleteAfterDownload',
      'deleteAfterHour',
      'deleteAfterDay',
      'deleteAfterWeek',
      'deleteAfterMonth',
      'deleteAfterYear',
    ]);
    expect(deleteAfterChoices(SEED_LEGACY_UNITS).find((c) => c.label === 'deleteAfterWeek')).toMatchObject({
      unit: 'day',
      length: 7,
    });
  });

  it('offers only what the server supports, and only "never" to a server without expiry', () => {
    expect(labels(['never', 'view', 'day'])).toEqual([
      'deleteNever',
      'deleteAfterDownload',
      'deleteAfterDay',
      'deleteAfterWeek',
    ]);
    expect(labels([])).toEqual(['deleteNever']);
    expect(labels(['minute'])).toEqual(['deleteNever']);
  });

  it('finds the stored (unit, length) among the choices, and not one set elsewhere', () => {
    const choices = deleteAfterChoices(SEED_LEGACY_UNITS);
    expect(chosenDeleteAfter(choices, 'day', 7)?.label).toBe('deleteAfterWeek');
    expect(chosenDeleteAfter(choices, 'never', 9)?.label).toBe('deleteNever');
    expect(chosenDeleteAfter(choices, 'day', 3)).toBeUndefined();
    expect(deleteAfterValue('view', 1)).toBe('view:1');
  });

  it('takes the units the server named, else the seed’s for legacy and none for current', () => {
    expect(expiryUnitsFor(undefined, 'legacy')).toEqual(SEED_LEGACY_UNITS);
    expect(expiryUnitsFor(undefined, 'current')).toEqual([]);
    expect(expiryUnitsFor({ legacy: ['view'] }, 'legacy')).toEqual(['view']);
    expect(expiryUnitsFor({ current: ['hour'] }, 'current')).toEqual(['hour']);
    expect(expiryUnitsFor({ current: ['hour'] }, 'legacy')).toEqual(SEED_LEGACY_UNITS);
  });
});
