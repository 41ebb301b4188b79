import { useRef, useState } from 'preact/hooks';
import { type BuiltPayment, isAddress, type Network, type PaymentReceipt } from '../../lib/payments/index';
import type { PaymentEntry } from '../../platform/history';
import {
  askToContact,
  describePaymentFailure,
  type LoadedRequest,
  type PaymentForm,
  preparePayment,
  recordPaid,
  secondsLeft,
  sendPrepared,
} from '../../platform/payment-flow';
import { formatSeconds, hostOf } from './format';

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
        ? `This is a ${network === 'main' ? 'test network' : 'main network'} address; this request is for ${network === 'main' ? 'the main network' : 'the test network'}.`
        : 'This is not a valid Bitcoin address.'
      : undefined;

  const edit = (patch: Partial<PaymentForm>) => {
    setForm({ ...form, ...patch });
    if (phase.kind === 'confirm' || phase.kind === 'failed') setPhase({ kind: 'editing' });
  };

  async function send(payment: BuiltPayment) {
    setPhase({ kind: 'sending' });
    abort.current = new AbortController();
    try {
      const receipt = await sendPrepared(details, payment, abort.current.signal);
      let historyError: string | undefined;
      if (entry) {
        try {
          onPaid(await recordPaid(entry, receipt));
        } catch (err) {
          historyError = describePaymentFailure(err).message;
        }
      }
      setPhase({ kind: 'paid', receipt, ...(historyError ? { historyError } : {}) });
    } catch (err) {
      setPhase({ kind: 'failed', ...describePaymentFailure(err) });
    }
  }

  async function submit(e: Event) {
    e.preventDefault();
    if (phase.kind === 'sending' || phase.kind === 'paid') return;
    if (refundProblem) {
      setPhase({ kind: 'failed', message: `The refund address is wrong: ${refundProblem}`, retry: false });
      return;
    }
    let payment: BuiltPayment;
    if (phase.kind === 'confirm') payment = phase.payment;
    else {
      try {
        // Checks expiry, the transactions and the refund address; no waiting before the prompt below.
        payment = preparePayment(details, form);
      } catch (err) {
        setPhase({ kind: 'failed', ...describePaymentFailure(err), retry: false });
        return;
      }
    }
    // Asked inside the click: browsers only show the prompt for a user action.
    const allowed = await askToContact(details.paymentUrl!).catch(() => false);
    if (!allowed) {
      setPhase({
        kind: 'failed',
        message: `Hushdrop was not allowed to contact ${hostOf(details.paymentUrl!)}, so the payment was not sent.`,
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
        <h2 id="send-h">Payment sent</h2>
        <p class="ok" role="status">
          The merchant ({hostOf(details.paymentUrl!)}) acknowledged the payment.
        </p>
        {phase.receipt.memo ? (
          <>
            <p>Their message:</p>
            <blockquote class="memo" id="ack-memo">
              <bdi>{phase.receipt.memo}</bdi>
            </blockquote>
          </>
        ) : (
          <p class="muted">They sent no message.</p>
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
      <h2 id="send-h">Send the payment to the merchant</h2>
      <p class="small muted" hidden={expired}>
        If your wallet can make a signed transaction without broadcasting it, paste it here: Hushdrop sends it
        with your refund address to {hostOf(details.paymentUrl!)}, as this request asks. Hushdrop does not
        broadcast it. If the merchant refuses it, check with them before you broadcast it yourself.
      </p>
      {expired && (
        <p class="error" role="alert" id="expired-block">
          This payment request expired on {formatSeconds(details.expires!)}: sending is blocked. Ask the
          merchant for a new one.
        </p>
      )}
      <form onSubmit={submit} noValidate hidden={expired}>
        <fieldset disabled={expired || busy} class="bare">
          <legend class="sr-only">Payment</legend>
          <label for="pay-tx">Signed transaction(s), as hex</label>
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
            One or more transactions, separated by spaces or new lines.
          </p>
          <label for="pay-refund">
            Refund address ({network === 'main' ? 'Bitcoin main network' : 'Bitcoin test network'})
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
            {refundProblem ?? 'Where the merchant can send money back. Use an address of your own wallet.'}
          </p>
          <label for="pay-memo">Note to the merchant (optional)</label>
          <input
            id="pay-memo"
            type="text"
            maxLength={500}
            value={form.memo}
            onInput={(e) => edit({ memo: e.currentTarget.value })}
          />
          {phase.kind === 'confirm' && (
            <div class="callout" id="pay-confirm">
              <p class="warn">Before you send:</p>
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
              {phase.kind === 'confirm'
                ? 'Send anyway'
                : phase.kind === 'failed' && phase.retry
                  ? 'Try sending again'
                  : busy
                    ? 'Sending…'
                    : 'Send payment'}
            </button>
            {phase.kind === 'confirm' && (
              <button type="button" class="secondary" onClick={() => setPhase({ kind: 'editing' })}>
                Cancel
              </button>
            )}
          </div>
        </fieldset>
      </form>
      <div aria-live="polite">
        {busy && <p role="status">Sending the payment to {hostOf(details.paymentUrl!)}…</p>}
      </div>
      {phase.kind === 'failed' && (
        <p class="error" role="alert" id="pay-error">
          {phase.message}
        </p>
      )}
    </section>
  );
}
