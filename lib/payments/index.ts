/**
 * lib/payments — the BIP70 payment protocol, with no extension API and no page DOM: fetch, the
 * clock, the root store and WebCrypto come in as parameters, so all of it runs under Node.
 *
 * Typical flow: paymentLinkOf(anchor) → readPayment(text) → fetchPaymentRequest(url, { fetch }) →
 * evaluatePaymentRequest(bytes, { roots: bundledRootStore(), now: new Date() }) → show it →
 * assertNotExpired(details, new Date()) → buildPayment(...) → sendPayment(paymentUrl, bytes, { fetch }).
 *
 * Beyond BIP70, every request comes out as one model (request.ts's CheckedRequest): bitcoin: URIs
 * (uri.ts reads, bip21.ts judges), BOLT 11 invoices (bolt11.ts), BOLT 12 offers (bolt12.ts, on
 * tlv.ts), LNURL-pay and Lightning Addresses (lnurl-target.ts reads, lnurl.ts looks up,
 * lnurl-verify.ts asks whether an invoice was paid). forms.ts classifies text and links by their
 * form, cheaply (the content script); read.ts is the one parser that reads them; check.ts turns
 * what it read into the model.
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
export { checkBitcoinUri, checkBitcoinUriText } from './bip21';
export { type Bolt11Invoice, decodeBolt11 } from './bolt11';
export { type BlindedPath, type Bolt12Offer, decodeBolt12 } from './bolt12';
export { type ChainResult, validateChain } from './chain';
export {
  bip70Request,
  checkBolt11Text,
  checkBolt12Text,
  checkPaymentText,
  checkRead,
  lnurlRequest,
  offerRequest,
  type PaymentReport,
  reportOf,
} from './check';
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
export {
  type Anchor,
  type FoundLink,
  looksLikeBolt11,
  looksLikeLnurl,
  MAX_REQUEST_TEXT,
  PAYMENT_REQUEST_MIME,
  paymentFormOf,
  paymentLinkOf,
  type RequestForm,
} from './forms';
export type { FetchLike, HttpOptions } from './http';
export {
  MAX_CERTIFICATES,
  MAX_MONEY,
  MAX_PAYMENT_ACK_BYTES,
  MAX_PAYMENT_BYTES,
  MAX_PAYMENT_REQUEST_BYTES,
} from './limits';
export {
  fetchLnurlInvoice,
  fetchPayParams,
  type LnurlPayParams,
  type LnurlTarget,
  parseLnurl,
} from './lnurl';
export { checkLnurlPayment, type PaymentStatus } from './lnurl-verify';
export { type LoadedRequest, type LoadOptions, loadPaymentRequest } from './load';
export {
  type FetchedSource,
  inputTextOf,
  type LnurlSource,
  type OfflineSource,
  type PaymentSource,
  paramsFor,
  type RequestSource,
  serverOf,
  sourceFromParams,
  sourceFromText,
  sourceOf,
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
export { type ReadPayment, readPayment } from './read';
export type { Amount, CheckedRequest, RequestKind, Signer, WalletHandOff } from './request';
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
export { type BitcoinUri, bitcoinUriFor, parseBitcoinUri } from './uri';
export type { EvaluatedDetails, EvaluatedOutput, Verdict } from './verdict';
export {
  type EvaluateOptions,
  evaluatePaymentRequest,
  hostMismatchWarning,
  type Merchant,
  type PaymentRequestEvaluation,
} from './verify';
export { walletUriFor } from './wallet';
