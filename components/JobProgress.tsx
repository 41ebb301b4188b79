import { formatNumber, t } from '../lib/i18n';
import type { JobState } from '../lib/jobs/model';
import { progressDetail } from '../lib/jobs/progress-text';

const LABEL = {
  preparing: 'preparingPercent',
  encrypting: 'encryptingPercent',
  uploading: 'uploadingPercent',
} as const;

/**
 * A running job's one bar, as the popup and the upload page show it: the phase and the share of
 * the whole job (it only grows: lib/jobs/progress.ts), then "3.4 of 20 MiB · 12 s left"; while the
 * connection is down, "Waiting for the network…" instead of the phase.
 */
export function JobProgress({ job, small = false }: { job: JobState; small?: boolean }) {
  const pct = job.total ? Math.min(100, Math.floor((job.done / job.total) * 100)) : 0;
  const detail = `progress-detail-${job.id}`;
  return (
    <>
      <label
        for={`progress-${job.id}`}
        class={small ? 'small' : undefined}
        data-waiting={job.waiting ? 'true' : undefined}
      >
        {job.waiting
          ? t('uploadWaitingNetwork')
          : t(LABEL[job.phase ?? 'preparing'], formatNumber(pct / 100, { style: 'percent' }))}
      </label>
      <progress id={`progress-${job.id}`} max={100} value={pct} aria-describedby={detail} />
      <p id={detail} class="small muted progress-detail">
        {progressDetail(job.done, job.total, job.msLeft)}
      </p>
    </>
  );
}
