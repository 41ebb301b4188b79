// The one runner of upload jobs, wherever a job runs: the offscreen document (Chromium), the
// background page (Firefox), and the upload page for the files picked there (a File cannot travel
// in a message, so the page that holds it does the work). It reports each state through `report`:
// at once when the phase changes or the job ends, progress at most about ten times a second.
import { fileNameFromUrl } from '../../lib/history/file-names';
import { t } from '../../lib/i18n';
import { describeError, JobError, sizeRefusal } from '../../lib/jobs/errors';
import {
  type HeldSource,
  type JobRequest,
  type JobState,
  newJobState,
  type UploadSource,
} from '../../lib/jobs/model';
import { progressTracker } from '../../lib/jobs/progress';
import { silenceMs, sizeProblem, uploadTarget } from '../../lib/settings';
import { throttle } from '../../lib/throttle';
import { landedElsewhere } from '../../lib/upload/landed';
import { copyIntoScratch } from '../storage/scratch-copy';
import { createScratch } from '../storage/scratch-files';
import { dropStagedFile, scratchUpload, takeStagedFile } from './staging';
import { type Resumable, runUpload, type UploadInput } from './upload-file';

export type RunRequest = JobRequest<UploadSource | HeldSource>;

export interface Runner {
  /**
   * Runs the job to its end; resolves with its last state (also reported). An upload page's job may
   * be `resumable` after a reload of the page.
   */
  run(req: RunRequest, report: (state: JobState) => void, resumable?: Resumable): Promise<JobState>;
  /** Stops a job; one that has not started yet stops as it starts (a Cancel during the hand-over). */
  abort(jobId: string): void;
  has(jobId: string): boolean;
}

/** Aborts that came before their job are remembered, this many. */
const EARLY_ABORTS = 16;

/** The file to upload; `cleanups` gets what must be removed once the job ends. */
async function resolveSource(
  source: UploadSource | HeldSource,
  signal: AbortSignal,
  cleanups: (() => Promise<unknown>)[],
): Promise<UploadInput> {
  if (source.kind === 'held') return { file: source.file };
  if (source.kind === 'staged') {
    const staged = await takeStagedFile(source.id, source.name, source.type);
    if (!staged) throw new JobError(t('stagedGone'));
    return staged;
  }
  if (source.kind === 'text') return { file: new File([source.text], source.name, { type: 'text/plain' }) };
  let res: Response;
  try {
    res = await fetch(source.url, { credentials: 'omit', signal });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new JobError(t('fetchFailed'));
  }
  // Permission was asked for the URL's own site: a redirect may not take the fetch to another one.
  const elsewhere = landedElsewhere(source.url, res);
  if (elsewhere !== undefined) {
    await res.body?.cancel().catch(() => {});
    throw new JobError(t('fetchRedirected', new URL(source.url).host, elsewhere));
  }
  if (!res.ok) throw new JobError(t('fetchHttp', String(res.status)));
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const name = source.name ?? fileNameFromUrl(source.url, type);
  if (!res.body) return { file: new File([], name, { type }) };
  // Streamed to a disk-backed scratch file (res.blob() kept the whole file in memory in Firefox)
  // through one reused buffer (scratch-copy.ts), removed when the job ends and swept at start if a
  // crash left it.
  const scratch = await createScratch('staged');
  cleanups.push(scratch.remove);
  try {
    await copyIntoScratch(scratch, res.body, signal);
  } catch (err) {
    if (signal.aborted) throw err;
    throw new JobError(t('fetchCut'));
  }
  return scratchUpload(scratch, name, type);
}

/** What the browser adapter says of the browser the runner runs in (platform/browser/adapter.ts). */
export interface RunnerOptions {
  requestStreams: boolean;
  freeSpentBuffers: boolean;
}

export function createRunner({ requestStreams, freeSpentBuffers }: RunnerOptions): Runner {
  const running = new Map<string, AbortController>();
  const abortedEarly: string[] = [];

  async function run(
    req: RunRequest,
    report: (state: JobState) => void,
    resumable?: Resumable,
  ): Promise<JobState> {
    const abort = new AbortController();
    running.set(req.jobId, abort);
    const early = abortedEarly.indexOf(req.jobId);
    if (early >= 0) {
      abortedEarly.splice(early, 1);
      abort.abort();
    }
    let state = newJobState(req);
    const progress = throttle(report);
    const update = (patch: Partial<JobState>) => {
      // A new phase, or the waiting for the network begun or ended, is told at once.
      const phaseChanged =
        (patch.phase !== undefined && patch.phase !== state.phase) ||
        ('waiting' in patch && patch.waiting !== state.waiting);
      state = { ...state, ...patch };
      if (phaseChanged) progress.now(state);
      else progress(state);
    };
    progress.now(state);
    let size = 0;
    const cleanups: (() => Promise<unknown>)[] = [];
    try {
      abort.signal.throwIfAborted();
      const input = await resolveSource(req.source, abort.signal, cleanups);
      const { file } = input;
      size = file.size;
      update({ name: file.name || state.name, total: file.size });
      const track = progressTracker(size);
      const tooBig = sizeProblem(req.profile, file.size);
      if (tooBig) throw new JobError(tooBig, 'another-server');
      const { entry, historyError } = await runUpload(
        input,
        uploadTarget(req.profile.server, req.variant),
        req.options,
        {
          signal: abort.signal,
          timeoutMs: silenceMs(req.profile),
          requestStreams,
          freeSpentBuffers,
          resumable,
          // One bar over the phases, in bytes of the file's own size (the request's are a bit more).
          // While it waits for the network, no time left is told: the pace so far says nothing of it.
          onProgress: (p) => {
            const { done, msLeft } = track(p);
            update({
              phase: p.phase,
              done,
              msLeft: p.waiting ? undefined : msLeft,
              waiting: p.waiting || undefined,
            });
          },
        },
      );
      state = {
        ...state,
        state: 'done',
        link: entry.link,
        deletionLink: entry.deletionLink,
        mode: entry.mode,
        warning: historyError?.message,
        done: size,
        msLeft: undefined,
        waiting: undefined,
      };
    } catch (err) {
      const refusal = sizeRefusal(err, req.profile, size);
      const { message, detail, wayOut } = refusal ?? describeError(err);
      const cancelled = abort.signal.aborted;
      state = {
        ...state,
        state: cancelled ? 'cancelled' : 'failed',
        error: cancelled ? t('uploadCancelled') : message,
        errorDetail: cancelled ? undefined : detail,
        errorWayOut: cancelled ? undefined : wayOut,
        learnedSizeLimit: refusal?.limit,
        msLeft: undefined,
        waiting: undefined,
      };
    }
    running.delete(req.jobId);
    for (const k of Object.keys(state) as (keyof JobState)[]) if (state[k] === undefined) delete state[k];
    // Told before the scratch files go: removing a large one takes about a second per GiB.
    progress.now(state);
    if (req.source.kind === 'staged') await dropStagedFile(req.source.id).catch(() => {});
    for (const cleanup of cleanups) await cleanup().catch(() => {});
    return state;
  }

  return {
    run,
    abort(jobId) {
      const job = running.get(jobId);
      if (job) job.abort();
      else if (!abortedEarly.includes(jobId) && abortedEarly.push(jobId) > EARLY_ABORTS) abortedEarly.shift();
    },
    has: (jobId) => running.has(jobId),
  };
}
