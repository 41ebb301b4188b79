import { useEffect, useState } from 'preact/hooks';
import { GrantedHostsSection } from '../../components/GrantedHostsSection';
import { NamesSection } from '../../components/NamesSection';
import { PaymentOriginsSection } from '../../components/PaymentOriginsSection';
import { PaymentRootsSection } from '../../components/PaymentRootsSection';
import { ShortcutsSection } from '../../components/ShortcutsSection';
import { type UploadChoices, UploadOptionsForm, VariantField } from '../../components/UploadOptionsForm';
import { type MessageKey, t } from '../../lib/i18n';
import {
  addressesOf,
  checkServerAddress,
  newProfile,
  type Profile,
  type ServerSettings,
  type Settings,
  serverOriginPatterns,
  tokenExposure,
  withServerChange,
} from '../../lib/settings';
import { limitText, type SizeLimit } from '../../lib/upload/limit';
import type { ServerKind } from '../../lib/upload/server-kind';
import { requestOrigins } from '../../platform/permissions';
import { loadSettings, saveSettings, updateProfile } from '../../platform/storage/settings';
import { testConnection } from '../../platform/upload/test-connection';

// Labels are looked up when shown (messages are connected when the page starts, after this module).
const ADDRESS_FIELDS: { key: 'baseUrl' | 'apiUrl' | 'uploadUrl'; label: MessageKey; hint: MessageKey }[] = [
  { key: 'baseUrl', label: 'addressBase', hint: 'addressBaseHint' },
  { key: 'apiUrl', label: 'addressApi', hint: 'addressApiHint' },
  { key: 'uploadUrl', label: 'addressUpload', hint: 'addressUploadHint' },
];

type Status = { kind: 'ok' | 'error'; text: string };

const MIB = 2 ** 20;

/** The limit as the MiB field shows it: only a whole number of MiB that files may reach. */
function handSetMiB(limit: SizeLimit | undefined): number | undefined {
  return limit?.kind === 'at-most' && limit.bytes % MIB === 0 ? limit.bytes / MIB : undefined;
}

/** What Test connection learned of the server, against the format the profile uses (none: nothing to say). */
function kindSentence(kind: ServerKind | undefined, p: Profile): string | undefined {
  if (!kind) return undefined;
  if (kind.hushdrop && kind.formats.includes('ece'))
    return t(p.defaults.format === 'ece' ? 'testHushdropEce' : 'testHushdropTeknik');
  return p.defaults.format === 'ece' ? t('testNotHushdropEce') : undefined;
}

/** What stops a profile from being saved or tested: a sentence, and the field (its id) to fix. */
interface Problem {
  text: string;
  field: string;
}

function problemsOf(p: Profile): Problem | undefined {
  if (!p.name.trim()) return { text: t('serverNeedsName'), field: 'name' };
  for (const f of ADDRESS_FIELDS.filter((a) => addressesOf(p.server.variant).includes(a.key))) {
    const problem = checkServerAddress(`${p.name}: ${t(f.label)}`, p.server[f.key]);
    if (problem) return { text: problem, field: f.key };
  }
  return undefined;
}

export function App() {
  const [settings, storeSettings] = useState<Settings>();
  const [editing, setEditing] = useState<string>();
  const [status, setStatus] = useState<Status>();
  const [testStatus, setTestStatus] = useState<Status & { busy?: boolean }>();
  const [testedKind, setTestedKind] = useState<ServerKind>();
  // Changed since loaded or saved: a "Saved." from before no longer stands, and leaving asks first.
  const [dirty, setDirty] = useState(false);
  /** The field the last save or test found a problem in (its id), marked until the next edit. */
  const [invalid, setInvalid] = useState<string>();

  useEffect(() => {
    loadSettings().then((s) => {
      storeSettings(s);
      setEditing(s.activeProfileId);
    });
  }, []);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    addEventListener('beforeunload', warn);
    return () => removeEventListener('beforeunload', warn);
  }, [dirty]);
  const profile = settings?.profiles.find((p) => p.id === editing);
  if (!settings || !profile) return <main aria-busy="true">{t('loading')}</main>;

  /** Every edit goes through here. */
  const setSettings = (next: Settings) => {
    storeSettings(next);
    setInvalid(undefined);
    setDirty(true);
    setStatus({ kind: 'ok', text: t('unsavedChanges') });
  };
  const setProfile = (patch: Partial<Profile>) =>
    setSettings({
      ...settings,
      profiles: settings.profiles.map((p) => (p.id === profile.id ? { ...p, ...patch } : p)),
    });
  const setServer = (patch: Partial<ServerSettings>) => setProfile(withServerChange(profile, patch));
  const choices: UploadChoices = { ...profile.defaults, variant: profile.server.variant };
  const exposure = tokenExposure(profile.server);

  /** Shows the profile with the problem and moves focus to the field to fix. */
  function showProblem(profileId: string, problem: Problem) {
    setEditing(profileId);
    setInvalid(problem.field);
    requestAnimationFrame(() => document.getElementById(problem.field)?.focus());
  }

  function addProfile() {
    if (!settings) return;
    // Addresses start empty (the example is only a placeholder): a filled-in "https://" looked like
    // a value, and a save then named it "not a web address" rather than missing.
    const p = newProfile(crypto.randomUUID(), t('serverNumbered', settings.profiles.length + 1));
    setSettings({ ...settings, profiles: [...settings.profiles, p] });
    setEditing(p.id);
    setTestStatus(undefined);
    setTestedKind(undefined);
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
    const at = settings.profiles.findIndex((p) => problemsOf(p));
    if (at >= 0) {
      const problem = problemsOf(settings.profiles[at]!)!;
      setStatus({ kind: 'error', text: t('notSaved', problem.text) });
      return showProblem(settings.profiles[at]!.id, problem);
    }
    // Asked here, inside the click, because browsers only show the prompt for a user action.
    const granted = await requestOrigins(
      settings.profiles.flatMap((p) => serverOriginPatterns(p.server)),
    ).catch(() => false);
    await saveSettings(settings);
    setDirty(false);
    setStatus(granted ? { kind: 'ok', text: t('saved') } : { kind: 'error', text: t('savedNotAllowed') });
  }

  async function runTest() {
    const problem = problemsOf(profile!);
    if (problem) {
      setTestStatus({ kind: 'error', text: problem.text });
      return showProblem(profile!.id, problem);
    }
    setTestStatus({ kind: 'ok', text: t('testing'), busy: true });
    setTestedKind(undefined);
    const granted = await requestOrigins(serverOriginPatterns(profile!.server)).catch(() => false);
    if (!granted) return setTestStatus({ kind: 'error', text: t('testNotAllowed') });
    const tested = profile!;
    const r = await testConnection(tested.server);
    setTestStatus({ kind: r.ok ? 'ok' : 'error', text: r.text });
    setTestedKind(r.kind);
    if (!r.ok) return;
    // Passing a test is what lets the popup upload: recorded at once where the saved profile has
    // these very addresses, and with the next save otherwise.
    storeSettings(
      (s) =>
        s && { ...s, profiles: s.profiles.map((p) => (p.id === tested.id ? { ...p, passedTest: true } : p)) },
    );
    const saved = (await loadSettings()).profiles.find((p) => p.id === tested.id);
    if (saved && JSON.stringify(saved.server) === JSON.stringify(tested.server))
      await updateProfile(tested.id, { passedTest: true });
  }

  return (
    <main>
      <h1>{t('optionsTitle')}</h1>
      <p class="lead">
        {t('optionsLead')} · <a href="/upload.html">{t('navUpload')}</a> ·{' '}
        <a href="/uploads.html">{t('uploadsList')}</a>
      </p>
      {/* Our own checks, in the person's language and naming the field, instead of the browser's. */}
      <form onSubmit={save} noValidate>
        <section class="card" aria-labelledby="profiles-h">
          <h2 id="profiles-h">{t('servers')}</h2>
          <div class="row">
            <div class="grow">
              <label for="editing">{t('serverToEdit')}</label>
              <select
                id="editing"
                value={profile.id}
                onChange={(e) => {
                  setEditing(e.currentTarget.value);
                  setTestStatus(undefined);
                  setTestedKind(undefined);
                }}
              >
                {settings.profiles.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.id === settings.activeProfileId ? t('serverInUse', p.name) : p.name}
                  </option>
                ))}
              </select>
            </div>
            <button id="add-profile" type="button" class="secondary" onClick={addProfile}>
              {t('addServer')}
            </button>
            <button
              type="button"
              class="danger"
              disabled={settings.profiles.length < 2}
              onClick={removeProfile}
            >
              {t('removeServer')}
            </button>
          </div>
          <label class="inline">
            <input
              id="active"
              type="checkbox"
              checked={settings.activeProfileId === profile.id}
              // One server is always used for uploads: it is changed by ticking another, not by
              // unticking this one (which would leave the box and the list disagreeing).
              disabled={settings.activeProfileId === profile.id}
              aria-describedby="active-hint"
              onChange={(e) =>
                e.currentTarget.checked && setSettings({ ...settings, activeProfileId: profile.id })
              }
            />
            {t('useForUploads')}
          </label>
          <p id="active-hint" class="small muted">
            {settings.activeProfileId === profile.id ? t('useForUploadsActive') : ''}
          </p>
        </section>
        <section class="card" aria-labelledby="server-h">
          <h2 id="server-h">{profile.name}</h2>
          <label for="name">{t('serverName')}</label>
          <input
            id="name"
            type="text"
            value={profile.name}
            aria-invalid={invalid === 'name' || undefined}
            onInput={(e) => setProfile({ name: e.currentTarget.value })}
          />
          <VariantField value={profile.server.variant} onChange={(variant) => setServer({ variant })} />
          {ADDRESS_FIELDS.filter((f) => addressesOf(profile.server.variant).includes(f.key)).map((f) => (
            <div key={f.key}>
              <label for={f.key}>{t(f.label)}</label>
              <input
                id={f.key}
                type="url"
                value={profile.server[f.key]}
                placeholder={t('welcomeAddressPlaceholder')}
                onInput={(e) => setServer({ [f.key]: e.currentTarget.value.trim().replace(/\/+$/, '') })}
                aria-describedby={`${f.key}-hint`}
                aria-invalid={invalid === f.key || undefined}
              />
              <p id={`${f.key}-hint`} class="small muted">
                {t(f.hint)}
              </p>
            </div>
          ))}
          <label for="username">{t('username')}</label>
          <input
            id="username"
            type="text"
            autoComplete="off"
            value={profile.server.username}
            onInput={(e) => setServer({ username: e.currentTarget.value })}
          />
          <label for="token">{t('token')}</label>
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
          <label for="size-limit">{t('sizeLimitField')}</label>
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
              ? t('sizeLimitLearned', limitText(profile.sizeLimit))
              : t('sizeLimitHint')}
          </p>
          <label for="timeout">{t('silenceField')}</label>
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
          <label for="link-format">{t('linkFormatField')}</label>
          <select
            id="link-format"
            value={profile.defaults.format}
            aria-describedby="link-format-hint"
            onChange={(e) =>
              setProfile({
                defaults: { ...profile.defaults, format: e.currentTarget.value === 'ece' ? 'ece' : 'teknik' },
              })
            }
          >
            <option value="teknik">{t('linkFormatTeknik')}</option>
            <option value="ece">{t('linkFormatEce')}</option>
          </select>
          <p id="link-format-hint" class="small muted">
            {t('linkFormatHint')}
          </p>
          <div class="row" style={{ marginTop: '12px' }}>
            <button id="test" type="button" class="secondary" disabled={testStatus?.busy} onClick={runTest}>
              {t('testConnection')}
            </button>
            <p role="status" aria-live="polite" class={testStatus?.kind === 'error' ? 'error' : 'ok'}>
              {testStatus?.text}
            </p>
          </div>
          <p id="server-kind" role="status" aria-live="polite">
            {kindSentence(testedKind, profile)}
          </p>
        </section>
        <section class="card" aria-labelledby="defaults-h">
          <h2 id="defaults-h">{t('defaultsFor', profile.name)}</h2>
          <UploadOptionsForm
            value={choices}
            showVariant={false}
            expiryUnits={profile.expiryUnits}
            onChange={({ variant: _, ...defaults }) => setProfile({ defaults })}
          />
        </section>
        <div class="row">
          <button id="save" type="submit">
            {t('save')}
          </button>
          <p role="status" aria-live="polite" class={status?.kind === 'error' ? 'error' : 'ok'}>
            {status?.text}
          </p>
        </div>
      </form>
      <ShortcutsSection />
      <GrantedHostsSection />
      <PaymentOriginsSection />
      <PaymentRootsSection />
      <NamesSection />
    </main>
  );
}
