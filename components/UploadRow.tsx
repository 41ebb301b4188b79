// One upload with all its actions (copy, open, QR, delete on the server, remove), for the uploads list.
import { useState } from 'preact/hooks';
import type { UploadEntry } from '../lib/history';
import { displayName } from '../lib/history/file-names';
import { formatDate, plural, t } from '../lib/i18n';
import { deletionMessage } from '../lib/upload/deletion';
import { removeUpload } from '../platform/storage/history';
import { deleteOnServer as deleteFromServer } from '../platform/upload/deletion';
import { LinkQr } from './LinkQr';
import { OpenUpload } from './OpenUpload';
import { UploadTitle } from './UploadTitle';

export type Notice = { kind: 'ok' | 'error'; text: string };

export function UploadRow({
  entry,
  onChanged,
  notify,
}: {
  entry: UploadEntry;
  onChanged: () => void;
  notify: (n: Notice) => void;
}) {
  const [confirming, setConfirming] = useState<'' | 'server' | 'local'>('');
  const [busy, setBusy] = useState(false);
  // Names are shown and spoken without bidi controls (aria-labels and notices are plain text).
  const name = displayName(entry.name);

  async function deleteOnServer() {
    if (!entry.deletionLink) return;
    setBusy(true);
    try {
      const verdict = await deleteFromServer(entry.deletionLink, entry.url);
      if (verdict.outcome !== 'refused') await removeUpload(entry.id);
      notify({
        kind: verdict.outcome === 'refused' ? 'error' : 'ok',
        text: t('namedNotice', name, deletionMessage(verdict)),
      });
      onChanged();
    } catch {
      notify({
        kind: 'error',
        text: t('deleteUnreachable', name),
      });
    } finally {
      setBusy(false);
      setConfirming('');
    }
  }

  async function removeLocally() {
    await removeUpload(entry.id);
    notify({
      kind: 'ok',
      text: t('removedFromList', name),
    });
    onChanged();
  }

  return (
    <tr data-id={entry.id}>
      <td>
        <UploadTitle entry={entry}>
          {' · '}
          {t(entry.mode === 'client' ? 'madeClient' : entry.mode === 'server' ? 'madeServer' : 'madeNone')}
          {entry.expirationDate ? ` · ${t('expiresOn', formatDate(entry.expirationDate))}` : ''}
          {entry.maxDownloads ? ` · ${plural('downloadsLeft', entry.maxDownloads)}` : ''}
        </UploadTitle>
        <div class="small mono">{entry.link}</div>
      </td>
      <td>
        <div class="row">
          <button
            type="button"
            class="secondary"
            aria-label={t('copyLinkOf', name)}
            onClick={() =>
              navigator.clipboard.writeText(entry.link).then(
                () => notify({ kind: 'ok', text: t('linkOfCopied', name) }),
                () => notify({ kind: 'error', text: t('copyFailed') }),
              )
            }
          >
            {t('copy')}
          </button>
          <OpenUpload entry={entry} name={name} />
          {entry.deletionLink && !confirming && (
            <button type="button" class="danger" disabled={busy} onClick={() => setConfirming('server')}>
              {t('deleteOnServer')}
            </button>
          )}
          {!confirming && (
            <button type="button" class="secondary" onClick={() => setConfirming('local')}>
              {t('remove')}
            </button>
          )}
        </div>
        <LinkQr link={entry.link} name={name} size={160} />
        {confirming && (
          <div class="row" style={{ marginTop: '6px' }}>
            <span>
              {confirming === 'server' ? t('confirmDeleteOnServer', name) : t('confirmRemove', name)}
            </span>
            <button
              type="button"
              class="danger"
              disabled={busy}
              onClick={confirming === 'server' ? deleteOnServer : removeLocally}
              autoFocus
            >
              {t(confirming === 'server' ? 'yesDelete' : 'yesRemove')}
            </button>
            <button type="button" class="secondary" onClick={() => setConfirming('')}>
              {t('keepIt')}
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}
