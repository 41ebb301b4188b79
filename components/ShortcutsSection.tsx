// Options section: the keyboard shortcuts (changed in the browser's own shortcut settings) and the
// clipboard permission the "upload the clipboard" shortcut needs.
import { useEffect, useState } from 'preact/hooks';
import { t } from '../lib/i18n';
import {
  allowClipboard,
  clipboardAllowed,
  listShortcuts,
  openShortcutSettings,
  revokeClipboard,
  type Shortcut,
} from '../platform/shortcuts';

export function ShortcutsSection() {
  const [shortcuts, setShortcuts] = useState<Shortcut[]>([]);
  const [allowed, setAllowed] = useState<boolean>();
  const [status, setStatus] = useState('');

  useEffect(() => {
    listShortcuts().then(setShortcuts);
    clipboardAllowed().then(setAllowed);
  }, []);

  async function allow() {
    const granted = await allowClipboard();
    setAllowed(granted);
    setStatus(t(granted ? 'clipboardAllowed' : 'clipboardRefused'));
  }
  async function revoke() {
    await revokeClipboard();
    setAllowed(false);
    setStatus(t('clipboardRevoked'));
  }

  return (
    <section class="card" id="shortcuts" aria-labelledby="shortcuts-h">
      <h2 id="shortcuts-h">{t('shortcuts')}</h2>
      <table class="compact">
        <caption class="sr-only">{t('shortcuts')}</caption>
        <tbody>
          {shortcuts.map((s) => (
            <tr key={s.name}>
              <td>{s.description}</td>
              <td>
                {s.shortcut ? <kbd>{s.shortcut}</kbd> : <span class="muted">{t('shortcutNotSet')}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <button type="button" class="secondary" onClick={() => openShortcutSettings()}>
          {t('shortcutsChange')}
        </button>
      </p>
      <p class="small">{t('shortcutsClipboardExplained')}</p>
      {allowed === false && (
        <button id="allow-clipboard" type="button" onClick={allow}>
          {t('clipboardAllow')}
        </button>
      )}
      {allowed && (
        <button id="revoke-clipboard" type="button" class="secondary" onClick={revoke}>
          {t('clipboardRevoke')}
        </button>
      )}
      <p class="small" role="status" aria-live="polite">
        {status}
      </p>
    </section>
  );
}
