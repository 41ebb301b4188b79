// The one progress bar of an upload job. An upload runs one or two phases over the same bytes:
// encrypting into a copy on disk and then sending it, or sending alone (no encryption, server-side
// encryption, or encryption while the network takes the bytes). Each phase fills its own share of
// one bar, so the bar goes from 0 to 100 % once and never back; the bytes shown are that share of
// the file's own size (not the request's, which carries a few hundred bytes of form as well).

export type WorkPhase = 'encrypting' | 'uploading';

/**
 * The share of the bar each phase takes when a job runs both. Issue 21 measured, per GiB, about 2 s
 * to encrypt (555 MiB/s) and 8–11 s to send the encrypted copy from disk to a local server: sending
 * is about three times the work, and slower on any real link.
 */
export const PHASE_WEIGHT: Readonly<Record<WorkPhase, number>> = { encrypting: 0.25, uploading: 0.75 };

/** One report of the running phase: the phases this upload runs (in order), and its bytes so far. */
export interface PhaseProgress {
  phases: readonly WorkPhase[];
  phase: WorkPhase;
  done: number;
  total: number;
  /** The connection broke off: the upload waits for the network, then resumes (lib/upload/held-parts.ts). */
  waiting?: boolean;
}

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** The share of the whole job done, from 0 to 1, that `p` stands for. */
export function jobShare(p: PhaseProgress): number {
  const at = p.phases.indexOf(p.phase);
  // A phase the plan does not name fills the bar alone (a plan is the runner's, so this is a slip).
  const phases = at < 0 ? [p.phase] : p.phases;
  const index = Math.max(0, at);
  const weight = (ph: WorkPhase) => PHASE_WEIGHT[ph];
  const all = phases.reduce((sum, ph) => sum + weight(ph), 0);
  const before = phases.slice(0, index).reduce((sum, ph) => sum + weight(ph), 0);
  const within = p.total > 0 ? clamp01(p.done / p.total) : 0;
  return clamp01((before + weight(phases[index]!) * within) / all);
}

/** Before this much of the job, or this long into it, a time left would be a guess. */
const ESTIMATE_AFTER_SHARE = 0.01;
const ESTIMATE_AFTER_MS = 1000;

/**
 * Milliseconds left at the pace so far: `share` of the job took `elapsedMs`. Undefined while too
 * little is done to say.
 */
export function timeLeftMs(share: number, elapsedMs: number): number | undefined {
  if (!(share >= ESTIMATE_AFTER_SHARE) || !(elapsedMs >= ESTIMATE_AFTER_MS)) return undefined;
  if (share >= 1) return 0;
  return Math.round((elapsedMs * (1 - share)) / share);
}

/** What a view shows of a running job: bytes of the file's own size done, and the time left. */
export interface ShownProgress {
  done: number;
  msLeft?: number;
}

/**
 * Follows one job's reports for a file of `size` bytes. The share never goes down, even when the
 * plan changes mid-way (a streamed upload the server refused starts again from its disk copy): the
 * bar then waits until the new plan passes it. The pace is measured from the first report on, so
 * the time a file took to arrive (a download, a hand-over) does not count as upload time.
 */
export function progressTracker(
  size: number,
  clock: () => number = Date.now,
): (p: PhaseProgress) => ShownProgress {
  let share = 0;
  let since: number | undefined;
  return (p) => {
    const now = clock();
    since ??= now;
    share = Math.max(share, jobShare(p));
    const msLeft = timeLeftMs(share, now - since);
    return { done: Math.floor(share * size), ...(msLeft === undefined ? {} : { msLeft }) };
  };
}
