// Options section: the keyboard shortcuts (changed in the browser's own shortcut settings) and the
// clipboard permission the "upload the clipboard" shortcut needs.
import { useEffect, useState } from 'preact/hooks';
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
    setStatus(granted ? 'The shortcut may now read the clipboard.' : 'Not allowed: the shortcut stays off.');
  }
  async function revoke() {
    await revokeClipboard();
    setAllowed(false);
    setStatus('The shortcut no longer reads the clipboard.');
  }

  return (
    <section class="card" id="shortcuts" aria-labelledby="shortcuts-h">
      <h2 id="shortcuts-h">Keyboard shortcuts</h2>
      <table class="compact">
        <caption class="sr-only">Keyboard shortcuts</caption>
        <tbody>
          {shortcuts.map((s) => (
            <tr key={s.name}>
              <td>{s.description}</td>
              <td>{s.shortcut ? <kbd>{s.shortcut}</kbd> : <span class="muted">not set</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <button type="button" class="secondary" onClick={() => openShortcutSettings()}>
          Change shortcuts
        </button>
      </p>
      <p class="small">
        The upload shortcut sends every file or image on the clipboard, or else its text, to the server you
        use for uploads. It needs to read the clipboard, which Hushdrop does only when you press it.
      </p>
      {allowed === false && (
        <button id="allow-clipboard" type="button" onClick={allow}>
          Allow the shortcut to read the clipboard
        </button>
      )}
      {allowed && (
        <button id="revoke-clipboard" type="button" class="secondary" onClick={revoke}>
          Stop the shortcut reading the clipboard
        </button>
      )}
      <p class="small" role="status" aria-live="polite">
        {status}
      </p>
    </section>
  );
}
