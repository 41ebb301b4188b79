// One upload with its actions (copy, open, delete on the server, remove), for history and popup.
import { useState } from 'preact/hooks';
import { openingOf, type UploadEntry } from '../lib/history';
import { displayName } from '../lib/history/file-names';
import { deletionMessage } from '../lib/upload/deletion';
import { deleteOnServer as deleteFromServer } from '../platform/deletion';
import { removeUpload } from '../platform/history';
import { openInViewer } from '../platform/viewer-tab';
import { FileName } from './FileName';
import { formatBytes } from './format';
import { LinkQr } from './LinkQr';

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
        text: `${name}: ${deletionMessage(verdict)}`,
      });
      onChanged();
    } catch {
      notify({
        kind: 'error',
        text: `${name}: the server could not be reached, so nothing was deleted.`,
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
      text: `${name} was removed from this history (the file stays on the server).`,
    });
    onChanged();
  }

  return (
    <tr data-id={entry.id}>
      <td>
        <strong>
          <FileName name={entry.name} />
        </strong>
        <div class="small muted">
          {formatBytes(entry.size)} · {new Date(entry.time).toLocaleString()} ·{' '}
          {entry.mode === 'client'
            ? 'encrypted in browser'
            : entry.mode === 'server'
              ? 'server encrypted'
              : 'not encrypted'}
          {entry.expirationDate ? ` · expires ${new Date(entry.expirationDate).toLocaleString()}` : ''}
          {entry.maxDownloads ? ` · ${entry.maxDownloads} downloads` : ''}
        </div>
        <div class="small mono">{entry.link}</div>
      </td>
      <td>
        <div class="row">
          <button
            type="button"
            class="secondary"
            aria-label={`Copy link of ${name}`}
            onClick={() =>
              navigator.clipboard.writeText(entry.link).then(
                () => notify({ kind: 'ok', text: `Link of ${name} copied.` }),
                () => notify({ kind: 'error', text: 'Could not copy; select the link and copy it.' }),
              )
            }
          >
            Copy
          </button>
          {openingOf(entry) === 'decrypt' ? (
            <button
              type="button"
              class="secondary"
              aria-label={`Open ${name}`}
              onClick={() => openInViewer(entry.id)}
            >
              Open
            </button>
          ) : (
            // The server serves this file as it was uploaded: its own address opens it.
            <a
              class="button secondary"
              href={entry.url}
              target="_blank"
              rel="noreferrer noopener"
              aria-label={`Open ${name}`}
            >
              Open
            </a>
          )}
          {entry.deletionLink && !confirming && (
            <button type="button" class="danger" disabled={busy} onClick={() => setConfirming('server')}>
              Delete on server
            </button>
          )}
          {!confirming && (
            <button type="button" class="secondary" onClick={() => setConfirming('local')}>
              Remove
            </button>
          )}
        </div>
        <LinkQr link={entry.link} name={name} size={160} />
        {confirming && (
          <div class="row" style={{ marginTop: '6px' }}>
            <span>
              {confirming === 'server'
                ? `Delete ${name} from the server? This cannot be undone.`
                : `Remove ${name} from this history? Its link and key are lost unless you copied them.`}
            </span>
            <button
              type="button"
              class="danger"
              disabled={busy}
              onClick={confirming === 'server' ? deleteOnServer : removeLocally}
              autoFocus
            >
              {confirming === 'server' ? 'Yes, delete it' : 'Yes, remove it'}
            </button>
            <button type="button" class="secondary" onClick={() => setConfirming('')}>
              Keep it
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}
