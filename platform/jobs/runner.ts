// Runs upload jobs in a document that outlives pages: the offscreen document (Chromium) or the
// background page (Firefox). Reports each change of state through `report`.
import { fileNameFromUrl } from '../../lib/history/file-names';
import { t } from '../../lib/i18n';
import { silenceMs, sizeProblem, uploadTarget } from '../../lib/settings';
import { describeError, sizeRefusal } from '../describe-error';
import type { JobRequest, JobState, UploadSource } from '../messages';
import { createScratch } from '../scratch-files';
import { dropStagedFile, takeStagedFile } from '../staging';
import { runUpload } from '../upload-job';
import { newJobState } from './new-job';

const running = new Map<string, AbortController>();

/** The file to upload; `cleanups` gets what must be removed once the job ends. */
async function resolveSource(
  source: UploadSource,
  signal: AbortSignal,
  cleanups: (() => Promise<unknown>)[],
): Promise<File> {
  if (source.kind === 'staged') {
    const file = await takeStagedFile(source.id, source.name, source.type);
    if (!file) throw new Error(t('stagedGone'));
    return file;
  }
  if (source.kind === 'text') return new File([source.text], source.name, { type: 'text/plain' });
  let res: Response;
  try {
    res = await fetch(source.url, { credentials: 'omit', signal });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new Error(t('fetchFailed'));
  }
  if (!res.ok) throw new Error(t('fetchHttp', String(res.status)));
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const name = source.name ?? fileNameFromUrl(source.url, type);
  if (!res.body) return new File([], name, { type });
  // Streamed to a disk-backed scratch file (res.blob() kept the whole file in memory in Firefox),
  // removed when the job ends and swept at start if a crash left it.
  const scratch = await createScratch('staged');
  cleanups.push(scratch.remove);
  try {
    await res.body.pipeTo(await scratch.handle.createWritable(), { signal });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new Error(t('fetchCut'));
  }
  return new File([await scratch.handle.getFile()], name, { type });
}

export async function runJob(req: JobRequest, report: (s: JobState) => void): Promise<void> {
  const abort = new AbortController();
  running.set(req.jobId, abort);
  let state: JobState = newJobState(req);
  let last = 0;
  const update = (patch: Partial<JobState>, force = false) => {
    const phaseChanged = patch.phase !== undefined && patch.phase !== state.phase;
    state = { ...state, ...patch };
    const now = Date.now();
    if (force || phaseChanged || now - last > 250) {
      last = now;
      report(state);
    }
  };
  update({}, true);
  let size = 0;
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const file = await resolveSource(req.source, abort.signal, cleanups);
    size = file.size;
    update({ name: file.name, total: file.size });
    const tooBig = sizeProblem(req.profile, file.size);
    if (tooBig) throw new Error(tooBig);
    const { entry, historyError } = await runUpload(
      file,
      uploadTarget(req.profile.server, req.variant),
      req.options,
      {
        signal: abort.signal,
        timeoutMs: silenceMs(req.profile),
        onProgress: (p) => update(p),
      },
    );
    update(
      {
        state: 'done',
        link: entry.link,
        deletionLink: entry.deletionLink,
        warning: historyError?.message,
        done: size,
      },
      true,
    );
  } catch (err) {
    const refusal = sizeRefusal(err, req.profile, size);
    const { message, detail } = refusal ?? describeError(err);
    const learnedSizeLimit = refusal?.limit;
    update(
      {
        state: abort.signal.aborted ? 'cancelled' : 'failed',
        error: abort.signal.aborted
          ? t('uploadCancelled')
          : detail
            ? `${message} The server said: “${detail}”`
            : message,
        learnedSizeLimit,
      },
      true,
    );
  } finally {
    running.delete(req.jobId);
    if (req.source.kind === 'staged') await dropStagedFile(req.source.id).catch(() => {});
    for (const cleanup of cleanups) await cleanup();
  }
}

export function abortJob(jobId: string): void {
  running.get(jobId)?.abort();
}
