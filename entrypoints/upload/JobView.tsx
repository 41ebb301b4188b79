// One upload on the upload page. It takes the eye and the keyboard with it: when it appears, focus
// and view move to it (its progress is in sight at once, wherever the picker was); when it
// finishes, focus moves to Copy link and the link is scrolled into view. Focus moves on only from
// where this job put it, so a person who went elsewhere meanwhile is not pulled back.
import { useLayoutEffect, useRef } from 'preact/hooks';
import { CopyField } from '../../components/CopyField';
import { DeletionLinkDisclosure } from '../../components/DeletionLinkDisclosure';
import { ErrorWayOut } from '../../components/ErrorWayOut';
import { FileName } from '../../components/FileName';
import { JobProgress } from '../../components/JobProgress';
import { LinkQr } from '../../components/LinkQr';
import { displayName } from '../../lib/history/file-names';
import { formatBytes, t } from '../../lib/i18n';
import type { JobState } from '../../lib/jobs/model';
import { cancelOnPage } from '../../platform/upload/page-jobs';

/** Whether focus is still where this job left it: on it, inside it, or lost (its Cancel button went). */
function focusIsOurs(card: HTMLElement): boolean {
  const active = document.activeElement;
  return !active || active === document.body || card.contains(active);
}

export function JobView({ job, note, onRetry }: { job: JobState; note?: string; onRetry: () => void }) {
  const card = useRef<HTMLElement>(null);
  const copyLink = useRef<HTMLButtonElement>(null);
  const linkBlock = useRef<HTMLDivElement>(null);
  const finished = job.state === 'done' && !!job.link;

  // Layout effects: the move happens before the browser paints the new job, never a frame late.
  useLayoutEffect(() => {
    card.current?.focus({ preventScroll: true });
    card.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  useLayoutEffect(() => {
    if (!finished || !card.current) return;
    linkBlock.current?.scrollIntoView({ block: 'nearest' });
    if (focusIsOurs(card.current)) copyLink.current?.focus({ preventScroll: true });
  }, [finished]);

  const titleId = `job-title-${job.id}`;
  return (
    <article ref={card} tabIndex={-1} class="card job" data-state={job.state} aria-labelledby={titleId}>
      <h3 id={titleId} style={{ margin: '0 0 6px', fontSize: '1rem' }}>
        <FileName name={job.name} /> <span class="muted small">({formatBytes(job.total)})</span>
      </h3>
      {note && <p class="small resume-note">{note}</p>}
      {job.state === 'running' && (
        <div>
          <JobProgress job={job} />
          <p>
            <button type="button" class="secondary" onClick={() => cancelOnPage(job.id)}>
              {t('cancel')}
            </button>
          </p>
        </div>
      )}
      {finished && (
        <div>
          <p class="ok">
            {[
              t('uploaded'),
              job.copied ? t('linkCopied') : '',
              job.mode === 'client' ? t('keyOnlyInLink') : '',
            ]
              .filter(Boolean)
              .join(' ')}
          </p>
          {job.warning && (
            <p class="warn" role="alert">
              {job.warning}
            </p>
          )}
          <div ref={linkBlock}>
            <CopyField id={`link-${job.id}`} label={t('link')} value={job.link!} buttonRef={copyLink} />
          </div>
          <LinkQr link={job.link!} name={displayName(job.name)} />
          {job.deletionLink && (
            <DeletionLinkDisclosure>
              <CopyField id={`del-${job.id}`} label={t('deletionLink')} value={job.deletionLink} />
            </DeletionLinkDisclosure>
          )}
        </div>
      )}
      {(job.state === 'failed' || job.state === 'cancelled') && job.error && (
        <div role="alert">
          <p class="error">{job.error}</p>
          {job.errorDetail && <p class="small">{t('serverSaid', job.errorDetail)}</p>}
          <div class="row">
            {job.errorWayOut && <ErrorWayOut wayOut={job.errorWayOut} />}
            {/* Over the server's limit the same file cannot go through: no Try again. */}
            {job.errorWayOut !== 'another-server' && (
              <button type="button" class="secondary retry" onClick={onRetry}>
                {t('tryAgain')}
              </button>
            )}
          </div>
        </div>
      )}
    </article>
  );
}
