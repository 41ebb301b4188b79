// The payment page's work that is not drawing, as a factory over what it needs from the browser:
// fetch, the root store (bundled plus the person's own), the history and the clock. The page
// uses `paymentFlow`, wired to the real ones; tests build their own.

import { t } from '../../lib/i18n';
import { lookUpName } from '../../lib/payments/bip353/look-up';
import type { Bip353Name } from '../../lib/payments/bip353/name';
import { resolveName } from '../../lib/payments/bip353/resolve';
import type { NameSource } from '../../lib/payments/bip353/source';
import type { Bolt11Invoice } from '../../lib/payments/bolt11';
import { lnurlRequest } from '../../lib/payments/check';
import { anchorsWith } from '../../lib/payments/dnssec/anchors';
import { PaymentError } from '../../lib/payments/errors';
import { assertNotExpired } from '../../lib/payments/expiry';
import { describePaymentFailure } from '../../lib/payments/failure';
import { MAX_REQUEST_TEXT } from '../../lib/payments/forms';
import type { FetchLike } from '../../lib/payments/http';
import {
  fetchLnurlInvoice,
  fetchPayParams,
  type LnurlPayParams,
  type LnurlTarget,
} from '../../lib/payments/lnurl';
import { checkLnurlPayment, type PaymentStatus } from '../../lib/payments/lnurl-verify';
import { type LoadedRequest, loadPaymentRequest } from '../../lib/payments/load';
import type { LnurlSource } from '../../lib/payments/page-input';
import { type BuiltPayment, type PaymentReceipt, sendPayment } from '../../lib/payments/payment';
import type { CheckedRequest } from '../../lib/payments/request';
import type { RootStore } from '../../lib/payments/roots';
import { paymentUrlProblem } from '../../lib/payments/same-origin';
import { expiresMs } from '../../lib/payments/timing';
import type { EvaluatedDetails } from '../../lib/payments/verdict';
import { namesOf } from '../../lib/settings';
import { defaultNames, type NameSettings } from '../../lib/settings/names';
import { addPayment, HistoryWriteError, type PaymentEntry } from '../storage/history';
import { loadSettings } from '../storage/settings';
import { mayReachPrivately } from './private-hosts';
import { paymentRootStore } from './roots';

export interface PaymentFlowDeps {
  fetch: FetchLike;
  /** Whether the person allowed this URL's origin, when it is on this machine or a private network. */
  mayReach: (url: string) => Promise<boolean>;
  roots: () => Promise<RootStore>;
  /** BIP 353: the resolver and the trust anchors the person added (default: the settings' defaults). */
  names?: () => Promise<NameSettings>;
  history: { add(entry: PaymentEntry): Promise<void> };
  now?: () => Date;
  newId?: () => string;
}

export function createPaymentFlow(deps: PaymentFlowDeps) {
  const now = deps.now ?? (() => new Date());
  const newId = deps.newId ?? (() => crypto.randomUUID());
  // Every fetch of the flow (request, Payment, LNURL) passes here, so no page state can reach a
  // private address the person did not allow, whatever the page shows.
  const fetch: FetchLike = async (input, init) => {
    if (!(await deps.mayReach(input)))
      throw new PaymentError('private-host', t('payPrivateNotAllowed', new URL(input).origin));
    return deps.fetch(input, init);
  };

  return {
    /** Fetches and judges a BIP70 request with the current roots and clock. */
    async load(
      requestUrl: string,
      pageUrl: string | undefined,
      signal?: AbortSignal,
    ): Promise<LoadedRequest> {
      return loadPaymentRequest(requestUrl, pageUrl, {
        fetch,
        roots: await deps.roots(),
        now: now(),
        ...(signal ? { signal } : {}),
      });
    },

    /** Saves the viewed request in the payment history; returns the entry (to mark it paid later). */
    async recordView(loaded: LoadedRequest): Promise<PaymentEntry> {
      const { evaluation } = loaded;
      const entry: PaymentEntry = {
        id: newId(),
        requestUrl: loaded.requestUrl,
        verdict: evaluation.verdict,
        reasons: evaluation.reasons,
        network: evaluation.details.network,
        totalSat: evaluation.details.total.toString(),
        time: loaded.evaluatedAt.getTime(),
      };
      if (loaded.pageUrl) entry.pageUrl = loaded.pageUrl;
      if (evaluation.verdict === 'verified' && evaluation.merchant)
        entry.merchant = evaluation.merchant.commonName;
      if (evaluation.details.memo !== undefined) entry.memo = evaluation.details.memo.slice(0, 2000);
      const expires = expiresMs(evaluation.details.expires);
      if (expires !== undefined) entry.expires = expires;
      await deps.history.add(entry);
      return entry;
    },

    /** Saves any other request viewed (judged from text, or looked up) in the payment history. */
    async recordChecked(
      source: { text: string; pageUrl?: string },
      checked: CheckedRequest,
    ): Promise<PaymentEntry> {
      const entry: PaymentEntry = {
        id: newId(),
        kind: checked.kind,
        text: source.text.slice(0, MAX_REQUEST_TEXT),
        verdict: checked.verdict,
        reasons: checked.reasons,
        network: checked.network ?? '',
        totalSat: checked.amount?.unit === 'sat' ? checked.amount.value.toString() : '0',
        time: now().getTime(),
      };
      if (source.pageUrl) entry.pageUrl = source.pageUrl;
      if (checked.amount)
        entry.amount = { value: checked.amount.value.toString(), unit: checked.amount.unit };
      if (checked.payee) entry.payee = checked.payee;
      if (checked.description !== undefined) entry.memo = checked.description.slice(0, 2000);
      const expires = expiresMs(checked.expiresAt);
      if (expires !== undefined) entry.expires = expires;
      await deps.history.add(entry);
      return entry;
    },

    /** Looks up an LNURL-pay service's terms (the person asked). */
    lookUp(target: LnurlTarget, signal?: AbortSignal): Promise<LnurlPayParams> {
      return fetchPayParams(target, { fetch, ...(signal ? { signal } : {}) });
    },

    /**
     * Looks a name up (the person asked): a ₿ name through the resolver; a plain user@domain as a
     * BIP 353 name first, then as a Lightning Address. The resolver is the one in the settings
     * now, whatever the page was shown with.
     */
    async lookUpName(
      source: NameSource | (LnurlSource & { name: Bip353Name }),
      signal?: AbortSignal,
    ): Promise<CheckedRequest> {
      const names = deps.names ? await deps.names() : defaultNames();
      const at = now();
      return lookUpName(source, {
        resolve: (name) =>
          resolveName(name, {
            // The one the person was asked to allow for this source.
            resolver: source.resolver ?? names.resolver,
            fetch,
            anchors: anchorsWith(names.trustAnchors),
            now: at,
            ...(signal ? { signal } : {}),
          }),
        lightning: (target) => fetchPayParams(target, { fetch, ...(signal ? { signal } : {}) }),
        now: at,
      });
    },

    /** Asks the service for an invoice for the amount chosen, and judges it against the terms. */
    async invoiceFor(
      source: { target: LnurlTarget },
      params: LnurlPayParams,
      amountMsat: bigint,
      signal?: AbortSignal,
    ): Promise<CheckedRequest> {
      const fetched = await fetchLnurlInvoice(params, amountMsat, {
        fetch,
        ...(signal ? { signal } : {}),
      });
      return lnurlRequest(source.target, params, fetched, now());
    },

    /** Asks an LNURL service whether its invoice was paid (LUD-21; the person asked). */
    checkPaid(verifyUrl: string, invoice: Bolt11Invoice, signal?: AbortSignal): Promise<PaymentStatus> {
      return checkLnurlPayment(verifyUrl, invoice, { fetch, ...(signal ? { signal } : {}) });
    },

    async recordPaid(entry: PaymentEntry, receipt: PaymentReceipt): Promise<PaymentEntry> {
      const paid: PaymentEntry = { ...entry, paidAt: now().getTime() };
      if (receipt.memo !== undefined) paid.ackMemo = receipt.memo.slice(0, 2000);
      await deps.history.add(paid);
      return paid;
    },

    /**
     * Re-checks expiry at the last moment, then POSTs the Payment (only to the origin the request
     * came from, `requestUrl`) and reads the PaymentACK.
     */
    async send(
      requestUrl: string,
      details: EvaluatedDetails,
      payment: BuiltPayment,
      signal?: AbortSignal,
    ): Promise<PaymentReceipt> {
      if (!details.paymentUrl) throw new PaymentError('bad-input', t('payNoPaymentUrl'));
      const elsewhere = paymentUrlProblem(requestUrl, details.paymentUrl);
      if (elsewhere) throw new PaymentError('bad-url', elsewhere);
      assertNotExpired(details, now());
      return sendPayment(details.paymentUrl, payment.bytes, {
        fetch,
        ...(signal ? { signal } : {}),
      });
    },

    /** A failure as the sentence to show; a history that refused to store is not worth a retry. */
    describeFailure(error: unknown) {
      return describePaymentFailure(error, (e) => e instanceof HistoryWriteError);
    },
  };
}

export type PaymentFlow = ReturnType<typeof createPaymentFlow>;

/** The flow with the browser's fetch, the bundled and extra roots, and IndexedDB history. */
export const paymentFlow = createPaymentFlow({
  fetch: (input, init) => fetch(input, init),
  mayReach: mayReachPrivately,
  roots: paymentRootStore,
  names: async () => namesOf(await loadSettings()),
  history: { add: addPayment },
});
