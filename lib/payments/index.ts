/**
 * lib/payments — the BIP70 payment protocol, with no extension API and no page DOM: fetch, the
 * clock, the root store and WebCrypto come in as parameters, so all of it runs under Node.
 *
 * Typical flow: paymentLinkOf(anchor) → fetchPaymentRequest(url, { fetch }) →
 * evaluatePaymentRequest(bytes, { roots: bundledRootStore(), now: new Date() }) → show it →
 * assertNotExpired(details, new Date()) → buildPayment(...) → sendPayment(paymentUrl, bytes, { fetch }).
 *
 * The payment page's own logic is here too, as pure functions: what it was opened with
 * (page-input), its states (page-view), time left (timing), wallet URIs (wallet), failures as
 * sentences (failure); platform/payments wires them to the browser.
 */

export {
  addressToScript,
  describeScript,
  isAddress,
  type Network,
  type ScriptInfo,
  type ScriptType,
} from './addresses';
export { formatBtc, formatBtcForPeople, parseBtc } from './amounts';
export { type ChainResult, validateChain } from './chain';
export {
  decodePayment,
  decodePaymentAck,
  decodePaymentDetails,
  decodePaymentRequest,
  decodeX509Certificates,
  encodePayment,
  encodePaymentAck,
  encodePaymentDetails,
  encodePaymentRequest,
  encodeX509Certificates,
  type Output,
  type OutputInit,
  type Payment,
  type PaymentAck,
  type PaymentDetails,
  type PaymentDetailsInit,
  type PaymentInit,
  type PaymentRequest,
  type PaymentRequestInit,
} from './codec';
export { isPaymentError, PaymentError, type PaymentErrorCode } from './errors';
export { assertNotExpired, formatTime, isExpired } from './expiry';
export { describePaymentFailure } from './failure';
export { type FetchedPaymentRequest, fetchPaymentRequest } from './fetch';
export type { FetchLike, HttpOptions } from './http';
export {
  MAX_CERTIFICATES,
  MAX_MONEY,
  MAX_PAYMENT_ACK_BYTES,
  MAX_PAYMENT_BYTES,
  MAX_PAYMENT_REQUEST_BYTES,
} from './limits';
export { type LoadedRequest, type LoadOptions, loadPaymentRequest } from './load';
export {
  type AddressSource,
  inputTextOf,
  type PaymentSource,
  paramsFor,
  type RequestSource,
  sourceFromParams,
  sourceFromText,
} from './page-input';
export { type PageEvent, type PageView, pageReducer } from './page-view';
export {
  type BuiltPayment,
  buildPayment,
  PAYMENT_ACK_MIME,
  PAYMENT_MIME,
  type PaymentForm,
  type PaymentInput,
  type PaymentReceipt,
  preparePayment,
  sendPayment,
} from './payment';
export {
  bundledRootStore,
  createRootStore,
  EMPTY_ROOT_STORE,
  type RootStore,
  rootStoreFromBase64,
  withExtraRoots,
} from './roots';
export { signedBytesOf } from './signature';
export { CLOCK_TOLERANCE_S, clockOffsetSeconds, expiresMs, secondsLeft } from './timing';
export {
  type ParsedTransaction,
  parseTransaction,
  parseTransactionsHex,
  uncoveredOutputs,
} from './transactions';
export {
  type BitcoinUri,
  bitcoinUriFor,
  PAYMENT_REQUEST_MIME,
  type PaymentLink,
  parseBitcoinUri,
  paymentLinkOf,
} from './uri';
export type { EvaluatedDetails, EvaluatedOutput, Verdict } from './verdict';
export {
  type EvaluateOptions,
  evaluatePaymentRequest,
  hostMismatchWarning,
  type Merchant,
  type PaymentRequestEvaluation,
} from './verify';
export { plainWalletUri, walletUriFor } from './wallet';
