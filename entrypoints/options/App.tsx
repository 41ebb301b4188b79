import { useEffect, useState } from 'preact/hooks';
import { type UploadChoices, UploadOptionsForm } from '../../components/UploadOptionsForm';
import {
  checkServerAddress,
  type ServerSettings,
  type Settings,
  serverOriginPatterns,
} from '../../lib/settings';
import { requestOrigins } from '../../platform/permissions';
import { loadSettings, saveSettings } from '../../platform/settings';

const ADDRESS_FIELDS: { key: 'baseUrl' | 'apiUrl' | 'uploadUrl'; label: string; hint: string }[] = [
  { key: 'baseUrl', label: 'Base address (legacy variant)', hint: 'Uploads go to {base}/v1/Upload?sub=api' },
  { key: 'apiUrl', label: 'API address (current variant)', hint: 'Uploads go to {api}/v1/Upload' },
  {
    key: 'uploadUrl',
    label: 'Download address (current variant)',
    hint: 'Files are served from {upload}/<name>',
  },
];

export function App() {
  const [settings, setSettings] = useState<Settings>();
  const [status, setStatus] = useState<{ kind: 'ok' | 'error'; text: string }>();

  useEffect(() => {
    loadSettings().then(setSettings);
  }, []);
  if (!settings) return <main aria-busy="true">Loading…</main>;

  const server = settings.server;
  const setServer = (patch: Partial<ServerSettings>) =>
    setSettings({ ...settings, server: { ...server, ...patch } });
  const choices: UploadChoices = { ...settings.defaults, variant: server.variant };

  async function save(e: Event) {
    e.preventDefault();
    if (!settings) return;
    const problem = ADDRESS_FIELDS.map((f) => checkServerAddress(f.label, settings.server[f.key])).find(
      Boolean,
    );
    if (problem) return setStatus({ kind: 'error', text: problem });
    // Asked here, inside the click, because browsers only show the prompt for a user action.
    const granted = await requestOrigins(serverOriginPatterns(settings.server)).catch(() => false);
    await saveSettings(settings);
    setStatus(
      granted
        ? { kind: 'ok', text: 'Saved.' }
        : {
            kind: 'error',
            text: 'Saved, but Hushdrop was not allowed to reach this server, so uploads to it will fail until you allow it.',
          },
    );
  }

  return (
    <main>
      <h1>Hushdrop settings</h1>
      <p class="lead">
        Where uploads go, and what each upload does unless you choose otherwise. ·{' '}
        <a href="/upload.html">Upload</a>
      </p>
      <form onSubmit={save}>
        <section class="card" aria-labelledby="server-h">
          <h2 id="server-h">Server</h2>
          {ADDRESS_FIELDS.map((f) => (
            <div key={f.key}>
              <label for={f.key}>{f.label}</label>
              <input
                id={f.key}
                type="url"
                value={server[f.key]}
                onInput={(e) => setServer({ [f.key]: e.currentTarget.value.trim().replace(/\/+$/, '') })}
                aria-describedby={`${f.key}-hint`}
              />
              <p id={`${f.key}-hint`} class="small muted">
                {f.hint}
              </p>
            </div>
          ))}
          <label for="username">Username (current variant, optional)</label>
          <input
            id="username"
            type="text"
            autoComplete="off"
            value={server.username}
            onInput={(e) => setServer({ username: e.currentTarget.value })}
          />
          <label for="token">API token</label>
          <input
            id="token"
            type="password"
            autoComplete="off"
            value={server.token}
            onInput={(e) => setServer({ token: e.currentTarget.value })}
          />
        </section>
        <section class="card" aria-labelledby="defaults-h">
          <h2 id="defaults-h">Defaults for each upload</h2>
          <UploadOptionsForm
            value={choices}
            onChange={({ variant, ...defaults }) =>
              setSettings({ ...settings, server: { ...server, variant }, defaults })
            }
          />
        </section>
        <div class="row">
          <button id="save" type="submit">
            Save
          </button>
          <p role="status" aria-live="polite" class={status?.kind === 'error' ? 'error' : 'ok'}>
            {status?.text}
          </p>
        </div>
      </form>
    </main>
  );
}
