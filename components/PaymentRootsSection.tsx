import { useEffect, useState } from 'preact/hooks';
import {
  addExtraRootsFromPem,
  type ExtraRoot,
  listExtraRoots,
  RootInputError,
  removeExtraRoot,
} from '../platform/payment-roots';

type Status = { kind: 'ok' | 'error'; text: string };

/**
 * Options section: certificate authorities trusted for payment requests besides the bundled
 * ones (a shop's private CA, a test CA). Names come from the certificates: shown as text only.
 */
export function PaymentRootsSection() {
  const [roots, setRoots] = useState<ExtraRoot[]>();
  const [pem, setPem] = useState('');
  const [status, setStatus] = useState<Status>();

  const reload = () =>
    listExtraRoots().then(setRoots, () =>
      setStatus({ kind: 'error', text: 'The trusted certificate authorities could not be read.' }),
    );
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
        text:
          added === 0
            ? 'That certificate authority was already trusted.'
            : `Added ${added} certificate authorit${added === 1 ? 'y' : 'ies'}.`,
      });
    } catch (err) {
      setStatus({
        kind: 'error',
        text: err instanceof RootInputError ? err.message : 'The certificate could not be saved.',
      });
    }
    reload();
  }

  async function remove(root: ExtraRoot) {
    await removeExtraRoot(root.der64);
    setStatus({ kind: 'ok', text: `Removed ${root.name}.` });
    reload();
  }

  return (
    <section class="card" aria-labelledby="roots-h" id="payment-roots" style={{ marginTop: '24px' }}>
      <h2 id="roots-h">Payment requests: extra trusted certificate authorities</h2>
      <p class="small muted">
        Hushdrop trusts the certificate authorities browsers trust to vouch for who signed a payment request.
        Add your own only for a private authority you know (for example your company’s or a test shop’s):
        anything it signs will show as verified.
      </p>
      <form onSubmit={add}>
        <label for="root-pem">Certificate (PEM)</label>
        <textarea
          id="root-pem"
          class="mono"
          rows={5}
          value={pem}
          placeholder="-----BEGIN CERTIFICATE-----"
          spellcheck={false}
          onInput={(e) => setPem(e.currentTarget.value)}
        />
        <div class="row" style={{ marginTop: '8px' }}>
          <button id="root-add" type="submit" class="secondary" disabled={pem.trim() === ''}>
            Trust this authority
          </button>
          <p role="status" aria-live="polite" class={status?.kind === 'error' ? 'error' : 'ok'}>
            {status?.text}
          </p>
        </div>
      </form>
      {roots && roots.length === 0 && (
        <p class="muted">No extra authorities: only the built-in ones are trusted.</p>
      )}
      {roots && roots.length > 0 && (
        <ul class="plain" aria-label="Extra trusted certificate authorities">
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
                  {root.notAfter ? `Valid until ${root.notAfter.toLocaleDateString()}. ` : ''}
                  SHA-256 <span class="mono">{root.fingerprint}</span>
                </div>
              </div>
              <button type="button" class="danger" onClick={() => remove(root)}>
                Remove<span class="sr-only"> {root.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
