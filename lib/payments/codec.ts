import $protobuf from 'protobufjs/minimal.js';
import { plural, t } from '../i18n';
import { PaymentError } from './errors';
import { payments } from './gen/payments.js';
import { MAX_PAYMENT_ACK_BYTES, MAX_PAYMENT_BYTES, MAX_PAYMENT_REQUEST_BYTES } from './limits';

/**
 * Decoding and encoding of the BIP70 messages with the generated static code (no reflection:
 * the extension CSP forbids the `Function()` it needs). Everything here returns plain objects
 * with 64-bit integers as `bigint`, defaults filled in, and unknown fields kept as raw wire
 * bytes. Any failure becomes a PaymentError with a readable sentence.
 */

export type UnknownFields = Uint8Array[];

export interface Output {
  /** Satoshis (default 0). */
  amount: bigint;
  /** Raw scriptPubKey. */
  script: Uint8Array;
  unknownFields: UnknownFields;
  /** Whether `amount` was on the wire (so re-encoding keeps an explicit 0). */
  amountPresent: boolean;
}

export interface PaymentDetails {
  /** 'main' when absent. Any other text is kept as sent; the verdict judges it. */
  network: string;
  networkPresent: boolean;
  outputs: Output[];
  time: bigint;
  expires?: bigint;
  memo?: string;
  paymentUrl?: string;
  merchantData?: Uint8Array;
  /** E.g. BitPay's field 8 (float required_fee_rate) and extensions >= 100. */
  unknownFields: UnknownFields;
}

export interface PaymentRequest {
  /** payment_details_version, 1 when absent. */
  version: number;
  versionPresent: boolean;
  /** 'none' when absent. */
  pkiType: string;
  pkiTypePresent: boolean;
  pkiData?: Uint8Array;
  serializedPaymentDetails: Uint8Array;
  signature?: Uint8Array;
  unknownFields: UnknownFields;
}

export interface Payment {
  merchantData?: Uint8Array;
  transactions: Uint8Array[];
  refundTo: Output[];
  memo?: string;
  unknownFields: UnknownFields;
}

export interface PaymentAck {
  payment: Payment;
  memo?: string;
  unknownFields: UnknownFields;
}

/** What callers give to build an Output; absent amount means "not on the wire". */
export interface OutputInit {
  amount?: bigint;
  script: Uint8Array;
  unknownFields?: UnknownFields;
}

export interface PaymentInit {
  merchantData?: Uint8Array;
  transactions?: Uint8Array[];
  refundTo?: OutputInit[];
  memo?: string;
  unknownFields?: UnknownFields;
}

export interface PaymentDetailsInit {
  network?: string;
  outputs?: OutputInit[];
  time: bigint;
  expires?: bigint;
  memo?: string;
  paymentUrl?: string;
  merchantData?: Uint8Array;
  unknownFields?: UnknownFields;
}

export interface PaymentRequestInit {
  version?: number;
  pkiType?: string;
  pkiData?: Uint8Array;
  serializedPaymentDetails: Uint8Array;
  signature?: Uint8Array;
  unknownFields?: UnknownFields;
}

const UINT64_MAX = (1n << 64n) - 1n;

type LongLike = number | { low: number; high: number };

/** protobufjs/minimal returns uint64 as a Long (it bundles long.js); turn it into an exact bigint. */
function toBigInt(value: LongLike): bigint {
  if (typeof value === 'number') {
    // Only reachable if long.js were missing; refuse rather than lose precision.
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new PaymentError('malformed', t('payCodecInexact'));
    }
    return BigInt(value);
  }
  return (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0);
}

/** The writer takes {low, high} objects without needing long.js. */
function toLongBits(value: bigint): { low: number; high: number; unsigned: boolean } {
  if (value < 0n || value > UINT64_MAX) {
    throw new PaymentError('bad-input', t('payCodecTooBig'));
  }
  return {
    low: Number(value & 0xffffffffn) | 0,
    high: Number(value >> 32n) | 0,
    unsigned: true,
  };
}

/** Fresh copies, so results never alias (or pin) the caller's buffer, and are plain Uint8Arrays. */
function copy(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

function unknownsOf(message: { $unknowns?: Uint8Array[] }): UnknownFields {
  return (message.$unknowns ?? []).map(copy);
}

function has(message: object, key: string): boolean {
  return Object.hasOwn(message, key);
}

function readerFor(bytes: Uint8Array): $protobuf.Reader {
  const reader = $protobuf.Reader.create(bytes);
  // Preserve unknown fields as `$unknowns` (protobufjs discards them by default).
  reader.discardUnknown = false;
  return reader;
}

/** The message being read, as the subject of a sentence ("The payment request …"). */
type Subject = 'payWhatRequest' | 'payWhatDetails' | 'payWhatCertificates' | 'payWhatPayment' | 'payWhatAck';

function checkInput(bytes: unknown, limit: number, what: Subject): asserts bytes is Uint8Array {
  if (!(bytes instanceof Uint8Array)) {
    throw new PaymentError('bad-input', t('payCodecNotBytes', t(what)));
  }
  if (bytes.length > limit) {
    throw new PaymentError(
      'too-large',
      t('payCodecTooLarge', t(what), plural('bytes', bytes.length), plural('bytes', limit)),
    );
  }
}

/** Runs a generated decoder and turns whatever it throws into one readable PaymentError. */
function decodeWith<T>(what: Subject, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof PaymentError) throw error;
    const text = error instanceof Error ? error.message : '';
    const missing = /missing required '([^']+)'/.exec(text);
    if (missing) {
      throw new PaymentError('malformed', t('payCodecIncomplete', t(what), missing[1]!), { cause: error });
    }
    throw new PaymentError('malformed', t('payCodecDamaged', t(what)), { cause: error });
  }
}

function outputFrom(message: payments.Output.$Properties): Output {
  return {
    amount: toBigInt(message.amount as LongLike),
    script: copy(message.script),
    unknownFields: unknownsOf(message),
    amountPresent: has(message, 'amount'),
  };
}

function paymentFrom(message: payments.Payment.$Properties): Payment {
  const payment: Payment = {
    transactions: (message.transactions ?? []).map(copy),
    refundTo: (message.refundTo ?? []).map(outputFrom),
    unknownFields: unknownsOf(message),
  };
  // Absent fields read as prototype defaults, so presence is an own property.
  if (has(message, 'merchantData') && message.merchantData) payment.merchantData = copy(message.merchantData);
  if (has(message, 'memo') && typeof message.memo === 'string') payment.memo = message.memo;
  return payment;
}

/** Decodes a PaymentRequest (at most 50,000 bytes). Does not look inside the details or certificates. */
export function decodePaymentRequest(bytes: Uint8Array): PaymentRequest {
  checkInput(bytes, MAX_PAYMENT_REQUEST_BYTES, 'payWhatRequest');
  const message = decodeWith('payWhatRequest', () => payments.PaymentRequest.decode(readerFor(bytes)));
  const request: PaymentRequest = {
    version: message.paymentDetailsVersion,
    versionPresent: has(message, 'paymentDetailsVersion'),
    pkiType: message.pkiType,
    pkiTypePresent: has(message, 'pkiType'),
    serializedPaymentDetails: copy(message.serializedPaymentDetails),
    unknownFields: unknownsOf(message),
  };
  if (has(message, 'pkiData')) request.pkiData = copy(message.pkiData);
  if (has(message, 'signature')) request.signature = copy(message.signature);
  return request;
}

/** Decodes PaymentDetails (the bytes of serialized_payment_details, or a bare PaymentDetails). */
export function decodePaymentDetails(bytes: Uint8Array): PaymentDetails {
  checkInput(bytes, MAX_PAYMENT_REQUEST_BYTES, 'payWhatDetails');
  const message = decodeWith('payWhatDetails', () => payments.PaymentDetails.decode(readerFor(bytes)));
  const details: PaymentDetails = {
    network: message.network,
    networkPresent: has(message, 'network'),
    outputs: (message.outputs ?? []).map(outputFrom),
    time: toBigInt(message.time as LongLike),
    unknownFields: unknownsOf(message),
  };
  if (has(message, 'expires')) details.expires = toBigInt(message.expires as LongLike);
  if (has(message, 'memo')) details.memo = message.memo;
  if (has(message, 'paymentUrl')) details.paymentUrl = message.paymentUrl;
  if (has(message, 'merchantData')) details.merchantData = copy(message.merchantData);
  return details;
}

/** Decodes pki_data for x509 pki types: the DER certificates, leaf first. */
export function decodeX509Certificates(bytes: Uint8Array): Uint8Array[] {
  checkInput(bytes, MAX_PAYMENT_REQUEST_BYTES, 'payWhatCertificates');
  const message = decodeWith('payWhatCertificates', () => payments.X509Certificates.decode(readerFor(bytes)));
  return (message.certificate ?? []).map(copy);
}

/** Decodes a Payment (what a merchant receives; at most 50,000 bytes). */
export function decodePayment(bytes: Uint8Array): Payment {
  checkInput(bytes, MAX_PAYMENT_BYTES, 'payWhatPayment');
  return paymentFrom(decodeWith('payWhatPayment', () => payments.Payment.decode(readerFor(bytes))));
}

/** Decodes a PaymentACK (at most 60,000 bytes: it embeds a Payment). */
export function decodePaymentAck(bytes: Uint8Array): PaymentAck {
  checkInput(bytes, MAX_PAYMENT_ACK_BYTES, 'payWhatAck');
  const message = decodeWith('payWhatAck', () => payments.PaymentACK.decode(readerFor(bytes)));
  const ack: PaymentAck = { payment: paymentFrom(message.payment), unknownFields: unknownsOf(message) };
  if (has(message, 'memo')) ack.memo = message.memo;
  return ack;
}

function outputMessage(output: OutputInit | Output): payments.Output.$Properties {
  const message: payments.Output.$Properties = { script: output.script };
  const present = 'amountPresent' in output ? output.amountPresent : false;
  if (output.amount !== undefined && (present || output.amount !== 0n)) {
    message.amount = toLongBits(output.amount) as unknown as number;
  }
  if (output.unknownFields?.length) message.$unknowns = output.unknownFields;
  return message;
}

function paymentMessage(payment: PaymentInit): payments.Payment.$Properties {
  const message: payments.Payment.$Properties = {
    transactions: payment.transactions ?? [],
    refundTo: (payment.refundTo ?? []).map(outputMessage),
  };
  if (payment.merchantData !== undefined) message.merchantData = payment.merchantData;
  if (payment.memo !== undefined) message.memo = payment.memo;
  if (payment.unknownFields?.length) message.$unknowns = payment.unknownFields;
  return message;
}

/** A fresh ArrayBuffer-backed copy: usable directly as a fetch body or WebCrypto input. */
function finish(writer: $protobuf.Writer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(writer.finish());
}

/** Encodes a Payment (fields in numerical order, unknown fields last). */
export function encodePayment(payment: PaymentInit): Uint8Array<ArrayBuffer> {
  return finish(payments.Payment.encode(paymentMessage(payment)));
}

/** Encodes a PaymentACK (used by merchants, and by our test merchant). */
export function encodePaymentAck(ack: {
  payment: PaymentInit;
  memo?: string;
  unknownFields?: UnknownFields;
}): Uint8Array<ArrayBuffer> {
  const message: payments.PaymentACK.$Properties = { payment: paymentMessage(ack.payment) };
  if (ack.memo !== undefined) message.memo = ack.memo;
  if (ack.unknownFields?.length) message.$unknowns = ack.unknownFields;
  return finish(payments.PaymentACK.encode(message));
}

/** Encodes PaymentDetails. A field equal to its default is written only if it was on the wire. */
export function encodePaymentDetails(details: PaymentDetailsInit | PaymentDetails): Uint8Array<ArrayBuffer> {
  const message: payments.PaymentDetails.$Properties = {
    time: toLongBits(details.time) as unknown as number,
    outputs: (details.outputs ?? []).map(outputMessage),
  };
  const networkPresent = 'networkPresent' in details ? details.networkPresent : false;
  if (details.network !== undefined && (networkPresent || details.network !== 'main')) {
    message.network = details.network;
  }
  if (details.expires !== undefined) message.expires = toLongBits(details.expires) as unknown as number;
  if (details.memo !== undefined) message.memo = details.memo;
  if (details.paymentUrl !== undefined) message.paymentUrl = details.paymentUrl;
  if (details.merchantData !== undefined) message.merchantData = details.merchantData;
  if (details.unknownFields?.length) message.$unknowns = details.unknownFields;
  return finish(payments.PaymentDetails.encode(message));
}

/** Encodes a PaymentRequest. To sign, encode with `signature: new Uint8Array(0)` and sign those bytes. */
export function encodePaymentRequest(request: PaymentRequestInit | PaymentRequest): Uint8Array<ArrayBuffer> {
  const message: payments.PaymentRequest.$Properties = {
    serializedPaymentDetails: request.serializedPaymentDetails,
  };
  const versionPresent = 'versionPresent' in request ? request.versionPresent : false;
  const pkiTypePresent = 'pkiTypePresent' in request ? request.pkiTypePresent : false;
  if (request.version !== undefined && (versionPresent || request.version !== 1)) {
    message.paymentDetailsVersion = request.version;
  }
  if (request.pkiType !== undefined && (pkiTypePresent || request.pkiType !== 'none')) {
    message.pkiType = request.pkiType;
  }
  if (request.pkiData !== undefined) message.pkiData = request.pkiData;
  if (request.signature !== undefined) message.signature = request.signature;
  if (request.unknownFields?.length) message.$unknowns = request.unknownFields;
  return finish(payments.PaymentRequest.encode(message));
}

/** Encodes X509Certificates (pki_data) from DER certificates, leaf first. */
export function encodeX509Certificates(certificates: Uint8Array[]): Uint8Array<ArrayBuffer> {
  return finish(payments.X509Certificates.encode({ certificate: certificates }));
}
