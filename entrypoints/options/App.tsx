import { useEffect, useState } from 'preact/hooks';
import { PaymentRootsSection } from '../../components/PaymentRootsSection';
import { ShortcutsSection } from '../../components/ShortcutsSection';
import { type UploadChoices, UploadOptionsForm } from '../../components/UploadOptionsForm';
import {
  checkServerAddress,
  newProfile,
  type Profile,
  type ServerSettings,
  type Settings,
  serverOriginPatterns,
  tokenExposure,
} from '../../lib/settings';
import { limitText, type SizeLimit } from '../../lib/upload/limit';
import { requestOrigins } from '../../platform/permissions';
import { loadSettings, saveSettings } from '../../platform/settings';
import { testConnection } from '../../platform/test-connection';

const ADDRESS_FIELDS: { key: 'baseUrl' | 'apiUrl' | 'uploadUrl'; label: string; hint: string }[] = [
  { key: 'baseUrl', label: 'Base address (legacy variant)', hint: 'Uploads go to {base}/v1/Upload?sub=api' },
  { key: 'apiUrl', label: 'API address (current variant)', hint: 'Uploads go to {api}/v1/Upload' },
  {
    key: 'uploadUrl',
    label: 'Download address (current variant)',
    hint: 'Files are served from {upload}/<name>',
  },
];

type Status = { kind: 'ok' | 'error'; text: string };

const MIB = 2 ** 20;

/** The limit as the MiB field shows it: only a whole number of MiB that files may reach. */
function handSetMiB(limit: SizeLimit | undefined): number | undefined {
  return limit?.kind === 'at-most' && limit.bytes % MIB === 0 ? limit.bytes / MIB : undefined;
}

function problemsOf(p: Profile): string | undefined {
  if (!p.name.trim()) return 'Every server needs a name.';
  for (const f of ADDRESS_FIELDS) {
    const problem = checkServerAddress(`${p.name}: ${f.label}`, p.server[f.key]);
    if (problem) return problem;
  }
  return undefined;
}

export function App() {
  const [settings, setSettings] = useState<Settings>();
  const [editing, setEditing] = useState<string>();
  const [status, setStatus] = useState<Status>();
  const [testStatus, setTestStatus] = useState<Status & { busy?: boolean }>();

  useEffect(() => {
    loadSettings().then((s) => {
      setSettings(s);
      setEditing(s.activeProfileId);
    });
  }, []);
  const profile = settings?.profiles.find((p) => p.id === editing);
  if (!settings || !profile) return <main aria-busy="true">Loading…</main>;

  const setProfile = (patch: Partial<Profile>) =>
    setSettings({
      ...settings,
      profiles: settings.profiles.map((p) => (p.id === profile.id ? { ...p, ...patch } : p)),
    });
  const setServer = (patch: Partial<ServerSettings>) =>
    setProfile({ server: { ...profile.server, ...patch } });
  const choices: UploadChoices = { ...profile.defaults, variant: profile.server.variant };
  const exposure = tokenExposure(profile.server);

  function addProfile() {
    if (!settings) return;
    const p = newProfile(crypto.randomUUID(), `Server ${settings.profiles.length + 1}`, {
      baseUrl: 'https://',
      apiUrl: 'https://',
      uploadUrl: 'https://',
    });
    setSettings({ ...settings, profiles: [...settings.profiles, p] });
    setEditing(p.id);
    setTestStatus(undefined);
  }

  function removeProfile() {
    if (!settings || settings.profiles.length < 2) return;
    const profiles = settings.profiles.filter((p) => p.id !== profile!.id);
    const activeProfileId =
      settings.activeProfileId === profile!.id ? profiles[0]!.id : settings.activeProfileId;
    setSettings({ profiles, activeProfileId });
    setEditing(profiles[0]!.id);
  }

  async function save(e: Event) {
    e.preventDefault();
    if (!settings) return;
    const problem = settings.profiles.map(problemsOf).find(Boolean);
    if (problem) return setStatus({ kind: 'error', text: problem });
    // Asked here, inside the click, because browsers only show the prompt for a user action.
    const granted = await requestOrigins(
      settings.profiles.flatMap((p) => serverOriginPatterns(p.server)),
    ).catch(() => false);
    await saveSettings(settings);
    setStatus(
      granted
        ? { kind: 'ok', text: 'Saved.' }
        : {
            kind: 'error',
            text: 'Saved, but Hushdrop was not allowed to reach one of the servers, so uploads to it will fail until you allow it.',
          },
    );
  }

  async function runTest() {
    const problem = problemsOf(profile!);
    if (problem) return setTestStatus({ kind: 'error', text: problem });
    setTestStatus({ kind: 'ok', text: 'Testing…', busy: true });
    const granted = await requestOrigins(serverOriginPatterns(profile!.server)).catch(() => false);
    if (!granted)
      return setTestStatus({
        kind: 'error',
        text: 'Hushdrop was not allowed to reach this server, so it cannot test it.',
      });
    const r = await testConnection(profile!.server);
    setTestStatus({ kind: r.ok ? 'ok' : 'error', text: r.text });
  }

  return (
    <main>
      <h1>Hushdrop settings</h1>
      <p class="lead">
        Where uploads go, and what each upload does unless you choose otherwise. ·{' '}
        <a href="/upload.html">Upload</a> · <a href="/uploads.html">History</a>
      </p>
      <form onSubmit={save}>
        <section class="card" aria-labelledby="profiles-h">
          <h2 id="profiles-h">Servers</h2>
          <div class="row">
            <div class="grow">
              <label for="editing">Server to edit</label>
              <select
                id="editing"
                value={profile.id}
                onChange={(e) => {
                  setEditing(e.currentTarget.value);
                  setTestStatus(undefined);
                }}
              >
                {settings.profiles.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                    {p.id === settings.activeProfileId ? ' (used for uploads)' : ''}
                  </option>
                ))}
              </select>
            </div>
            <button id="add-profile" type="button" class="secondary" onClick={addProfile}>
              Add a server
            </button>
            <button
              type="button"
              class="danger"
              disabled={settings.profiles.length < 2}
              onClick={removeProfile}
            >
              Remove this server
            </button>
          </div>
          <label class="inline">
            <input
              id="active"
              type="checkbox"
              checked={settings.activeProfileId === profile.id}
              onChange={(e) =>
                e.currentTarget.checked && setSettings({ ...settings, activeProfileId: profile.id })
              }
            />
            Use this server for uploads (right-click, popup)
          </label>
        </section>
        <section class="card" aria-labelledby="server-h">
          <h2 id="server-h">{profile.name}</h2>
          <label for="name">Name</label>
          <input
            id="name"
            type="text"
            value={profile.name}
            onInput={(e) => setProfile({ name: e.currentTarget.value })}
          />
          {ADDRESS_FIELDS.map((f) => (
            <div key={f.key}>
              <label for={f.key}>{f.label}</label>
              <input
                id={f.key}
                type="url"
                value={profile.server[f.key]}
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
            value={profile.server.username}
            onInput={(e) => setServer({ username: e.currentTarget.value })}
          />
          <label for="token">API token</label>
          <input
            id="token"
            type="password"
            autoComplete="off"
            value={profile.server.token}
            onInput={(e) => setServer({ token: e.currentTarget.value })}
            aria-describedby="token-warning"
          />
          <p id="token-warning" class="warn small" role={exposure ? 'alert' : undefined}>
            {exposure}
          </p>
          <label for="size-limit">Largest file the server takes, in MiB (empty: unknown)</label>
          <input
            id="size-limit"
            type="number"
            min={1}
            value={handSetMiB(profile.sizeLimit) ?? ''}
            aria-describedby="size-limit-hint"
            onInput={(e) => {
              const mib = Number(e.currentTarget.value);
              setProfile({ sizeLimit: mib > 0 ? { bytes: mib * MIB, kind: 'at-most' } : undefined });
            }}
          />
          <p id="size-limit-hint" class="small muted">
            {profile.sizeLimit && handSetMiB(profile.sizeLimit) === undefined
              ? `Learned from the server: ${limitText(profile.sizeLimit)}.`
              : 'Hushdrop also learns it when the server refuses a file for its size.'}
          </p>
          <label for="timeout">Give up when the server is silent for (seconds)</label>
          <input
            id="timeout"
            type="number"
            min={5}
            value={profile.timeoutSeconds ?? 60}
            onInput={(e) => {
              const seconds = Number(e.currentTarget.value);
              setProfile({ timeoutSeconds: seconds >= 1 ? seconds : undefined });
            }}
          />
          <div class="row" style={{ marginTop: '12px' }}>
            <button id="test" type="button" class="secondary" disabled={testStatus?.busy} onClick={runTest}>
              Test connection
            </button>
            <p role="status" aria-live="polite" class={testStatus?.kind === 'error' ? 'error' : 'ok'}>
              {testStatus?.text}
            </p>
          </div>
        </section>
        <section class="card" aria-labelledby="defaults-h">
          <h2 id="defaults-h">Defaults for uploads to {profile.name}</h2>
          <UploadOptionsForm
            value={choices}
            onChange={({ variant, ...defaults }) =>
              setProfile({ server: { ...profile.server, variant }, defaults })
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
      <ShortcutsSection />
      <PaymentRootsSection />
    </main>
  );
}
