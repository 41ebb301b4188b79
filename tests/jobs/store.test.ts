import { describe, expect, it } from 'vitest';
import { type JobOwner, type JobState, jobsInView, newJobState } from '../../lib/jobs/model';
import {
  acceptReport,
  dropOldJobs,
  endJobsOfTab,
  isJobState,
  type Jobs,
  jobsBadge,
  KEEP_FINISHED_MS,
} from '../../lib/jobs/store';
import { newProfile, uploadOptions } from '../../lib/settings';

const BACKGROUND: JobOwner = { kind: 'background' };
const TAB_7: JobOwner = { kind: 'page', tabId: 7 };
const TAB_8: JobOwner = { kind: 'page', tabId: 8 };

function job(id: string, patch: Partial<JobState> = {}): JobState {
  const profile = newProfile('test', 'Test');
  const req = {
    jobId: id,
    profile,
    variant: profile.server.variant,
    options: uploadOptions(profile.defaults),
  };
  return {
    ...newJobState({ ...req, source: { kind: 'text', text: 'x', name: `${id}.txt` } }, 1000),
    ...patch,
  };
}

describe('acceptReport', () => {
  it('takes a page’s report of a new job, and later ones from that tab only', () => {
    const jobs: Jobs = {};
    const first = acceptReport(jobs, job('a'), TAB_7)!;
    expect(first.owner).toEqual(TAB_7);
    jobs.a = first;
    expect(acceptReport(jobs, job('a', { done: 5, total: 10 }), TAB_7)).toMatchObject({ done: 5 });
    expect(acceptReport(jobs, job('a', { state: 'done', link: 'https://x/y' }), TAB_8)).toBeUndefined();
    expect(acceptReport(jobs, job('a', { state: 'done', link: 'https://x/y' }), BACKGROUND)).toBeUndefined();
  });

  it('takes the runner’s reports only for jobs the background made', () => {
    expect(acceptReport({}, job('b'), BACKGROUND)).toBeUndefined();
    const jobs: Jobs = { b: { ...job('b'), owner: BACKGROUND } };
    expect(acceptReport(jobs, job('b', { phase: 'uploading' }), BACKGROUND)).toMatchObject({
      phase: 'uploading',
      owner: BACKGROUND,
    });
    expect(acceptReport(jobs, job('b'), TAB_7)).toBeUndefined();
  });

  it('a finished job does not change any more (a late progress report cannot revive it)', () => {
    const jobs: Jobs = { c: { ...job('c', { state: 'done', link: 'https://x/c' }), owner: TAB_7 } };
    expect(acceptReport(jobs, job('c', { state: 'running', done: 1 }), TAB_7)).toBeUndefined();
    expect(acceptReport(jobs, job('c', { state: 'failed' }), TAB_7)).toBeUndefined();
  });

  it('owner, start time, profile and the copied flag are never taken from the report', () => {
    const jobs: Jobs = { d: { ...job('d', { profileId: 'p1', startedAt: 5 }), owner: BACKGROUND } };
    const forged = { ...job('d', { profileId: 'p2', startedAt: 9, copied: true }), owner: TAB_7 };
    const taken = acceptReport(jobs, forged, BACKGROUND)!;
    expect(taken).toMatchObject({ owner: BACKGROUND, profileId: 'p1', startedAt: 5 });
    expect(taken).not.toHaveProperty('copied');
  });

  it('refuses what is not a job state', () => {
    for (const bad of [
      null,
      'job',
      { ...job('e'), id: '' },
      { ...job('e'), state: 'paused' },
      { ...job('e'), done: -1 },
      { ...job('e'), total: Number.NaN },
      { ...job('e'), phase: 'sleeping' },
      { ...job('e'), link: 42 },
      { ...job('e'), name: undefined },
      { ...job('e'), msLeft: -5 },
      { ...job('e'), msLeft: '12 s' },
      { ...job('e'), waiting: 'yes' },
      // A way out is one the pages know how to offer: a report cannot make them open something else.
      { ...job('e'), state: 'failed', errorWayOut: 'https://elsewhere.test' },
    ]) {
      expect(isJobState(bad), JSON.stringify(bad)).toBe(false);
      expect(acceptReport({}, bad, TAB_7)).toBeUndefined();
    }
    expect(isJobState(job('e'))).toBe(true);
    expect(isJobState({ ...job('e'), msLeft: 12_000 })).toBe(true);
    expect(isJobState({ ...job('e'), waiting: true })).toBe(true);
    expect(isJobState({ ...job('e'), state: 'failed', errorWayOut: 'settings' })).toBe(true);
    expect(isJobState({ ...job('e'), state: 'failed', errorWayOut: 'another-server' })).toBe(true);
  });
});

describe('the rest of the store', () => {
  it('ends the running jobs of a tab that closed, and only those', () => {
    const jobs: Jobs = {
      a: { ...job('a'), owner: TAB_7 },
      b: { ...job('b', { state: 'done' }), owner: TAB_7 },
      c: { ...job('c'), owner: TAB_8 },
      d: { ...job('d'), owner: BACKGROUND },
    };
    const ended = endJobsOfTab(jobs, 7, 'gone');
    expect(ended.map((j) => [j.id, j.state, j.error])).toEqual([['a', 'cancelled', 'gone']]);
  });

  it('drops finished jobs after a while, never running ones', () => {
    const now = 1000 + KEEP_FINISHED_MS + 1;
    const jobs: Jobs = {
      old: job('old', { state: 'failed' }),
      running: job('running'),
      fresh: job('fresh', { state: 'done', startedAt: now - 1 }),
    };
    dropOldJobs(jobs, now);
    expect(Object.keys(jobs).sort()).toEqual(['fresh', 'running']);
  });

  it('the badge shows one running job’s share, or how many run', () => {
    expect(jobsBadge({})).toBe('');
    expect(jobsBadge({ a: job('a', { state: 'done' }) })).toBe('');
    expect(jobsBadge({ a: job('a') })).toBe('…');
    expect(jobsBadge({ a: job('a', { done: 1, total: 3 }) })).toBe('33%');
    expect(jobsBadge({ a: job('a'), b: job('b'), c: job('c', { state: 'failed' }) })).toBe('2');
  });
});

describe('jobsInView', () => {
  it('keeps every running job and only the newest ended ones, in the list’s order (newest first, as the popup lists)', () => {
    const at = (id: string, startedAt: number, state?: JobState['state']) =>
      job(id, { startedAt, ...(state ? { state } : {}) });
    const list = [
      at('f', 6, 'cancelled'),
      at('e', 5),
      at('d', 4, 'done'),
      at('c', 3, 'failed'),
      at('b', 2),
      at('a', 1, 'done'),
    ];
    expect(jobsInView(list, 2).map((j) => j.id)).toEqual(['f', 'e', 'd', 'b']);
    expect(jobsInView(list, 0).map((j) => j.id)).toEqual(['e', 'b']);
    expect(jobsInView(list, 9)).toEqual(list);
    // Oldest first gives the same jobs: the newest ended are chosen by start time, not by place.
    expect(jobsInView([...list].reverse(), 2).map((j) => j.id)).toEqual(['b', 'd', 'e', 'f']);
  });
});
