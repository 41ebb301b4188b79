// Expired uploads go on a timer, whether or not anyone asks for them (an injected clock says when "now" is).

import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { SweepReport } from '../../server/uploads/sweeper';
import { storageUnderTest } from './storage-under-test';
import { plantUnreadableRecord } from './stored';
import {
  bytesOf,
  currentUploadUrl,
  form,
  getBytes,
  legacyUploadUrl,
  post,
  serversStoppedAfterEach,
  storedFiles,
} from './test-helpers';

const start = serversStoppedAfterEach();

const HOUR = 3_600_000;

describe('the sweeper', () => {
  it('removes uploads past their date and uploads whose views are used up, unasked, and nothing else', async () => {
    let clock = Date.UTC(2030, 0, 1);
    const sweeps: SweepReport[] = [];
    const waiters: (() => void)[] = [];
    const t = await start({
      record: true,
      now: () => clock,
      settings: { sweepIntervalMs: 50, orphanAgeMs: HOUR },
      onSweep(report) {
        sweeps.push(report);
        for (const wake of waiters.splice(0)) wake();
      },
    });
    const nextSweep = () => new Promise<void>((resolve) => waiters.push(resolve));
    const upload = async (fields: Record<string, string>) =>
      (
        await post(
          legacyUploadUrl(t.server),
          form({ ...fields, encrypt: 'false', file: { bytes: bytesOf('x'), name: 'e.txt' } }),
        )
      ).json.result;

    const inTwoHours = await upload({ expireUnit: 'hour', expireLength: '2' });
    const inADay = await upload({ expireUnit: 'day', expireLength: '1' });
    const oneView = await upload({ expireUnit: 'view', expireLength: '1' });
    const forever = await upload({});
    const current = (
      await post(
        currentUploadUrl(t.server),
        form({ encrypt: 'false', file: { bytes: bytesOf('y'), name: 'c.txt' } }),
      )
    ).json.result;
    expect((await getBytes(oneView.url)).status).toBe(200);
    const requestsBefore = t.server.requests.length;

    // The one view is used: the next sweep removes it (no one asked for it again).
    await nextSweep();
    await nextSweep();
    expect(await t.server.stored(oneView.fileName)).toBeUndefined();
    expect(await t.server.stored(inTwoHours.fileName)).toBeDefined();

    clock += 2 * HOUR;
    await nextSweep();
    await nextSweep();
    expect(await t.server.stored(inTwoHours.fileName)).toBeUndefined();
    expect(await t.server.stored(inADay.fileName)).toBeDefined();

    clock += 22 * HOUR;
    await nextSweep();
    await nextSweep();
    expect(await t.server.stored(inADay.fileName)).toBeUndefined();
    // What never expires stays, bytes and all.
    expect(await t.server.stored(forever.fileName)).toBeDefined();
    expect(await t.server.stored(current.fileName)).toBeDefined();
    expect(await storedFiles(t.server)).toHaveLength(2);
    expect(sweeps.reduce((sum, s) => sum + s.expired, 0)).toBe(3);
    expect(sweeps.every((s) => s.error === undefined)).toBe(true);
    // Nobody asked: no request reached the server since the view.
    expect(t.server.requests.length).toBe(requestsBefore);
  });

  // Disk only: it backdates an orphan's file (utimes); an S3 object's date is the store's clock, which a
  // test cannot set (tests/s3/s3-blobs.test.ts checks that S3 lists blobs with their dates).
  it.skipIf(storageUnderTest() === 's3')(
    'removes bytes no record refers to once they are older than an upload could take',
    async () => {
      const sweeps: SweepReport[] = [];
      const waiters: (() => void)[] = [];
      const t = await start({
        settings: { sweepIntervalMs: 50, orphanAgeMs: HOUR },
        onSweep(report) {
          sweeps.push(report);
          for (const wake of waiters.splice(0)) wake();
        },
      });
      const nextSweep = () => new Promise<void>((resolve) => waiters.push(resolve));
      const live = (
        await post(
          currentUploadUrl(t.server),
          form({ encrypt: 'false', file: { bytes: bytesOf('live'), name: 'l' } }),
        )
      ).json.result;
      // Left by a crash between storing bytes and writing their record: one old, one just now.
      const files = join(t.dataDir, 'files');
      await writeFile(join(files, 'oldOrphan'), 'x');
      const old = new Date(Date.now() - 2 * HOUR);
      await utimes(join(files, 'oldOrphan'), old, old);
      await writeFile(join(files, 'newOrphan'), 'x');
      await nextSweep();
      await nextSweep();
      expect((await storedFiles(t.server)).sort()).toEqual(
        ['newOrphan', (await t.server.stored(live.fileName))!.blobId].sort(),
      );
      expect(sweeps.some((s) => s.orphans === 1)).toBe(true);
    },
  );

  it('skips a record it cannot read, says so, and sweeps the rest (issue 31, finding 3)', async () => {
    let clock = Date.UTC(2030, 0, 1);
    const t = await start({ now: () => clock });
    const { storage, settings } = t.server.hushdrop;
    const expiring = (
      await post(
        legacyUploadUrl(t.server),
        form({
          expireUnit: 'hour',
          expireLength: '1',
          encrypt: 'false',
          file: { bytes: bytesOf('soon'), name: 's.txt' },
        }),
      )
    ).json.result;
    // Keys both before and after the upload's in any listing order.
    await plantUnreadableRecord(storage, settings.s3, '0-broken-record');
    await plantUnreadableRecord(storage, settings.s3, 'zz-oversized-record', { oversized: true });
    clock += 2 * 3_600_000;
    const errors = vi.spyOn(console, 'error');
    try {
      const report = await t.server.hushdrop.sweeper.sweep();
      expect(report.error).toBeUndefined();
      expect(report.expired).toBe(1);
      expect(await t.server.stored(expiring.fileName)).toBeUndefined();
      const said = errors.mock.calls.map((args) => args.join(' ')).join('\n');
      expect(said).toMatch(/unreadable record 0-broken-record/);
      expect(said).toMatch(/unreadable record zz-oversized-record/);
    } finally {
      errors.mockRestore();
    }
  });
});
