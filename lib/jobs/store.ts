// The rules of the job store (platform/storage/jobs.ts keeps it in session storage): which report
// it takes, from whom, and how long a finished job stays listed. Reports come from other contexts
// through messages, so each is checked here before it changes anything.
import type { JobOwner, JobState } from './model';

export type Jobs = Record<string, JobState>;

/** Finished jobs stay listed this long; the history keeps them for good. */
export const KEEP_FINISHED_MS = 10 * 60_000;

const STATES = new Set(['running', 'done', 'failed', 'cancelled']);
const PHASES = new Set([undefined, 'preparing', 'encrypting', 'uploading']);
const WAYS_OUT = new Set([undefined, 'settings', 'another-server']);

const text = (v: unknown, optional = true) => (optional && v === undefined) || typeof v === 'string';
const count = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Whether `value` has the shape of a JobState (a report is a message: nothing is assumed). */
export function isJobState(value: unknown): value is JobState {
  if (typeof value !== 'object' || value === null) return false;
  const j = value as Record<string, unknown>;
  return (
    text(j.id, false) &&
    (j.id as string).length > 0 &&
    text(j.name, false) &&
    STATES.has(j.state as string) &&
    PHASES.has(j.phase as string | undefined) &&
    count(j.done) &&
    count(j.total) &&
    count(j.startedAt) &&
    (j.msLeft === undefined || count(j.msLeft)) &&
    (j.waiting === undefined || typeof j.waiting === 'boolean') &&
    WAYS_OUT.has(j.errorWayOut as string | undefined) &&
    ['link', 'deletionLink', 'error', 'errorDetail', 'warning', 'profileId'].every((k) => text(j[k]))
  );
}

function sameOwner(a: JobOwner | undefined, b: JobOwner): boolean {
  if (!a || a.kind !== b.kind) return false;
  return a.kind === 'background' || (b.kind === 'page' && a.tabId === b.tabId);
}

/**
 * The stored job after `report` from `from`, or undefined when the report is refused: a job is
 * changed only by the one who runs it; a finished job does not change any more; only a page makes
 * a job by reporting it (the background's jobs are made by the background before they run).
 */
export function acceptReport(jobs: Jobs, report: unknown, from: JobOwner): JobState | undefined {
  if (!isJobState(report)) return undefined;
  const known = jobs[report.id];
  if (known ? !sameOwner(known.owner, from) || known.state !== 'running' : from.kind !== 'page')
    return undefined;
  // Who runs it, when it started, its profile and whether its link was copied are not the
  // reporter's to say.
  const { owner: _owner, copied: _copied, ...said } = report;
  const job: JobState = { ...said, owner: from, startedAt: known?.startedAt ?? report.startedAt };
  if (known) job.profileId = known.profileId;
  return job;
}

/** The running jobs of a page whose tab closed or went elsewhere, ended. */
export function endJobsOfTab(jobs: Jobs, tabId: number, error: string): JobState[] {
  return Object.values(jobs)
    .filter((j) => j.state === 'running' && j.owner?.kind === 'page' && j.owner.tabId === tabId)
    .map((j) => ({ ...j, state: 'cancelled', error }));
}

/** Drops the jobs that finished more than KEEP_FINISHED_MS ago (in place). */
export function dropOldJobs(jobs: Jobs, now: number): void {
  for (const [id, j] of Object.entries(jobs))
    if (j.state !== 'running' && j.startedAt < now - KEEP_FINISHED_MS) delete jobs[id];
}

/** The toolbar badge: one running job's percentage, else how many run. */
export function jobsBadge(jobs: Jobs): string {
  const running = Object.values(jobs).filter((j) => j.state === 'running');
  if (running.length === 1) {
    const j = running[0]!;
    return j.total ? `${Math.floor((j.done / j.total) * 100)}%` : '…';
  }
  return running.length > 1 ? String(running.length) : '';
}
