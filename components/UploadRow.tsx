// One upload in the uploads list, kept calm: the share link is the one primary action (Copy link,
// "Copied ✓" for two seconds), then Open; the link shows with its key as dots until "Show"; the
// deletion link is folded away under "Deletion link (keep it private)"; the QR code and the two
// deletions, which say what they do ("Remove from this list", "Delete on the server"), are in a
// menu, and both deletions ask first.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { UploadEntry } from '../lib/history';
import { displayName } from '../lib/history/file-names';
import { formatDate, plural, t } from '../lib/i18n';
import { deletionMessage } from '../lib/upload/deletion';
import { maskDeletionLink, maskShareLink } from '../lib/upload/masked-links';
import { removeUpload } from '../platform/storage/history';
import { deleteOnServer as deleteFromServer } from '../platform/upload/deletion';
import { CopyButton } from './CopyButton';
import { DeletionLinkDisclosure } from './DeletionLinkDisclosure';
import { LinkQrFigure } from './LinkQr';
import { MaskedLink } from './MaskedLink';
import { OpenUpload } from './OpenUpload';
import { RowMenu } from './RowMenu';
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
  const [qr, setQr] = useState(false);
  const actions = useRef<HTMLDivElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  // A confirmation takes focus from the menu it was chosen in, so the keyboard answers it at once.
  useLayoutEffect(() => {
    if (confirming) confirm.current?.focus();
  }, [confirming]);
  // Names are shown and spoken without bidi controls (aria-labels and notices are plain text).
  const name = displayName(entry.name);
  const copyFailed = () => notify({ kind: 'error', text: t('copyFailed') });

  /** Ends a confirmation; focus goes back to the row's menu button, where it was asked from. */
  function endConfirming() {
    setConfirming('');
    actions.current?.querySelector<HTMLElement>('[aria-haspopup]')?.focus();
  }

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
        <MaskedLink link={entry.link} masked={maskShareLink(entry.link)} name={name} />
        {entry.deletionLink && (
          <DeletionLinkDisclosure>
            <MaskedLink link={entry.deletionLink} masked={maskDeletionLink(entry.deletionLink)} name={name} />
            <CopyButton
              value={entry.deletionLink}
              text={t('copy')}
              label={`${t('deletionLink')} – ${name}`}
              onFailed={copyFailed}
              secondary
            />
          </DeletionLinkDisclosure>
        )}
      </td>
      <td>
        <div class="row" ref={actions}>
          <CopyButton value={entry.link} text={t('copyLink')} label={name} onFailed={copyFailed} />
          <OpenUpload entry={entry} name={name} />
          <RowMenu
            text={t('moreActions')}
            label={t('moreActionsOf', name)}
            items={[
              { text: t(qr ? 'qrHide' : 'qrShow'), onSelect: () => setQr(!qr) },
              { text: t('removeFromList'), onSelect: () => setConfirming('local') },
              ...(entry.deletionLink
                ? [{ text: t('deleteOnTheServer'), danger: true, onSelect: () => setConfirming('server') }]
                : []),
            ]}
          />
        </div>
        {qr && (
          <div class="link-qr">
            <LinkQrFigure link={entry.link} name={name} size={160} />
          </div>
        )}
        {confirming && (
          <div class="row" style={{ marginTop: '6px' }}>
            <span>
              {confirming === 'server' ? t('confirmDeleteOnServer', name) : t('confirmRemove', name)}
            </span>
            <button
              ref={confirm}
              type="button"
              class="danger"
              disabled={busy}
              onClick={confirming === 'server' ? deleteOnServer : removeLocally}
            >
              {t(confirming === 'server' ? 'yesDelete' : 'yesRemove')}
            </button>
            <button type="button" class="secondary" onClick={endConfirming}>
              {t('keepIt')}
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}
