// Upload jobs as the popup sees them: kept in session storage so a reopened popup shows them
// and a sleeping service worker loses nothing.
import { storage } from '@wxt-dev/storage';
import type { JobState } from '../messages';

export const jobsItem = storage.defineItem<Record<string, JobState>>('session:jobs', { fallback: {} });

let queue: Promise<unknown> = Promise.resolve();

/** Read-modify-write of the jobs, one at a time (progress messages arrive in bursts). */
export function changeJobs(
  change: (jobs: Record<string, JobState>) => void,
): Promise<Record<string, JobState>> {
  const next = queue.then(async () => {
    const jobs = { ...(await jobsItem.getValue()) };
    change(jobs);
    // Finished jobs stay listed for a while, then go; history has them for good.
    const cutoff = Date.now() - 10 * 60_000;
    for (const [id, j] of Object.entries(jobs))
      if (j.state !== 'running' && j.startedAt < cutoff) delete jobs[id];
    await jobsItem.setValue(jobs);
    return jobs;
  });
  queue = next.catch(() => {});
  return next;
}
