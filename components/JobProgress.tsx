import { formatNumber, t } from '../lib/i18n';
import type { JobState } from '../lib/jobs/model';

const LABEL = {
  preparing: 'preparingPercent',
  encrypting: 'encryptingPercent',
  uploading: 'uploadingPercent',
} as const;

/** A running job's phase and share done, as the popup and the upload page show it. */
export function JobProgress({ job, small = false }: { job: JobState; small?: boolean }) {
  const pct = job.total ? Math.floor((job.done / job.total) * 100) : 0;
  return (
    <>
      <label for={`progress-${job.id}`} class={small ? 'small' : undefined}>
        {t(LABEL[job.phase ?? 'preparing'], formatNumber(pct / 100, { style: 'percent' }))}
      </label>
      <progress id={`progress-${job.id}`} max={100} value={pct} />
    </>
  );
}
