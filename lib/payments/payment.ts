import { plural, t } from '../i18n';
import { addressToScript, type Network } from './addresses';
import { decodePaymentAck, encodePayment, type OutputInit, type PaymentAck } from './codec';
import { isPaymentError, PaymentError } from './errors';
import { assertNotExpired } from './expiry';
import {
  type HttpOptions,
  mediaType,
  parseHttpUrl,
  plainHttpWarning,
  readCapped,
  withDeadline,
} from './http';
import { MAX_PAYMENT_ACK_BYTES, MAX_PAYMENT_BYTES } from './limits';
import { fetchOnOrigin } from './same-origin';
import { type ParsedTransaction, parseTransactionsHex, uncoveredOutputs } from './transactions';

/**
 * The Payment / PaymentACK exchange (BIP70 §Payment, BIP71). The extension is not a wallet: the
 * person pastes transactions their wallet signed; we wrap them with a refund address and the
 * merchant's merchant_data, POST them to payment_url, and read the PaymentACK's memo.
 * Re-checking expiry just before sending is the caller's job: see assertNotExpired (expiry.ts).
 */

export const PAYMENT_MIME = 'application/bitcoin-payment';
export const PAYMENT_ACK_MIME = 'application/bitcoin-paymentack';

export interface PaymentInput {
  /** From the evaluated request: where merchant_data and the network come from. */
  details: {
    network: string;
    merchantData?: Uint8Array;
    total: bigint;
    outputs: { amount: bigint; script: string | Uint8Array }[];
  };
  /** One or more signed transactions as hex, separated by white space, commas or new lines. */
  transactionsHex: string | string[];
  /** Where the merchant may send a refund; checked against the request's network. */
  refundAddress?: string;
  /** Note to the merchant. */
  memo?: string;
}

export interface BuiltPayment {
  bytes: Uint8Array;
  transactions: ParsedTransaction[];
  /** E.g. the transactions do not pay every requested output. */
  warnings: string[];
}

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (byte) => Number.parseInt(byte, 16));

/**
 * Builds the Payment message. The refund output carries the requested total as its amount (what
 * bitcoinj and BitPay's wallet sent), or no amount when the request left the amount open.
 */
export function buildPayment(input: PaymentInput): BuiltPayment {
  const network = input.details.network;
  if (network !== 'main' && network !== 'test') {
    throw new PaymentError('bad-input', t('payBuildUnknownNetwork'));
  }
  const transactions = parseTransactionsHex(input.transactionsHex);
  const refundTo: OutputInit[] = [];
  if (input.refundAddress !== undefined && input.refundAddress.trim() !== '') {
    const script = addressToScript(input.refundAddress, network as Network);
    refundTo.push(input.details.total > 0n ? { script, amount: input.details.total } : { script });
  }
  const requested = input.details.outputs.map((output) => ({
    amount: output.amount,
    script: typeof output.script === 'string' ? fromHex(output.script) : output.script,
  }));
  const warnings: string[] = [];
  const missing = uncoveredOutputs(transactions, requested);
  if (missing.length > 0) {
    warnings.push(
      plural(
        transactions.length > 1 ? 'payTransactionsUncovered' : 'payTransactionUncovered',
        requested.length,
        missing.length,
      ),
    );
  }
  const bytes = encodePayment({
    transactions: transactions.map((tx) => tx.bytes),
    refundTo,
    ...(input.details.merchantData === undefined ? {} : { merchantData: input.details.merchantData }),
    ...(input.memo ? { memo: input.memo } : {}),
  });
  if (bytes.length > MAX_PAYMENT_BYTES) {
    throw new PaymentError(
      'too-large',
      t('payBuildTooLarge', plural('bytes', bytes.length), plural('bytes', MAX_PAYMENT_BYTES)),
    );
  }
  return { bytes, transactions, warnings };
}

/** What the person typed into the payment form. */
export interface PaymentForm {
  transactionsHex: string;
  refundAddress: string;
  memo: string;
}

/**
 * The form as a Payment: expiry checked at `now`, merchant_data echoed, the refund address
 * checked for the request's network. Its warnings are things to confirm before sending (no
 * refund address, transactions that do not pay every output). Throws PaymentError with a sentence.
 */
export function preparePayment(
  details: PaymentInput['details'] & { expires?: bigint },
  form: PaymentForm,
  now: Date,
): BuiltPayment {
  assertNotExpired(details, now);
  const refund = form.refundAddress.trim();
  const built = buildPayment({
    details,
    transactionsHex: form.transactionsHex,
    ...(refund ? { refundAddress: refund } : {}),
    ...(form.memo.trim() ? { memo: form.memo.trim() } : {}),
  });
  if (!refund) built.warnings.unshift(t('payNoRefundAddress'));
  return built;
}

export interface PaymentReceipt {
  /** The merchant's message (untrusted text: show as text, never as HTML). */
  memo?: string;
  ack: PaymentAck;
  warnings: string[];
}

/** POSTs a Payment to payment_url and reads the PaymentACK (at most 60,000 bytes). */
export async function sendPayment(
  paymentUrl: string,
  paymentBytes: Uint8Array,
  options: HttpOptions,
): Promise<PaymentReceipt> {
  const target = parseHttpUrl(paymentUrl, 'payment');
  if (paymentBytes.length > MAX_PAYMENT_BYTES) {
    throw new PaymentError('too-large', t('paySendTooLarge', plural('bytes', paymentBytes.length)));
  }
  const warnings: string[] = [];
  const plain = plainHttpWarning(target, 'payment');
  if (plain) warnings.push(`${plain} ${t('payRefundCouldChange')}`);

  return withDeadline(
    options,
    async (signal) => {
      let response: Response;
      try {
        response = await fetchOnOrigin(options.fetch, target.href, {
          method: 'POST',
          headers: { 'Content-Type': PAYMENT_MIME, Accept: PAYMENT_ACK_MIME },
          body: paymentBytes as Uint8Array<ArrayBuffer>,
          credentials: 'omit',
          cache: 'no-store',
          signal,
        });
      } catch (error) {
        if (isPaymentError(error)) throw error;
        if (options.signal?.aborted) throw new PaymentError('unreachable', t('paySendCancelled'));
        throw new PaymentError('unreachable', t('paySendNoAnswer'), { cause: error });
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new PaymentError('http-status', t('paySendRefused', String(response.status)));
      }
      if (mediaType(response) !== PAYMENT_ACK_MIME) {
        await response.body?.cancel().catch(() => {});
        throw new PaymentError('wrong-content-type', t('paySentNotAck'));
      }
      const bytes = await readCapped(
        response,
        MAX_PAYMENT_ACK_BYTES,
        (size) => new PaymentError('too-large', t('paySentTooLarge', size)),
      );
      let ack: PaymentAck;
      try {
        ack = decodePaymentAck(bytes);
      } catch (error) {
        throw new PaymentError('malformed', t('paySentDamaged'), { cause: error });
      }
      const receipt: PaymentReceipt = { ack, warnings };
      if (ack.memo !== undefined) receipt.memo = ack.memo;
      return receipt;
    },
    () => new PaymentError('unreachable', t('paySendTimeout')),
  );
}
