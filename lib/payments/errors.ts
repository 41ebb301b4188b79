/**
 * The one error type lib/payments throws. `code` is for programs, `message` is a sentence a
 * person can read (no stack-trace jargon), so the UI can show it as is.
 */
export type PaymentErrorCode =
  | 'too-large'
  | 'malformed'
  | 'bad-uri'
  | 'bad-url'
  | 'unreachable'
  | 'http-status'
  | 'wrong-content-type'
  | 'bad-address'
  | 'bad-transaction'
  | 'bad-input'
  | 'bad-invoice'
  | 'bad-offer'
  | 'bad-lnurl'
  | 'expired'
  /** A redirect away from the request's origin, or one the browser hides. */
  | 'redirect'
  /** An address on this machine or a private network the person has not allowed. */
  | 'private-host'
  /** A DNSSEC chain or a BIP 353 name that does not hold (dnssec/problem.ts says which rule). */
  | 'dnssec';

export class PaymentError extends Error {
  override readonly name = 'PaymentError';
  readonly code: PaymentErrorCode;
  /** Which rule, for programs and tests ("checksum", "multiplier"…); the message says it for people. */
  readonly detail: string | undefined;

  constructor(code: PaymentErrorCode, message: string, options?: { cause?: unknown; detail?: string }) {
    super(message, options);
    this.code = code;
    this.detail = options?.detail;
  }
}

export function isPaymentError(value: unknown): value is PaymentError {
  return value instanceof PaymentError;
}
