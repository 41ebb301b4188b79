// The first state of an upload job, the same wherever it is made (background or runner).
import { fileNameFromUrl } from '../../lib/history/file-names';
import type { JobRequest, JobState, UploadSource } from '../messages';

export function sourceName(source: UploadSource): string {
  return source.kind === 'url' ? (source.name ?? fileNameFromUrl(source.url)) : source.name;
}

export function newJobState(req: JobRequest): JobState {
  return {
    id: req.jobId,
    profileId: req.profile.id,
    name: sourceName(req.source),
    state: 'running',
    phase: 'preparing',
    done: 0,
    total: 0,
    startedAt: Date.now(),
  };
}
