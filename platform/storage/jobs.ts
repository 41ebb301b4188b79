// Upload jobs as every view sees them (popup, upload page, badge): kept in session storage, so a
// reopened popup shows them and a sleeping service worker loses nothing. The background is the
// only writer (platform/upload/host.ts); its rules are lib/jobs/store.ts.
import { storage } from '@wxt-dev/storage';
import type { JobState } from '../../lib/jobs/model';
import { dropOldJobs, type Jobs } from '../../lib/jobs/store';

export const jobsItem = storage.defineItem<Jobs>('session:jobs', { fallback: {} });

let queue: Promise<unknown> = Promise.resolve();

/**
 * Read-modify-write of the jobs, one at a time (progress messages arrive in bursts). `change` edits
 * the jobs in place and may return a value, which this resolves with beside the jobs. Nothing is
 * written when nothing changed.
 */
export function changeJobs<T = void>(change: (jobs: Jobs) => T): Promise<{ jobs: Jobs; result: T }> {
  const next = queue.then(async () => {
    const stored = await jobsItem.getValue();
    const jobs = { ...stored };
    const result = change(jobs);
    dropOldJobs(jobs, Date.now());
    if (JSON.stringify(jobs) !== JSON.stringify(stored)) await jobsItem.setValue(jobs);
    return { jobs, result };
  });
  queue = next.catch(() => {});
  return next;
}

/** Calls `show` with the jobs now and after every change; returns the function that stops it. */
export function watchJobs(show: (jobs: JobState[]) => void): () => void {
  const sorted = (all: Jobs | null) => Object.values(all ?? {}).sort((a, b) => b.startedAt - a.startedAt);
  let changed = false;
  jobsItem.getValue().then((all) => changed || show(sorted(all)));
  return jobsItem.watch((all) => {
    changed = true;
    show(sorted(all));
  });
}
