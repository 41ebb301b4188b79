import { useEffect, useState } from 'preact/hooks';
import { type MessageKey, t } from '../../lib/i18n';
import {
  activeProfile,
  checkServerAddress,
  needsSetup,
  originPattern,
  type Profile,
  type ServerSettings,
} from '../../lib/settings';
import { serverByHand, serverFromInfo, setUpProfile, withSetUpProfile } from '../../lib/settings/setup';
import type { Variant } from '../../lib/upload';
import { chooseVariant, type ServerInfo, typedOrigin } from '../../lib/upload/server-info';
import { requestOrigins } from '../../platform/permissions';
import { loadSettings, saveSettings, watchSettings } from '../../platform/storage/settings';
import { askServerInfo } from '../../platform/upload/server-info';
import { testConnection } from '../../platform/upload/test-connection';

type Status = { kind: 'ok' | 'error'; text: string };

// The current variant's two addresses, asked for only when the variant is chosen by hand (labels
// are looked up when shown: messages are connected when the page starts, after this module).
const CURRENT_FIELDS: { key: 'apiUrl' | 'uploadUrl'; id: string; label: MessageKey }[] = [
  { key: 'apiUrl', id: 'api-url', label: 'addressApi' },
  { key: 'uploadUrl', id: 'upload-url', label: 'addressUpload' },
];

/** The host patterns to ask for: the typed address's site, and the addresses typed by hand. */
function patternsFor(addresses: string[]): string[] {
  const out = new Set<string>();
  for (const a of addresses) {
    try {
      out.add(originPattern(a.trim()));
    } catch {
      // not an address: checked and reported before anything is sent
    }
  }
  return [...out];
}

// The first-run page, opened on install (entrypoints/background.ts): one address, from which it
// finds the variant and the addresses (a Hushdrop server says them), tests, and saves. A server
// that does not describe itself (a plain Teknik server) needs its variant chosen under Advanced.
export function App() {
  const [address, setAddress] = useState('');
  /** '' lets the server say; otherwise the variant chosen by hand under Advanced. */
  const [variant, setVariant] = useState<Variant | ''>('');
  const [current, setCurrent] = useState({ apiUrl: '', uploadUrl: '' });
  const [account, setAccount] = useState({ username: '', token: '' });
  const [advanced, setAdvanced] = useState(false);
  const [needsAccount, setNeedsAccount] = useState(false);
  const [status, setStatus] = useState<Status>();
  const [found, setFound] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  /** The server uploads already go to, tested (npm start sets one up; so may an earlier install). */
  const [already, setAlready] = useState<Profile>();
  const [another, setAnother] = useState(false);

  useEffect(() => {
    const show = (s: Awaited<ReturnType<typeof loadSettings>>) =>
      setAlready(needsSetup(s) ? undefined : activeProfile(s));
    loadSettings().then(show, () => {});
    return watchSettings(show);
  }, []);

  const fail = (text: string) => {
    setBusy(false);
    setStatus({ kind: 'error', text });
  };

  async function connect(e: Event) {
    e.preventDefault();
    const typed = address.trim();
    const origin = typedOrigin(typed);
    if (!origin) return fail(t('welcomeNotAddress', typed));
    const byHand = variant === 'current' ? [current.apiUrl, current.uploadUrl] : [];
    // Asked before any await: browsers show the prompt only while the click is being handled.
    const allowed = requestOrigins(patternsFor([typed, ...byHand])).catch(() => false);
    setBusy(true);
    setReady(false);
    setFound(undefined);
    setStatus({ kind: 'ok', text: t('welcomeAsking', origin) });
    if (!(await allowed)) return fail(t('welcomeNotAllowed', origin));

    const answer = await askServerInfo(typed);
    let server: ServerSettings;
    let info: ServerInfo | undefined;
    const withAccount = account.username ? account : undefined;
    if (answer.kind === 'hushdrop') {
      info = answer.info;
      const chosen = chooseVariant(info);
      if (!chosen)
        return fail(
          info.foreign.length
            ? t('welcomeForeign', answer.url, info.foreign.join(', '))
            : t('welcomeClosed', origin),
        );
      if (info[chosen]?.uploads === 'accounts' && !(account.username && account.token)) {
        setNeedsAccount(true);
        return fail(t('welcomeNeedsAccount', origin));
      }
      server = serverFromInfo(info, chosen, withAccount);
      setFound(t('welcomeFound', t(chosen === 'current' ? 'variantCurrent' : 'variantLegacy')));
    } else if (variant === '') {
      // Nothing told the variant: the person chooses it (Advanced), then connects again.
      setAdvanced(true);
      return fail(t(answer.kind === 'silent' ? 'welcomeSilent' : 'welcomeNotHushdrop', answer.url));
    } else {
      if (variant === 'current')
        for (const f of CURRENT_FIELDS) {
          const problem = checkServerAddress(t(f.label), current[f.key]);
          if (problem) return fail(problem);
        }
      server = serverByHand(typed, variant, current, withAccount);
    }

    setStatus({ kind: 'ok', text: t('welcomeTesting', origin) });
    const test = await testConnection(server);
    if (!test.ok) return fail(t('welcomeTestFailed', origin, test.text));
    const profile = setUpProfile(crypto.randomUUID(), typed, server, info);
    // A server set up by hand that turned out to be a Hushdrop server takes the authenticated format.
    if (test.kind?.formats.includes('ece')) profile.defaults.format = 'ece';
    await saveSettings(withSetUpProfile(await loadSettings(), profile));
    setBusy(false);
    setReady(true);
    setStatus({ kind: 'ok', text: t('welcomeReady', origin) });
  }

  const showAccount = needsAccount || variant === 'current';
  if (already && !another && !ready)
    return (
      <main>
        <h1>{t('welcomeTitle')}</h1>
        <section class="card" aria-labelledby="ready-h">
          <h2 id="ready-h">{t('welcomeServerHeading')}</h2>
          <p id="set-up-already" class="ok" role="status">
            {t('welcomeSetUpAlready', already.name, already.server.baseUrl)}
          </p>
          <div class="row">
            <a id="upload-now" class="button" href="/upload.html">
              {t('welcomeUploadNow')}
            </a>
            <button id="other-server" type="button" class="secondary" onClick={() => setAnother(true)}>
              {t('welcomeOtherServer')}
            </button>
          </div>
        </section>
      </main>
    );
  return (
    <main>
      <h1>{t('welcomeTitle')}</h1>
      <p class="lead">{t('welcomeLead')}</p>
      <form class="card" onSubmit={connect} aria-labelledby="server-h">
        <h2 id="server-h">{t('welcomeServerHeading')}</h2>
        <label for="address">{t('welcomeAddress')}</label>
        <input
          id="address"
          type="text"
          inputMode="url"
          autoComplete="url"
          spellcheck={false}
          value={address}
          placeholder={t('welcomeAddressPlaceholder')}
          aria-describedby="address-hint"
          onInput={(e) => setAddress(e.currentTarget.value)}
        />
        <p id="address-hint" class="small muted">
          {t('welcomeAddressHint')}
        </p>
        {showAccount && (
          <div>
            <label for="username">{t('username')}</label>
            <input
              id="username"
              type="text"
              autoComplete="off"
              value={account.username}
              onInput={(e) => setAccount({ ...account, username: e.currentTarget.value })}
            />
            <label for="token">{t('token')}</label>
            <input
              id="token"
              type="password"
              autoComplete="off"
              value={account.token}
              onInput={(e) => setAccount({ ...account, token: e.currentTarget.value })}
            />
          </div>
        )}
        <details id="advanced" open={advanced} onToggle={(e) => setAdvanced(e.currentTarget.open)}>
          <summary>{t('advanced')}</summary>
          <label for="variant">{t('apiVariant')}</label>
          <select
            id="variant"
            value={variant}
            aria-describedby="variant-hint"
            onChange={(e) => setVariant(e.currentTarget.value as Variant | '')}
          >
            <option value="">{t('variantAsk')}</option>
            <option value="current">{t('variantCurrent')}</option>
            <option value="legacy">{t('variantLegacy')}</option>
          </select>
          <p id="variant-hint" class="small muted">
            {t('variantAskHint')}
          </p>
          {variant === 'current' &&
            CURRENT_FIELDS.map((f) => (
              <div key={f.key}>
                <label for={f.id}>{t(f.label)}</label>
                <input
                  id={f.id}
                  type="text"
                  inputMode="url"
                  spellcheck={false}
                  value={current[f.key]}
                  onInput={(e) => setCurrent({ ...current, [f.key]: e.currentTarget.value.trim() })}
                />
              </div>
            ))}
        </details>
        <div class="row" style={{ marginTop: '12px' }}>
          <button id="connect" type="submit" disabled={busy}>
            {t('welcomeConnect')}
          </button>
        </div>
        <p id="found" class="ok" role="status" aria-live="polite">
          {found}
        </p>
        <p
          id="welcome-status"
          role="status"
          aria-live="polite"
          class={status?.kind === 'error' ? 'error' : 'ok'}
        >
          {status?.text}
        </p>
        {ready && (
          <p>
            <a id="upload-now" href="/upload.html">
              {t('welcomeUploadNow')}
            </a>
          </p>
        )}
      </form>
    </main>
  );
}
