// One recent upload in the popup, kept calm: its name, size and date, the share link as the one
// primary action (the button reads "Copied ✓" for two seconds), and Open. Deleting, removing and
// the QR code are on the uploads page.
import type { UploadEntry } from '../lib/history';
import { displayName } from '../lib/history/file-names';
import { t } from '../lib/i18n';
import { CopyButton } from './CopyButton';
import { OpenUpload } from './OpenUpload';
import type { Notice } from './UploadRow';
import { UploadTitle } from './UploadTitle';

export function RecentUploadRow({ entry, notify }: { entry: UploadEntry; notify: (n: Notice) => void }) {
  const name = displayName(entry.name);
  return (
    <tr data-id={entry.id}>
      <td>
        <UploadTitle entry={entry} />
      </td>
      <td>
        <div class="row">
          <CopyButton
            value={entry.link}
            text={t('copyLink')}
            label={name}
            onFailed={() => notify({ kind: 'error', text: t('copyFailed') })}
          />
          <OpenUpload entry={entry} name={name} />
        </div>
      </td>
    </tr>
  );
}
