import { displayName } from '../../lib/history/file-names';
import { formatBytes, t } from '../../lib/i18n';
import type { KeptResume } from '../../platform/storage/resumes';

// The uploads a reload of this page broke off: choosing the same file again resumes one (the parts the
// server holds are not sent again); Forget ends it at the server.
export function Interrupted({
  uploads,
  onForget,
}: {
  uploads: KeptResume[];
  onForget: (record: KeptResume) => void;
}) {
  if (uploads.length === 0) return null;
  return (
    <section class="card" aria-labelledby="interrupted-h">
      <h2 id="interrupted-h">{t('interruptedUploads')}</h2>
      <ul id="interrupted" class="plain">
        {uploads.map((r) => (
          <li key={r.session.id}>
            <p>
              {t('resumeInterrupted', displayName(r.file.name))}{' '}
              <span class="muted small">({formatBytes(r.file.size)})</span>
            </p>
            <button
              type="button"
              class="secondary"
              aria-label={t('resumeForgetNamed', displayName(r.file.name))}
              onClick={() => onForget(r)}
            >
              {t('resumeForget')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
