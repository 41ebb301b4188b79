import { useEffect, useState } from 'preact/hooks';
import { plural, t } from '../lib/i18n';
import { ROOT_ANCHORS_SOURCE, rootAnchors } from '../lib/payments/dnssec/anchors';
import { DEFAULT_RESOLVER, type NameSettings } from '../lib/settings/names';
import {
  addTrustAnchors,
  loadNames,
  NamesInputError,
  removeTrustAnchor,
  saveResolver,
} from '../platform/payments/names';

type Status = { kind: 'ok' | 'error'; text: string };

/** What a DS record looks like, as an example: the same in every language. */
const DS_EXAMPLE = '. IN DS 20326 8 2 E06D44B8…';

/**
 * Options section: how BIP 353 names are looked up. The DNS-over-HTTPS resolver (the one server
 * besides a request's own site that payments contact), and DS records trusted besides the root's
 * (a private zone, a test root). Records are shown as text.
 */
export function NamesSection() {
  const [names, setNames] = useState<NameSettings>();
  const [resolver, setResolver] = useState('');
  const [anchor, setAnchor] = useState('');
  const [resolverStatus, setResolverStatus] = useState<Status>();
  const [anchorStatus, setAnchorStatus] = useState<Status>();

  const reload = () =>
    loadNames().then(
      (n) => {
        setNames(n);
        setResolver(n.resolver);
      },
      () => setResolverStatus({ kind: 'error', text: t('namesUnreadable') }),
    );
  useEffect(() => {
    reload();
  }, []);

  const failure = (err: unknown) => (err instanceof NamesInputError ? err.message : t('namesNotSaved'));

  async function save(e: Event) {
    e.preventDefault();
    try {
      const saved = await saveResolver(resolver);
      setResolverStatus({ kind: 'ok', text: t('namesResolverSaved', saved.resolver) });
    } catch (err) {
      setResolverStatus({ kind: 'error', text: failure(err) });
      return;
    }
    reload();
  }

  async function add(e: Event) {
    e.preventDefault();
    try {
      const added = await addTrustAnchors(anchor);
      setAnchor('');
      setAnchorStatus({
        kind: 'ok',
        text: added === 0 ? t('namesAnchorKnown') : plural('namesAnchorAdded', added),
      });
    } catch (err) {
      setAnchorStatus({ kind: 'error', text: failure(err) });
    }
    reload();
  }

  async function remove(line: string) {
    await removeTrustAnchor(line);
    setAnchorStatus({ kind: 'ok', text: t('namesAnchorRemoved') });
    reload();
  }

  return (
    <section class="card" aria-labelledby="names-h" id="payment-names" style={{ marginTop: '24px' }}>
      <h2 id="names-h">{t('namesHeading')}</h2>
      <p class="small muted">{t('namesText')}</p>
      <form onSubmit={save}>
        <label for="names-resolver">{t('namesResolverLabel')}</label>
        <div class="row">
          <input
            id="names-resolver"
            class="grow mono"
            type="url"
            spellcheck={false}
            value={resolver}
            placeholder={DEFAULT_RESOLVER}
            onInput={(e) => setResolver(e.currentTarget.value)}
          />
          <button id="names-resolver-save" type="submit" class="secondary">
            {t('save')}
          </button>
        </div>
        <p class="small muted">{t('namesResolverHint', DEFAULT_RESOLVER)}</p>
        <p
          role="status"
          aria-live="polite"
          id="names-resolver-status"
          class={resolverStatus?.kind === 'error' ? 'error' : 'ok'}
        >
          {resolverStatus?.text}
        </p>
      </form>
      <form onSubmit={add}>
        <label for="names-anchor">{t('namesAnchorLabel')}</label>
        <textarea
          id="names-anchor"
          class="mono"
          rows={3}
          value={anchor}
          placeholder={DS_EXAMPLE}
          spellcheck={false}
          onInput={(e) => setAnchor(e.currentTarget.value)}
        />
        <div class="row" style={{ marginTop: '8px' }}>
          <button id="names-anchor-add" type="submit" class="secondary" disabled={anchor.trim() === ''}>
            {t('namesAnchorAdd')}
          </button>
          <p
            role="status"
            aria-live="polite"
            id="names-anchor-status"
            class={anchorStatus?.kind === 'error' ? 'error' : 'ok'}
          >
            {anchorStatus?.text}
          </p>
        </div>
      </form>
      <p class="small muted" id="names-root">
        {t('namesRootAnchors', rootAnchors().length, ROOT_ANCHORS_SOURCE)}
      </p>
      {names && names.trustAnchors.length > 0 && (
        <ul class="plain" aria-label={t('namesAnchorListLabel')}>
          {names.trustAnchors.map((line) => (
            <li
              key={line}
              class="row anchor-entry"
              style={{ padding: '8px 0', borderTop: '1px solid var(--line)' }}
            >
              <span class="grow mono small">{line}</span>
              <button type="button" class="danger" onClick={() => remove(line)}>
                {t('namesAnchorRemove')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
