import { useEffect, useState } from 'preact/hooks';
import { formatDate, plural, t } from '../lib/i18n';
import {
  addExtraRootsFromPem,
  type ExtraRoot,
  listExtraRoots,
  RootInputError,
  removeExtraRoot,
} from '../platform/payments/roots';
import { Message } from './Message';

type Status = { kind: 'ok' | 'error'; text: string };

/** The marker a PEM certificate starts with, shown as an example: the same in every language. */
const PEM_START = '-----BEGIN CERTIFICATE-----';

/**
 * Options section: certificate authorities trusted for payment requests besides the bundled
 * ones (a shop's private CA, a test CA). Names come from the certificates: shown as text only.
 */
export function PaymentRootsSection() {
  const [roots, setRoots] = useState<ExtraRoot[]>();
  const [pem, setPem] = useState('');
  const [status, setStatus] = useState<Status>();

  const reload = () =>
    listExtraRoots().then(setRoots, () => setStatus({ kind: 'error', text: t('payRootsUnreadable') }));
  useEffect(() => {
    reload();
  }, []);

  async function add(e: Event) {
    e.preventDefault();
    try {
      const added = await addExtraRootsFromPem(pem);
      setPem('');
      setStatus({
        kind: 'ok',
        text: added === 0 ? t('payRootsAlreadyTrusted') : plural('payRootsAdded', added),
      });
    } catch (err) {
      setStatus({
        kind: 'error',
        text: err instanceof RootInputError ? err.message : t('payRootsNotSaved'),
      });
    }
    reload();
  }

  async function remove(root: ExtraRoot) {
    await removeExtraRoot(root.der64);
    setStatus({ kind: 'ok', text: t('payRootsRemoved', root.name) });
    reload();
  }

  return (
    <section class="card" aria-labelledby="roots-h" id="payment-roots" style={{ marginTop: '24px' }}>
      <h2 id="roots-h">{t('payRootsHeading')}</h2>
      <p class="small muted">{t('payRootsText')}</p>
      <form onSubmit={add}>
        <label for="root-pem">{t('payRootsPemLabel')}</label>
        <textarea
          id="root-pem"
          class="mono"
          rows={5}
          value={pem}
          placeholder={PEM_START}
          spellcheck={false}
          onInput={(e) => setPem(e.currentTarget.value)}
        />
        <div class="row" style={{ marginTop: '8px' }}>
          <button id="root-add" type="submit" class="secondary" disabled={pem.trim() === ''}>
            {t('payRootsAdd')}
          </button>
          <p role="status" aria-live="polite" class={status?.kind === 'error' ? 'error' : 'ok'}>
            {status?.text}
          </p>
        </div>
      </form>
      {roots && roots.length === 0 && <p class="muted">{t('payRootsNone')}</p>}
      {roots && roots.length > 0 && (
        <ul class="plain" aria-label={t('payRootsListLabel')}>
          {roots.map((root) => (
            <li
              key={root.der64}
              class="row root-entry"
              style={{ padding: '8px 0', borderTop: '1px solid var(--line)' }}
            >
              <div class="grow">
                <strong>{root.name}</strong>
                {root.organization ? ` (${root.organization})` : ''}
                <div class="small muted">
                  {root.notAfter
                    ? `${t('payRootsValidUntil', formatDate(root.notAfter, { timeStyle: undefined }))} `
                    : ''}
                  <Message id="payRootsFingerprint" args={[<span class="mono">{root.fingerprint}</span>]} />
                </div>
              </div>
              <button type="button" class="danger" onClick={() => remove(root)}>
                {t('payRootsRemove')}
                <span class="sr-only"> {root.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
