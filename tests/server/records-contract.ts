// A promise of the record store (server/storage/types.ts) that both stores' tests check the same way.

import { expect } from 'vitest';
import type { JsonRecord, RecordStore } from '../../server/storage/types';

/**
 * A delete at a version removes the record only while it is at that version; the key is free after, and
 * the record made again there takes no version back (a reader holding one from before cannot write).
 */
export async function expectDeleteAtVersion(records: RecordStore<JsonRecord>, key: string): Promise<void> {
  await records.create(key, { n: 1 });
  const stale = (await records.read(key))!;
  await records.update(key, stale.version, { n: 2 });
  expect(await records.delete(key, stale.version)).toBe(false);
  expect((await records.read(key))?.value).toEqual({ n: 2 });
  expect(await records.delete(key, (await records.read(key))!.version)).toBe(true);
  expect(await records.read(key)).toBeNull();
  expect(await records.delete(key, stale.version)).toBe(false);
  expect(await records.create(key, { n: 3 })).toBe(true);
  expect((await records.read(key))?.value).toEqual({ n: 3 });
  expect(await records.update(key, stale.version, { n: 4 })).toBe(false);
  expect(await records.delete(key, stale.version)).toBe(false);
  expect((await records.read(key))?.value).toEqual({ n: 3 });
}
