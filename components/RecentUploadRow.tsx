// One recent upload in the popup, kept calm: its name, size and date, the share link as the one
// primary action (the button reads "Copied ✓" for two seconds), and Open. Deleting, removing and
// the QR code are on the uploads page.
import { useEffect, useState } from 'preact/hooks';
import type { UploadEntry } from '../lib/history';
import { displayName } from '../lib/history/file-names';
import { t } from '../lib/i18n';
import { OpenUpload } from './OpenUpload';
import type { Notice } from './UploadRow';
import { UploadTitle } from './UploadTitle';

const COPIED_FOR_MS = 2000;

export function RecentUploadRow({ entry, notify }: { entry: UploadEntry; notify: (n: Notice) => void }) {
  const [copied, setCopied] = useState(false);
  const name = displayName(entry.name);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  return (
    <tr data-id={entry.id}>
      <td>
        <UploadTitle entry={entry} />
      </td>
      <td>
        <div class="row">
          <button
            type="button"
            // The visible words first, so the accessible name contains them (a speech user says what they see).
            aria-label={`${t(copied ? 'copiedCheck' : 'copyLink')} – ${name}`}
            onClick={() =>
              navigator.clipboard.writeText(entry.link).then(
                () => setCopied(true),
                () => notify({ kind: 'error', text: t('copyFailed') }),
              )
            }
          >
            {t(copied ? 'copiedCheck' : 'copyLink')}
          </button>
          <OpenUpload entry={entry} name={name} />
        </div>
      </td>
    </tr>
  );
}
