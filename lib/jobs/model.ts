// One upload job, whichever page started it and wherever it runs: what it uploads (the request)
// and what a person is shown of it (the state). The popup, the badge, the notifications and the
// upload page all read the same JobState.
import { fileNameFromUrl } from '../history/file-names';
import { t } from '../i18n';
import type { Profile } from '../settings';
import type { Mode, UploadOptions, Variant } from '../upload';
import type { SizeLimit } from '../upload/limit';
import type { WayOut } from './errors';

/**
 * Where the bytes of an upload are, in a form that travels in extension messages (JSON only:
 * Chromium turns a Blob or File in a message into `{}`).
 */
export type UploadSource =
  /** A file copied into a scratch file by the context that had it (platform/upload/staging.ts). */
  | { kind: 'staged'; id: string; name: string; type: string; size: number }
  /** A file the runner fetches itself. */
  | { kind: 'url'; url: string; name?: string }
  | { kind: 'text'; text: string; name: string };

/** A file a page holds (picked, dropped or pasted there): never sent anywhere, the page runs its job. */
export interface HeldSource {
  kind: 'held';
  file: File;
}

export interface JobRequest<Source = UploadSource> {
  jobId: string;
  source: Source;
  profile: Profile;
  variant: Variant;
  options: UploadOptions;
}

/** Who reports a job's states: the runner the background started, or an upload page (by its tab). */
export type JobOwner = { kind: 'background' } | { kind: 'page'; tabId: number };

export type JobPhase = 'preparing' | 'encrypting' | 'uploading';
export type JobEnd = 'done' | 'failed' | 'cancelled';

export interface JobState {
  id: string;
  name: string;
  state: 'running' | JobEnd;
  phase?: JobPhase;
  /**
   * The whole job's progress as bytes of the file: encrypting and sending are phases of one bar
   * (lib/jobs/progress.ts), so this only grows, from 0 to `total`.
   */
  done: number;
  /** The file's own size in bytes (never the request's, which carries the form as well). */
  total: number;
  /** Time left at the pace so far, once it can be told. */
  msLeft?: number;
  /** The connection broke off: the upload waits for the network and resumes where it stopped. */
  waiting?: boolean;
  mode?: Mode;
  link?: string;
  deletionLink?: string;
  /** Why it failed or stopped: a sentence for the person. */
  error?: string;
  /** The server's own words about the failure, when it gave some: untrusted, shown as text. */
  errorDetail?: string;
  /** What the person can do about the failure (a button beside it), when there is something. */
  errorWayOut?: WayOut;
  /** The upload worked but something around it did not (history could not be written). */
  warning?: string;
  /** Set by the background once it tried to copy the link of a finished upload. */
  copied?: boolean;
  profileId?: string;
  /** Set when a 413 taught us the profile's size limit. */
  learnedSizeLimit?: SizeLimit;
  startedAt: number;
  /** Set by the job store from who reported it, never taken from a report. */
  owner?: JobOwner;
}

export function sourceName(source: UploadSource | HeldSource): string {
  if (source.kind === 'held') return source.file.name || t('pastedFile');
  return source.kind === 'url' ? (source.name ?? fileNameFromUrl(source.url)) : source.name;
}

function sourceSize(source: UploadSource | HeldSource): number {
  if (source.kind === 'held') return source.file.size;
  return source.kind === 'staged' ? source.size : 0;
}

/** The first state of a job, the same wherever it is made (background, runner, page). */
export function newJobState(req: JobRequest<UploadSource | HeldSource>, now = Date.now()): JobState {
  return {
    id: req.jobId,
    profileId: req.profile.id,
    name: sourceName(req.source),
    state: 'running',
    phase: 'preparing',
    done: 0,
    total: sourceSize(req.source),
    mode: req.options.mode,
    startedAt: now,
  };
}

export const isRunning = (job: JobState): boolean => job.state === 'running';

/**
 * The jobs a small view (the popup) lists: every running one and the `ended` newest of the others,
 * in their order, so that its height does not grow with a session's uploads. Newest is by start
 * time, whatever order `jobs` comes in (the popup's list is newest first; keeping the array's last
 * ones hid the upload that had just finished).
 */
export function jobsInView(jobs: readonly JobState[], ended: number): JobState[] {
  const newestEnded = jobs
    .filter((j) => !isRunning(j))
    .sort((a, b) => b.startedAt - a.startedAt)
    .slice(0, Math.max(0, ended));
  const kept = new Set(newestEnded);
  return jobs.filter((j) => isRunning(j) || kept.has(j));
}
