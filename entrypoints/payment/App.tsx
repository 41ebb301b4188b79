import { useEffect, useRef, useState } from 'preact/hooks';
import { Message } from '../../components/Message';
import { plural, t } from '../../lib/i18n';
import {
  askToContact,
  describePaymentFailure,
  type LoadedRequest,
  loadPaymentRequest,
  mayContact,
  type PaymentSource,
  paramsFor,
  plainWalletUri,
  recordView,
  secondsLeft,
  sourceFromParams,
  sourceFromText,
  walletUriFor,
} from '../../platform/payment-flow';
import { takeClickedPayment } from '../../platform/payment-page';
import { listPayments, type PaymentEntry } from '../../platform/storage/history';
import { btc, hostOf, networkName } from './format';
import { PayWithWallet } from './PayWithWallet';
import { RecentPayments } from './RecentPayments';
import { DetailsCard, VerdictCard } from './RequestView';
import { SendPayment } from './SendPayment';

type RequestSource = Extract<PaymentSource, { kind: 'request' }>;
type AddressSource = Extract<PaymentSource, { kind: 'address' }>;

type View =
  | { state: 'empty' }
  /** Opened with a request's address: nothing is fetched until the person asks. */
  | { state: 'confirm'; source: RequestSource }
  | { state: 'permission'; source: RequestSource }
  | { state: 'loading'; source: RequestSource }
  | { state: 'failed'; message: string; source?: RequestSource; retry: boolean }
  | { state: 'address'; source: AddressSource }
  | {
      state: 'loaded';
      source: RequestSource;
      loaded: LoadedRequest;
      entry?: PaymentEntry;
      historyError?: string;
    };

/** An example in the link field: a URI, the same in every language. */
const EXAMPLE_URI = 'bitcoin:?r=https://shop.example/pay/123';

/**
 * What the page was opened with: `?open=<id>`, a click on a web page handed off by the background
 * (fetched at once), or a request's address (`?r=`, `?uri=`), which waits for the person.
 */
function initial(): { view: View; source?: PaymentSource; handOff?: string } {
  const params = new URLSearchParams(location.search);
  const handOff = params.get('open');
  if (handOff !== null) return { view: { state: 'empty' }, handOff };
  try {
    const source = sourceFromParams(params);
    return source ? { view: { state: 'empty' }, source } : { view: { state: 'empty' } };
  } catch (err) {
    return { view: { state: 'failed', ...describePaymentFailure(err) } };
  }
}

function inputTextOf(source: PaymentSource | undefined): string {
  if (!source) return '';
  if (source.kind === 'address') return plainWalletUri(source);
  return source.requestUrl;
}

/** Ticks once a second, for the time left until expiry. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function App() {
  const [start] = useState(initial);
  const [view, setView] = useState<View>(start.view);
  const [text, setText] = useState(() => inputTextOf(start.source));
  const [recent, setRecent] = useState<PaymentEntry[]>();
  const abort = useRef<AbortController | undefined>(undefined);
  const now = useNow();

  const reloadRecent = () => listPayments().then(setRecent, () => setRecent([]));

  async function load(source: RequestSource) {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setView({ state: 'loading', source });
    try {
      const loaded = await loadPaymentRequest(source.requestUrl, source.pageUrl, controller.signal);
      if (controller.signal.aborted) return;
      let entry: PaymentEntry | undefined;
      let historyError: string | undefined;
      try {
        entry = await recordView(loaded);
      } catch (err) {
        historyError = describePaymentFailure(err).message;
      }
      setView({
        state: 'loaded',
        source,
        loaded,
        ...(entry ? { entry } : {}),
        ...(historyError ? { historyError } : {}),
      });
      reloadRecent();
    } catch (err) {
      if (controller.signal.aborted) return;
      setView({ state: 'failed', source, ...describePaymentFailure(err) });
    }
  }

  /** `fromClick`: the person just acted, so a permission prompt may be shown. */
  async function show(source: PaymentSource, fromClick: boolean) {
    if (source.kind === 'address') {
      abort.current?.abort();
      setView({ state: 'address', source });
      return;
    }
    if (fromClick) {
      const allowed = await askToContact(source.requestUrl).catch(() => false);
      if (!allowed) {
        setView({ state: 'permission', source });
        return;
      }
    } else if (!(await mayContact(source.requestUrl))) {
      setView({ state: 'permission', source });
      return;
    }
    await load(source);
  }

  /** A request's address alone: show it, and fetch when the person asks (a permission prompt if needed). */
  async function offer(source: PaymentSource) {
    if (source.kind === 'address') return show(source, false);
    setView(
      (await mayContact(source.requestUrl)) ? { state: 'confirm', source } : { state: 'permission', source },
    );
  }

  /** A person's click on a web page, handed off by the background: fetched at once. */
  async function openHandOff(id: string) {
    const click = await takeClickedPayment(id).catch(() => undefined);
    if (!click) {
      setView({ state: 'failed', message: t('payNotHandedOff'), retry: false });
      return;
    }
    let source: PaymentSource | undefined;
    try {
      source = sourceFromParams(
        new URLSearchParams({ r: click.requestUrl, ...(click.pageUrl ? { page: click.pageUrl } : {}) }),
      );
    } catch (err) {
      setView({ state: 'failed', ...describePaymentFailure(err), retry: false });
      return;
    }
    if (!source) return;
    // A reload shows the same request, through the button.
    history.replaceState(null, '', paramsFor(source));
    setText(inputTextOf(source));
    await show(source, false);
  }

  useEffect(() => {
    document.title = t('payPageTitle');
    reloadRecent();
    if (start.handOff !== undefined) openHandOff(start.handOff);
    else if (start.source) offer(start.source);
    return () => abort.current?.abort();
  }, []);

  function open(e: Event) {
    e.preventDefault();
    // What the field holds now: text typed or pasted just before Enter or the button may not have
    // reached the state yet (the handler would open the previous request).
    const typed = (e.currentTarget as HTMLFormElement).querySelector('input')?.value ?? text;
    setText(typed);
    let source: PaymentSource;
    try {
      source = sourceFromText(typed);
    } catch (err) {
      setView({ state: 'failed', ...describePaymentFailure(err), retry: false });
      return;
    }
    history.replaceState(null, '', paramsFor(source));
    show(source, true);
  }

  return (
    <main>
      <h1>{t('payHeading')}</h1>
      <p class="lead">
        {t('payLead')} · <a href="/options.html#payment-roots">{t('payTrustedAuthoritiesLink')}</a>
      </p>
      <form class="card" onSubmit={open} id="open-form">
        <label for="request-input">{t('payInputLabel')}</label>
        <div class="row">
          <input
            id="request-input"
            class="grow mono"
            type="text"
            spellcheck={false}
            value={text}
            placeholder={EXAMPLE_URI}
            onInput={(e) => setText(e.currentTarget.value)}
          />
          <button id="open" type="submit" disabled={view.state === 'loading'}>
            {t('payOpen')}
          </button>
        </div>
      </form>

      <div aria-live="polite">
        {view.state === 'loading' && (
          <p class="card" role="status" id="loading">
            {t('payFetching', hostOf(view.source.requestUrl))}
          </p>
        )}
      </div>

      {view.state === 'confirm' && (
        <section class="card" aria-labelledby="confirm-h" id="confirm">
          <h2 id="confirm-h">{t('payConfirmHeading', hostOf(view.source.requestUrl))}</h2>
          <p>
            <Message id="payConfirmText" args={[<span class="mono">{view.source.requestUrl}</span>]} />
          </p>
          {view.source.pageUrl && (
            <p class="small muted">
              <Message id="payLinkedFrom" args={[<span class="mono">{view.source.pageUrl}</span>]} />
            </p>
          )}
          <button type="button" id="fetch-request" onClick={() => show(view.source, true)}>
            {t('payFetchButton')}
          </button>
        </section>
      )}

      {view.state === 'permission' && (
        <section class="card" aria-labelledby="permission-h" id="permission">
          <h2 id="permission-h">{t('payPermissionHeading', hostOf(view.source.requestUrl))}</h2>
          <p>
            <Message id="payPermissionText" args={[<span class="mono">{view.source.requestUrl}</span>]} />
          </p>
          <button type="button" id="allow" onClick={() => show(view.source, true)}>
            {t('payAllowButton')}
          </button>
        </section>
      )}

      {view.state === 'failed' && (
        <section class="card" id="failure">
          <p class="error" role="alert" id="error">
            {view.message}
          </p>
          {view.source && (
            <p class="small muted">
              <Message id="payFailedLink" args={[<span class="mono">{view.source.requestUrl}</span>]} />
            </p>
          )}
          {view.source && view.retry && (
            <button type="button" class="secondary" id="retry" onClick={() => show(view.source!, true)}>
              {t('payTryAgain')}
            </button>
          )}
        </section>
      )}

      {view.state === 'address' && <PlainAddress source={view.source} />}

      {view.state === 'loaded' && (
        <LoadedView
          loaded={view.loaded}
          now={now}
          {...(view.entry ? { entry: view.entry } : {})}
          {...(view.historyError ? { historyError: view.historyError } : {})}
          onPaid={(entry) => {
            setView({ ...view, entry });
            reloadRecent();
          }}
        />
      )}

      {recent && <RecentPayments entries={recent} />}
    </main>
  );
}

function LoadedView({
  loaded,
  now,
  entry,
  historyError,
  onPaid,
}: {
  loaded: LoadedRequest;
  now: Date;
  entry?: PaymentEntry;
  historyError?: string;
  onPaid: (entry: PaymentEntry) => void;
}) {
  const { evaluation } = loaded;
  const { details } = evaluation;
  const expired = (secondsLeft(details, now) ?? 0) < 0;
  const paid = entry?.paidAt !== undefined;
  const payable = evaluation.verdict !== 'invalid' && !expired && !paid;
  const first = details.outputs[0];
  const many = details.outputs.length > 1;
  return (
    <>
      <VerdictCard loaded={loaded} now={now} />
      <DetailsCard loaded={loaded} now={now} />
      {payable && (
        <PayWithWallet
          uri={walletUriFor(details, loaded.requestUrl)}
          {...(first?.address ? { address: first.address } : {})}
          {...(first ? { amount: first.amount } : {})}
          {...(many
            ? { note: plural('payManyOutputs', details.outputs.length) }
            : !first?.address
              ? { note: t('payCustomOutputNote') }
              : {})}
        />
      )}
      {evaluation.verdict === 'invalid' && (
        <p class="card error" id="not-payable">
          {t('payNotPayable')}
        </p>
      )}
      {evaluation.verdict !== 'invalid' && details.paymentUrl && (
        <SendPayment
          key={entry?.id ?? loaded.requestUrl}
          loaded={loaded}
          now={now}
          {...(entry ? { entry } : {})}
          onPaid={onPaid}
        />
      )}
      {historyError && <p class="small warn">{historyError}</p>}
    </>
  );
}

function PlainAddress({ source }: { source: AddressSource }) {
  const { uri } = source;
  return (
    <>
      <section class="card verdict verdict-unsigned" aria-labelledby="plain-h" id="plain">
        <h2 id="plain-h">
          <span class="badge badge-unsigned">{t('payPlainBadge')}</span>
          {t('payPlainHeading')}
        </h2>
        <p>{t(uri.amount ? 'payPlainAddressAmount' : 'payPlainAddressOnly')}</p>
        <dl class="facts">
          <dt>{t('payAddress')}</dt>
          <dd>
            <bdi class="mono">{source.address}</bdi>
          </dd>
          <dt>{t('payNetwork')}</dt>
          <dd>{networkName(source.network)}</dd>
          {uri.amount !== undefined && (
            <>
              <dt>{t('payAmount')}</dt>
              <dd id="total">
                <strong>{btc(uri.amount)}</strong>
              </dd>
            </>
          )}
          {uri.label && (
            <>
              <dt>{t('payLabel')}</dt>
              <dd>
                <bdi>{uri.label}</bdi>
              </dd>
            </>
          )}
          {uri.message && (
            <>
              <dt>{t('payMessage')}</dt>
              <dd>
                <bdi>{uri.message}</bdi>
              </dd>
            </>
          )}
        </dl>
      </section>
      <PayWithWallet
        uri={plainWalletUri(source)}
        address={source.address}
        {...(uri.amount !== undefined ? { amount: uri.amount } : {})}
      />
    </>
  );
}
