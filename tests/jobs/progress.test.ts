// The arithmetic of the one progress bar (lib/jobs/progress.ts) and the words it is shown with.
import { describe, expect, it } from 'vitest';
import { formatBytesOf } from '../../lib/i18n';
import { jobShare, PHASE_WEIGHT, progressTracker, timeLeftMs } from '../../lib/jobs/progress';
import { formatTimeLeft, progressDetail } from '../../lib/jobs/progress-text';

const MIB = 1024 * 1024;
const BOTH = ['encrypting', 'uploading'] as const;

describe('one bar over the whole job', () => {
  it('encrypting fills its share, and sending goes on from there', () => {
    const enc = PHASE_WEIGHT.encrypting;
    expect(jobShare({ phases: BOTH, phase: 'encrypting', done: 0, total: 100 })).toBe(0);
    expect(jobShare({ phases: BOTH, phase: 'encrypting', done: 100, total: 100 })).toBeCloseTo(enc);
    expect(jobShare({ phases: BOTH, phase: 'uploading', done: 0, total: 130 })).toBeCloseTo(enc);
    expect(jobShare({ phases: BOTH, phase: 'uploading', done: 65, total: 130 })).toBeCloseTo(
      enc + (1 - enc) / 2,
    );
    expect(jobShare({ phases: BOTH, phase: 'uploading', done: 130, total: 130 })).toBe(1);
  });

  it('a job that only sends fills the bar with it, counted by the request whatever its size', () => {
    expect(jobShare({ phases: ['uploading'], phase: 'uploading', done: 512, total: 1024 })).toBe(0.5);
    // More than the total (a browser's last event) or nothing to send never leaves 0..1.
    expect(jobShare({ phases: ['uploading'], phase: 'uploading', done: 2000, total: 1024 })).toBe(1);
    expect(jobShare({ phases: ['uploading'], phase: 'uploading', done: 0, total: 0 })).toBe(0);
  });

  it('never goes back, even when a refused stream starts again from a disk copy', () => {
    let now = 0;
    const track = progressTracker(20 * MIB, () => now);
    const seen: number[] = [];
    const report = (
      phases: readonly ('encrypting' | 'uploading')[],
      phase: 'encrypting' | 'uploading',
      done: number,
    ) => {
      now += 100;
      seen.push(track({ phases, phase, done, total: 100 }).done);
    };
    report(['uploading'], 'uploading', 10);
    report(BOTH, 'encrypting', 0);
    report(BOTH, 'encrypting', 50);
    report(BOTH, 'encrypting', 100);
    report(BOTH, 'uploading', 0);
    report(BOTH, 'uploading', 40);
    report(BOTH, 'uploading', 100);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]!);
    expect(seen[0]).toBe(Math.floor(0.1 * 20 * MIB));
    expect(seen.at(-1)).toBe(20 * MIB);
  });

  it('counts bytes of the file’s own size, not the request’s', () => {
    const track = progressTracker(22, () => 0);
    // A 22-byte file goes out in a request of about 1 KiB.
    expect(track({ phases: ['uploading'], phase: 'uploading', done: 1100, total: 1100 }).done).toBe(22);
  });
});

describe('time left', () => {
  it('is the pace so far applied to what is left', () => {
    expect(timeLeftMs(0.25, 4000)).toBe(12_000);
    expect(timeLeftMs(1, 4000)).toBe(0);
  });

  it('is not told while too little is done, or too little time has passed', () => {
    expect(timeLeftMs(0, 10_000)).toBeUndefined();
    expect(timeLeftMs(0.005, 10_000)).toBeUndefined();
    expect(timeLeftMs(0.5, 200)).toBeUndefined();
  });

  it('is measured from the first report, not from when the job was made', () => {
    let now = 50_000;
    const track = progressTracker(100, () => now);
    expect(track({ phases: ['uploading'], phase: 'uploading', done: 0, total: 100 }).msLeft).toBeUndefined();
    now += 2000;
    expect(track({ phases: ['uploading'], phase: 'uploading', done: 50, total: 100 }).msLeft).toBe(2000);
  });
});

describe('progress in words', () => {
  it('writes the part in the whole’s unit', () => {
    expect(formatBytesOf(3.4 * MIB, 20 * MIB)).toBe('3.4 of 20 MiB');
    expect(formatBytesOf(0, 20 * MIB)).toBe('0 of 20 MiB');
    expect(formatBytesOf(900 * 1024, 2 * MIB)).toBe('0.9 of 2 MiB');
    expect(formatBytesOf(10, 22)).toBe('10 of 22 bytes');
  });

  it('rounds the time left up, in seconds, minutes, then hours', () => {
    expect(formatTimeLeft(12_300)).toBe('13 s');
    expect(formatTimeLeft(0)).toBe('1 s');
    expect(formatTimeLeft(200_000)).toBe('4 min');
    expect(formatTimeLeft(4_000_000)).toBe('1 h 7 min');
  });

  it('joins bytes and time left, and says bytes alone until the time can be told', () => {
    expect(progressDetail(3.4 * MIB, 20 * MIB, 12_000)).toBe('3.4 of 20 MiB · 12 s left');
    expect(progressDetail(3.4 * MIB, 20 * MIB)).toBe('3.4 of 20 MiB');
  });
});
