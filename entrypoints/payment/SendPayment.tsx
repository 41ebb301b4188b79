import { useRef, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import {
  type BuiltPayment,
  formatTime,
  isAddress,
  type Network,
  type PaymentReceipt,
} from '../../lib/payments/index';
import type { LoadedRequest } from '../../lib/payments/load';
import { type PaymentForm, preparePayment } from '../../lib/payments/payment';
import { secondsLeft } from '../../lib/payments/timing';
import { askToContact } from '../../platform/payments/access';
import { paymentFlow } from '../../platform/payments/flow';
import type { PaymentEntry } from '../../platform/storage/history';
import { hostOf } from './format';

type Phase =
  | { kind: 'editing' }
  | { kind: 'confirm'; payment: BuiltPayment }
  | { kind: 'sending' }
  | { kind: 'failed'; message: string; retry: boolean }
  | { kind: 'paid'; receipt: PaymentReceipt; historyError?: string };

/**
 * Sending the Payment: signed transactions the person pastes, a refund address, a note. The
 * Payment echoes merchant_data; expiry is checked again just before it goes. The merchant's
 * answer (ACK memo) is untrusted text.
 */
export function SendPayment({
  loaded,
  now,
  entry,
  onPaid,
}: {
  loaded: LoadedRequest;
  now: Date;
  entry?: PaymentEntry;
  onPaid: (entry: PaymentEntry) => void;
}) {
  const { details } = loaded.evaluation;
  const network = details.network as Network;
  const [form, setForm] = useState<PaymentForm>({ transactionsHex: '', refundAddress: '', memo: '' });
  const [phase, setPhase] = useState<Phase>({ kind: 'editing' });
  const abort = useRef<AbortController | undefined>(undefined);

  const expired = (secondsLeft(details, now) ?? 0) < 0;
  const refund = form.refundAddress.trim();
  const refundProblem =
    refund !== '' && !isAddress(refund, network)
      ? isAddress(refund, network === 'main' ? 'test' : 'main')
        ? t(network === 'main' ? 'payRefundIsTest' : 'payRefundIsMain')
        : t('payRefundInvalid')
      : undefined;

  const edit = (patch: Partial<PaymentForm>) => {
    setForm({ ...form, ...patch });
    if (phase.kind === 'confirm' || phase.kind === 'failed') setPhase({ kind: 'editing' });
  };

  async function send(payment: BuiltPayment) {
    setPhase({ kind: 'sending' });
    abort.current = new AbortController();
    try {
      const receipt = await paymentFlow.send(loaded.requestUrl, details, payment, abort.current.signal);
      let historyError: string | undefined;
      if (entry) {
        try {
          onPaid(await paymentFlow.recordPaid(entry, receipt));
        } catch (err) {
          historyError = paymentFlow.describeFailure(err).message;
        }
      }
      setPhase({ kind: 'paid', receipt, ...(historyError ? { historyError } : {}) });
    } catch (err) {
      setPhase({ kind: 'failed', ...paymentFlow.describeFailure(err) });
    }
  }

  async function submit(e: Event) {
    e.preventDefault();
    if (phase.kind === 'sending' || phase.kind === 'paid') return;
    if (refundProblem) {
      setPhase({ kind: 'failed', message: t('payRefundWrong', refundProblem), retry: false });
      return;
    }
    let payment: BuiltPayment;
    if (phase.kind === 'confirm') payment = phase.payment;
    else {
      try {
        // Checks expiry, the transactions and the refund address; no waiting before the prompt below.
        payment = preparePayment(details, form, new Date());
      } catch (err) {
        setPhase({ kind: 'failed', ...paymentFlow.describeFailure(err), retry: false });
        return;
      }
    }
    // Asked inside the click: browsers only show the prompt for a user action.
    const allowed = await askToContact(details.paymentUrl!).catch(() => false);
    if (!allowed) {
      setPhase({
        kind: 'failed',
        message: t('payNotAllowed', hostOf(details.paymentUrl!)),
        retry: true,
      });
      return;
    }
    if (phase.kind !== 'confirm' && payment.warnings.length > 0) setPhase({ kind: 'confirm', payment });
    else await send(payment);
  }

  if (phase.kind === 'paid') {
    return (
      <section class="card verdict verdict-verified" aria-labelledby="send-h" id="send-payment">
        <h2 id="send-h">{t('paySentHeading')}</h2>
        <p class="ok" role="status">
          {t('payAcknowledged', hostOf(details.paymentUrl!))}
        </p>
        {phase.receipt.memo ? (
          <>
            <p>{t('payTheirMessage')}</p>
            <blockquote class="memo" id="ack-memo">
              <bdi>{phase.receipt.memo}</bdi>
            </blockquote>
          </>
        ) : (
          <p class="muted">{t('payNoMessage')}</p>
        )}
        {phase.receipt.warnings.map((w) => (
          <p key={w} class="warn">
            {w}
          </p>
        ))}
        {phase.historyError && <p class="warn">{phase.historyError}</p>}
      </section>
    );
  }

  const busy = phase.kind === 'sending';
  return (
    <section class="card" aria-labelledby="send-h" id="send-payment">
      <h2 id="send-h">{t('paySendHeading')}</h2>
      <p class="small muted" hidden={expired}>
        {t('paySendText', hostOf(details.paymentUrl!))}
      </p>
      {expired && (
        <p class="error" role="alert" id="expired-block">
          {t('paySendExpired', formatTime(details.expires!))}
        </p>
      )}
      <form onSubmit={submit} noValidate hidden={expired}>
        <fieldset disabled={expired || busy} class="bare">
          <legend class="sr-only">{t('payPaymentLegend')}</legend>
          <label for="pay-tx">{t('payTransactionsLabel')}</label>
          <textarea
            id="pay-tx"
            class="mono"
            rows={4}
            spellcheck={false}
            required
            aria-describedby="pay-tx-hint"
            value={form.transactionsHex}
            onInput={(e) => edit({ transactionsHex: e.currentTarget.value })}
          />
          <p id="pay-tx-hint" class="small muted">
            {t('payTransactionsHint')}
          </p>
          <label for="pay-refund">
            {t(network === 'main' ? 'payRefundLabelMain' : 'payRefundLabelTest')}
          </label>
          <input
            id="pay-refund"
            class="mono"
            type="text"
            autoComplete="off"
            spellcheck={false}
            aria-invalid={refundProblem ? 'true' : undefined}
            aria-describedby="pay-refund-hint"
            value={form.refundAddress}
            onInput={(e) => edit({ refundAddress: e.currentTarget.value })}
          />
          <p id="pay-refund-hint" class={`small ${refundProblem ? 'error' : 'muted'}`}>
            {refundProblem ?? t('payRefundHint')}
          </p>
          <label for="pay-memo">{t('payNoteLabel')}</label>
          <input
            id="pay-memo"
            type="text"
            maxLength={500}
            value={form.memo}
            onInput={(e) => edit({ memo: e.currentTarget.value })}
          />
          {phase.kind === 'confirm' && (
            <div class="callout" id="pay-confirm">
              <p class="warn">{t('payBeforeSending')}</p>
              <ul>
                {phase.payment.warnings.map((w) => (
                  <li key={w} class="warn">
                    {w}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <div class="row" style={{ marginTop: '12px' }}>
            <button id="pay-send" type="submit">
              {t(
                phase.kind === 'confirm'
                  ? 'paySendAnyway'
                  : phase.kind === 'failed' && phase.retry
                    ? 'paySendAgain'
                    : busy
                      ? 'paySending'
                      : 'paySendButton',
              )}
            </button>
            {phase.kind === 'confirm' && (
              <button type="button" class="secondary" onClick={() => setPhase({ kind: 'editing' })}>
                {t('payCancel')}
              </button>
            )}
          </div>
        </fieldset>
      </form>
      <div aria-live="polite">
        {busy && <p role="status">{t('paySendingTo', hostOf(details.paymentUrl!))}</p>}
      </div>
      {phase.kind === 'failed' && (
        <p class="error" role="alert" id="pay-error">
          {phase.message}
        </p>
      )}
    </section>
  );
}
