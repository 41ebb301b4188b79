// "Open" for an upload: the viewer decrypts it, or, when the server serves the file as it was
// uploaded, the file's own address opens it.
import { openingOf, type UploadEntry } from '../lib/history';
import { t } from '../lib/i18n';
import { openInViewer } from '../platform/upload/viewer-tab';

export function OpenUpload({ entry, name }: { entry: UploadEntry; name: string }) {
  return openingOf(entry) === 'decrypt' ? (
    <button
      type="button"
      class="secondary"
      aria-label={t('openNamed', name)}
      onClick={() => openInViewer(entry.id)}
    >
      {t('open')}
    </button>
  ) : (
    <a
      class="button secondary"
      href={entry.url}
      target="_blank"
      rel="noreferrer noopener"
      aria-label={t('openNamed', name)}
    >
      {t('open')}
    </a>
  );
}
