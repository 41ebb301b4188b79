import { useEffect, useReducer, useRef, useState } from 'preact/hooks';
import { Message } from '../../components/Message';
import { plural, t } from '../../lib/i18n';
import { contactsOf, looksUpName, withResolver } from '../../lib/payments/bip353/source';
import {
  checkPaymentText,
  type FetchedSource,
  inputTextOf,
  type LnurlSource,
  type LoadedRequest,
  lnurlRequest,
  type PageView,
  type PaymentSource,
  pageReducer,
  paramsFor,
  secondsLeft,
  serverOf,
  sourceFromParams,
  sourceFromText,
  walletUriFor,
} from '../../lib/payments/index';
import type { CheckedSource } from '../../lib/payments/page-view';
import { isPrivateUrl } from '../../lib/payments/private-address';
import type { CheckedRequest } from '../../lib/payments/request';
import { paymentUrlProblem } from '../../lib/payments/same-origin';
import { namesOf } from '../../lib/settings';
import { DEFAULT_RESOLVER } from '../../lib/settings/names';
import { askToContact, handlesBitcoinLinksOnly, mayContact } from '../../platform/payments/access';
import { paymentFlow } from '../../platform/payments/flow';
import { takeClickedPayment } from '../../platform/payments/hand-off';
import { allowPrivateOrigin, mayReachPrivately } from '../../platform/payments/private-hosts';
import { listPayments, type PaymentEntry } from '../../platform/storage/history';
import { loadSettings } from '../../platform/storage/settings';
import { AskServer } from './AskServer';
import { CheckedView } from './CheckedView';
import { hostOf } from './format';
import { PayWithWallet } from './PayWithWallet';
import { RecentPayments } from './RecentPayments';
import { DetailsCard, VerdictCard } from './RequestView';
import { SendPayment } from './SendPayment';

type View = PageView<PaymentEntry>;

/** An example in the link field: a URI, the same in every language. */
const EXAMPLE_URI = 'bitcoin:?r=https://shop.example/pay/123';

/**
 * What the page was opened with: `?open=<id>`, a click on a web page or the menu entry handed off
 * by the background, or a request's address (`?r=`, `?uri=`), which waits for the person.
 */
function initial(): { view: View; source?: PaymentSource; handOff?: string } {
  const params = new URLSearchParams(location.search);
  const handOff = params.get('open');
  if (handOff !== null) return { view: { state: 'empty' }, handOff };
  try {
    const source = sourceFromParams(params);
    return source ? { view: { state: 'empty' }, source } : { view: { state: 'empty' } };
  } catch (err) {
    return { view: { state: 'failed', ...paymentFlow.describeFailure(err) } };
  }
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
  const [view, dispatch] = useReducer(pageReducer<PaymentEntry>, start.view);
  // The field is the person's while they type: not re-rendered from state on each key (a render
  // queued between keys, as under load, put an older text back and dropped what came after). Only
  // the page's own changes (a hand-off, a reload's request) are written into it.
  const [text, setText] = useState(() => inputTextOf(start.source));
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (field.current && field.current.value !== text) field.current.value = text;
  }, [text]);
  const [recent, setRecent] = useState<PaymentEntry[]>();
  const abort = useRef<AbortController | undefined>(undefined);
  // The resolver BIP 353 names are looked up through: read at start and kept, since a click's
  // permission request must start before anything is awaited.
  const resolver = useRef(DEFAULT_RESOLVER);
  const now = useNow();

  /** The source with the resolver from the settings (names only). */
  async function resolverFor(source: PaymentSource): Promise<PaymentSource> {
    try {
      resolver.current = namesOf(await loadSettings()).resolver;
    } catch {
      // The default resolver, then.
    }
    return withResolver(source, resolver.current);
  }

  const reloadRecent = () => listPayments().then(setRecent, () => setRecent([]));

  /** Keeps a judged request in the history; the page shows it either way. */
  async function record(source: CheckedSource, checked: CheckedRequest) {
    try {
      return { entry: await paymentFlow.recordChecked(source, checked) };
    } catch (err) {
      return { historyError: paymentFlow.describeFailure(err).message };
    } finally {
      reloadRecent();
    }
  }

  /** Shows a judged request (offline text, or an LNURL's terms or invoice). */
  async function showChecked(source: CheckedSource, checked: CheckedRequest) {
    dispatch({ type: 'checked', source, checked, ...(await record(source, checked)) });
  }

  function fresh(): AbortController {
    abort.current?.abort();
    abort.current = new AbortController();
    return abort.current;
  }

  async function load(source: FetchedSource) {
    const controller = fresh();
    dispatch({ type: 'fetching', source });
    try {
      if (looksUpName(source)) {
        const checked = await paymentFlow.lookUpName(source, controller.signal);
        if (!controller.signal.aborted) await showChecked(source, checked);
        return;
      }
      if (source.kind === 'lnurl') {
        const params = await paymentFlow.lookUp(source.target, controller.signal);
        if (!controller.signal.aborted) await showChecked(source, lnurlRequest(source.target, params));
        return;
      }
      const loaded = await paymentFlow.load(source.requestUrl, source.pageUrl, controller.signal);
      if (controller.signal.aborted) return;
      let entry: PaymentEntry | undefined;
      let historyError: string | undefined;
      try {
        entry = await paymentFlow.recordView(loaded);
      } catch (err) {
        historyError = paymentFlow.describeFailure(err).message;
      }
      dispatch({
        type: 'fetched',
        source,
        loaded,
        ...(entry ? { entry } : {}),
        ...(historyError ? { historyError } : {}),
      });
      reloadRecent();
    } catch (err) {
      if (controller.signal.aborted) return;
      dispatch({ type: 'failed', source, ...paymentFlow.describeFailure(err) });
    }
  }

  /**
   * `fromClick`: the person just acted, so a permission prompt may be shown. `allowPrivate`: the
   * click was on a card showing this server's address (allowing payments with it if private).
   */
  async function show(source: PaymentSource, fromClick: boolean, allowPrivate = false) {
    if (source.kind === 'offline') {
      abort.current?.abort();
      await showChecked(source, checkPaymentText(source.text, new Date()));
      return;
    }
    // A name's look-up asks the resolver too (BIP 353), and every address it contacts is allowed alike.
    const servers = contactsOf(source, serverOf(source));
    // Started before anything is awaited: Firefox takes a permission request only during the click.
    // Not for a private address the person has not allowed here: its card comes first, no prompt.
    const asking =
      fromClick && (allowPrivate || !servers.some(isPrivateUrl))
        ? askToContact(...servers).catch(() => false)
        : undefined;
    if (allowPrivate) for (const server of servers) await allowPrivateOrigin(server);
    for (const server of servers)
      if (!(await mayReachPrivately(server))) {
        dispatch({ type: 'private-needed', source });
        return;
      }
    if (!(await (asking ?? everyContact(servers)))) {
      dispatch({ type: 'permission-needed', source });
      return;
    }
    await load(source);
  }

  /** A request's address alone: show it, and fetch when the person asks (a permission prompt if needed). */
  async function offer(source: PaymentSource) {
    if (source.kind === 'offline') return show(source, false);
    const servers = contactsOf(source, serverOf(source));
    for (const server of servers)
      if (!(await mayReachPrivately(server))) {
        dispatch({ type: 'private-needed', source });
        return;
      }
    dispatch({ type: 'offered', source, allowed: await everyContact(servers) });
  }

  /**
   * A click on a web page, or the menu entry, handed off by the background. Only the menu is known
   * to be the person's act (a compromised page renderer can send what our content script sends),
   * so only its request is fetched at once; a page's waits for the button like any address.
   */
  async function openHandOff(id: string) {
    const click = await takeClickedPayment(id).catch(() => undefined);
    if (!click) {
      dispatch({ type: 'failed', message: t('payNotHandedOff'), retry: false });
      return;
    }
    // Read again here, by the same parser as the background's re-check.
    const handed = 'requestUrl' in click ? click.requestUrl : click.text;
    let source: PaymentSource;
    try {
      source = sourceFromText(handed, click.pageUrl);
    } catch (err) {
      setText(handed);
      dispatch({ type: 'failed', ...paymentFlow.describeFailure(err), retry: false });
      return;
    }
    source = await resolverFor(source);
    // A reload shows the same request, through the button.
    history.replaceState(null, '', paramsFor(source));
    setText(inputTextOf(source));
    if (click.fromMenu) await show(source, false);
    else await offer(source);
  }

  useEffect(() => {
    document.title = t('payPageTitle');
    reloadRecent();
    loadSettings().then(
      (s) => {
        resolver.current = namesOf(s).resolver;
      },
      () => {},
    );
    if (start.handOff !== undefined) openHandOff(start.handOff);
    else if (start.source) resolverFor(start.source).then(offer);
    return () => abort.current?.abort();
  }, []);

  function open(e: Event) {
    e.preventDefault();
    // What the field holds now: text typed or pasted just before Enter or the button may not have
    // reached the state yet (the handler would open the previous request).
    const typed = field.current?.value ?? text;
    setText(typed);
    let source: PaymentSource;
    try {
      source = sourceFromText(typed);
    } catch (err) {
      dispatch({ type: 'failed', ...paymentFlow.describeFailure(err), retry: false });
      return;
    }
    history.replaceState(null, '', paramsFor(source));
    show(withResolver(source, resolver.current), true);
  }

  const serverView =
    view.state === 'confirm' || view.state === 'permission' || view.state === 'private' ? view : undefined;
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
            ref={field}
            defaultValue={text}
            placeholder={EXAMPLE_URI}
          />
          <button id="open" type="submit" disabled={view.state === 'loading'}>
            {t('payOpen')}
          </button>
        </div>
        {handlesBitcoinLinksOnly && (
          <p class="small muted" id="firefox-lightning">
            {t('payFirefoxLightning')}
          </p>
        )}
      </form>

      <div aria-live="polite">
        {view.state === 'loading' && (
          <p class="card" role="status" id="loading">
            {view.source.kind === 'name' || (view.source.kind === 'lnurl' && view.source.name)
              ? t('payNameLookingUp', hostOf(contactsOf(view.source, serverOf(view.source))[0]!))
              : t(
                  view.source.kind === 'lnurl' ? 'payLookingUp' : 'payFetching',
                  hostOf(serverOf(view.source)),
                )}
          </p>
        )}
      </div>

      {serverView && (
        <AskServer
          view={serverView}
          // Every card shows the server's address; confirm and permission appear only once a
          // private address is allowed, so the click counts as allowing it in each.
          onAsk={() => show(serverView.source, true, true)}
        />
      )}

      {view.state === 'failed' && (
        <section class="card" id="failure">
          <p class="error" role="alert" id="error">
            {view.message}
          </p>
          {view.source && (
            <p class="small muted">
              <Message id="payFailedLink" args={[<span class="mono">{serverOf(view.source)}</span>]} />
            </p>
          )}
          {view.source && view.retry && (
            <button type="button" class="secondary" id="retry" onClick={() => show(view.source!, true)}>
              {t('payTryAgain')}
            </button>
          )}
        </section>
      )}

      {view.state === 'checked' && (
        <CheckedView
          key={view.source.text}
          checked={view.checked}
          now={now}
          {...(view.source.pageUrl ? { pageUrl: view.source.pageUrl } : {})}
          {...(view.historyError ? { historyError: view.historyError } : {})}
          onInvoice={
            view.source.kind === 'lnurl'
              ? // The invoice keeps the note of which look-up answered.
                (checked) =>
                  showChecked(view.source as LnurlSource, {
                    ...checked,
                    ...(view.checked.lookup ? { lookup: view.checked.lookup } : {}),
                  })
              : undefined
          }
        />
      )}

      {view.state === 'loaded' && (
        <LoadedView
          loaded={view.loaded}
          now={now}
          {...(view.entry ? { entry: view.entry } : {})}
          {...(view.historyError ? { historyError: view.historyError } : {})}
          onPaid={(entry) => {
            dispatch({ type: 'paid', entry });
            reloadRecent();
          }}
        />
      )}

      {recent && <RecentPayments entries={recent} />}
    </main>
  );
}

/** Whether every address may be contacted already. */
async function everyContact(servers: string[]): Promise<boolean> {
  for (const server of servers) if (!(await mayContact(server))) return false;
  return true;
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
  // Payments go only to the request's own site; one that names another is not offered for sending.
  const elsewhere = details.paymentUrl ? paymentUrlProblem(loaded.requestUrl, details.paymentUrl) : undefined;
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
      {evaluation.verdict !== 'invalid' && elsewhere && (
        <p class="card warn" id="payment-elsewhere">
          {elsewhere}
        </p>
      )}
      {evaluation.verdict !== 'invalid' && details.paymentUrl && !elsewhere && (
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
