import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, hex } from '@scure/base';
import { type MessageKey, t } from '../i18n';
import { type Chain, hashAddress, hashScript, segwitAddress, witnessScript } from './addresses';
import { PaymentError } from './errors';
import { MAX_MONEY } from './limits';

/**
 * BOLT 11 Lightning invoices: every field the spec defines, the amount exact in millisatoshis,
 * and the payee's node key checked against the signature — recovered from it, or, when the
 * invoice names its node (`n`), the signature verified against that key with low-S required.
 * Bech32 comes from @scure/base and secp256k1 from @noble/curves: no curve code here.
 *
 * A refusal is a PaymentError('bad-invoice') whose `detail` names the rule and whose message is
 * the sentence a person sees. A signature proves which node made the invoice, not which shop.
 */

export interface RouteHop {
  /** The node at the start of the channel (33-byte key, hex). */
  pubkey: string;
  /** block x transaction x output. */
  shortChannelId: string;
  feeBaseMsat: number;
  feeProportionalMillionths: number;
  cltvExpiryDelta: number;
}

export interface Fallback {
  type: 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr' | 'segwit';
  address: string;
  script: Uint8Array;
}

export interface Bolt11Invoice {
  /** The invoice as read, in lower case (how it is handed on). */
  invoice: string;
  network: Chain;
  /** Absent when the payer chooses the amount. */
  amountMsat?: bigint;
  /** Seconds since the epoch. */
  timestamp: bigint;
  /** `x`, or the default 3600. */
  expirySeconds: bigint;
  expiresAt: bigint;
  paymentHash: string;
  paymentSecret: string;
  /** Untrusted text from the payee. */
  description?: string;
  descriptionHash?: string;
  /** `m`, hex. */
  metadata?: string;
  /** Compressed secp256k1 key of the payee node, hex. */
  payeeNodeKey: string;
  /** Whether the invoice named its node (`n`) and the signature was verified against it. */
  nodeKeyGiven: boolean;
  /** `c`, or the default 18 blocks. */
  minFinalCltvExpiry: bigint;
  fallbacks: Fallback[];
  /** Each `r` field: one private route, hop by hop. */
  routes: RouteHop[][];
  /** Feature bits set (`9`). */
  features: number[];
  /** Optional feature bits Hushdrop does not know (ignored, as the spec says). */
  unknownOptionalFeatures: number[];
  /** Tag letters of fields Hushdrop does not know (skipped, as the spec says). */
  unknownFields: string[];
  /** r ‖ s, hex. */
  signature: string;
  recoveryId: number;
}

/** Longer than a QR code can hold; refused before any work. */
export const MAX_INVOICE_LENGTH = 7_089;

/** Bech32's 32 characters, by their 5-bit value. */
export const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const SIGNATURE_WORDS = 104;
const TIMESTAMP_WORDS = 7;
const DEFAULT_EXPIRY = 3600n;
const DEFAULT_MIN_FINAL_CLTV = 18n;

/** Longest prefixes first: "lnbcrt" before "lnbc", "lntbs" before "lntb". */
const PREFIXES: [string, Chain][] = [
  ['lnbcrt', 'regtest'],
  ['lntbs', 'signet'],
  ['lnbc', 'main'],
  ['lntb', 'test'],
];

/** Millisatoshis per unit of the amount in the human-readable part (1 BTC = 10^11 msat). */
const MULTIPLIERS: Record<string, bigint> = { '': 100_000_000_000n, m: 100_000_000n, u: 100_000n, n: 100n };

/** Invoice feature bits (BOLT 9, context "9"), by their pair's even bit. */
export const INVOICE_FEATURES: Record<number, string> = {
  8: 'var_onion_optin',
  14: 'payment_secret',
  16: 'basic_mpp',
  24: 'option_route_blinding',
  36: 'option_attribution_data',
  48: 'option_payment_metadata',
};

/** Field letters and their 5-bit types. */
const TAGS = [
  ['p', 1],
  ['s', 16],
  ['d', 13],
  ['m', 27],
  ['n', 19],
  ['h', 23],
  ['x', 6],
  ['c', 24],
  ['f', 9],
  ['r', 3],
  ['9', 5],
] as const;
type Tag = (typeof TAGS)[number][0];
const TAG_OF = new Map<number, Tag>(TAGS.map(([tag, type]) => [type, tag]));
/** Fields that may appear once; `f` and `r` may repeat. */
const SINGLE: Tag[] = ['p', 's', 'd', 'm', 'n', 'h', 'x', 'c', '9'];
/** Fixed lengths in 5-bit words (BOLT 11: a reader must fail on any other). */
const FIXED_WORDS: Partial<Record<Tag, number>> = { p: 52, s: 52, h: 52, n: 53 };

function refuse(detail: string, why: MessageKey, ...args: (string | number)[]): PaymentError {
  return new PaymentError('bad-invoice', t('payInvoiceRefused', t(why, ...args)), { detail });
}

/** 5-bit words to bytes, the last byte padded with zero bits (how the signed data is formed). */
function wordsToPaddedBytes(words: readonly number[]): Uint8Array {
  const out = new Uint8Array(Math.ceil((words.length * 5) / 8));
  let acc = 0;
  let bits = 0;
  let at = 0;
  for (const word of words) {
    acc = (acc << 5) | word;
    bits += 5;
    while (bits >= 8) {
      bits -= 8;
      out[at++] = (acc >> bits) & 0xff;
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out[at] = (acc << (8 - bits)) & 0xff;
  return out;
}

/** Big-endian unsigned number from 5-bit words. */
function wordsToBigint(words: readonly number[]): bigint {
  let n = 0n;
  for (const word of words) n = (n << 5n) | BigInt(word);
  return n;
}

/** A field's bytes; the padding (fewer than 5 bits) must be zero. */
function fieldBytes(tag: string, words: number[]): Uint8Array {
  const bytes = bech32.fromWordsUnsafe(words);
  if (!bytes) throw refuse('field-padding', 'payInvoiceFieldPadding', tag);
  return bytes;
}

/** A number field (`x`, `c`) must use no more words than it needs. */
function minimalNumber(tag: string, words: number[]): bigint {
  if (words.length === 0 || words[0] === 0) throw refuse('field-minimal', 'payInvoiceFieldMinimal', tag);
  // 64 bits are more than any expiry or CLTV delta; longer is garbage.
  if (words.length > 13) throw refuse('field-length', 'payInvoiceFieldLength', tag);
  return wordsToBigint(words);
}

function readAmount(rest: string): bigint | undefined {
  if (rest === '') return undefined;
  const match = /^(\d+)([a-z]?)$/.exec(rest);
  if (!match) {
    const number = /^\d+/.exec(rest)?.[0];
    if (number && /^[a-z]$/.test(rest.slice(number.length)))
      throw refuse('multiplier', 'payInvoiceMultiplier', rest.slice(number.length));
    throw refuse('amount', 'payInvoiceAmount', rest.slice(0, 30));
  }
  const digits = BigInt(match[1]!);
  const unit = match[2]!;
  if (digits === 0n) throw refuse('amount-zero', 'payInvoiceAmountZero');
  let msat: bigint;
  if (unit === 'p') {
    if (digits % 10n !== 0n) throw refuse('sub-millisatoshi', 'payInvoiceSubMsat', rest);
    msat = digits / 10n;
  } else {
    const per = MULTIPLIERS[unit];
    if (per === undefined) throw refuse('multiplier', 'payInvoiceMultiplier', unit);
    msat = digits * per;
  }
  if (msat > MAX_MONEY * 1000n) throw refuse('amount-too-large', 'payInvoiceTooMuch');
  return msat;
}

function readPrefix(hrp: string): { network: Chain; amountMsat?: bigint } {
  for (const [prefix, network] of PREFIXES) {
    if (!hrp.startsWith(prefix)) continue;
    const rest = hrp.slice(prefix.length);
    // "lnbc" followed by letters is "lnbcrt" or an unknown currency, never an amount.
    if (rest !== '' && !/^\d/.test(rest)) continue;
    const amountMsat = readAmount(rest);
    return amountMsat === undefined ? { network } : { network, amountMsat };
  }
  throw refuse('prefix', 'payInvoicePrefix', hrp.slice(0, 20));
}

function readFallback(words: number[]): Fallback | undefined {
  if (words.length === 0) throw refuse('fallback', 'payInvoiceFallback');
  const version = words[0]!;
  // Versions 19–31 are for future address forms: skipped, as the spec says.
  if (version > 18) return undefined;
  const program = fieldBytes('f', words.slice(1));
  if (version === 17 || version === 18) {
    if (program.length !== 20) throw refuse('fallback', 'payInvoiceFallback');
    const type = version === 17 ? 'p2pkh' : 'p2sh';
    return { type, address: '', script: hashScript(type, program) };
  }
  const witness = witnessScript(version, program);
  if (typeof witness === 'string') throw refuse('fallback', 'payInvoiceFallback');
  return { type: witness.type, address: '', script: witness.script };
}

function fallbackAddress(fallback: Fallback, network: Chain): string {
  const s = fallback.script;
  if (fallback.type === 'p2pkh') return hashAddress(network, 'p2pkh', s.subarray(3, 23));
  if (fallback.type === 'p2sh') return hashAddress(network, 'p2sh', s.subarray(2, 22));
  const version = s[0] === 0 ? 0 : s[0]! - 0x50;
  return segwitAddress(network, version, s.subarray(2));
}

const HOP_BYTES = 51;

function readRoute(words: number[]): RouteHop[] {
  const bytes = fieldBytes('r', words);
  if (bytes.length === 0 || bytes.length % HOP_BYTES !== 0) throw refuse('route', 'payInvoiceRoute');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hops: RouteHop[] = [];
  for (let at = 0; at < bytes.length; at += HOP_BYTES) {
    const block = (view.getUint16(at + 33) << 8) | view.getUint8(at + 35);
    const tx = (view.getUint16(at + 36) << 8) | view.getUint8(at + 38);
    hops.push({
      pubkey: hex.encode(bytes.subarray(at, at + 33)),
      shortChannelId: `${block}x${tx}x${view.getUint16(at + 39)}`,
      feeBaseMsat: view.getUint32(at + 41),
      feeProportionalMillionths: view.getUint32(at + 45),
      cltvExpiryDelta: view.getUint16(at + 49),
    });
  }
  return hops;
}

function readFeatures(words: number[]): { set: number[]; unknownOptional: number[] } {
  if (words.length === 0 || words[0] === 0) throw refuse('field-minimal', 'payInvoiceFieldMinimal', '9');
  const set: number[] = [];
  for (let i = 0; i < words.length * 5; i++) {
    if ((words[words.length - 1 - Math.floor(i / 5)]! >> (i % 5)) & 1) set.push(i);
  }
  const known = (bit: number) => INVOICE_FEATURES[bit & ~1] !== undefined;
  const unknownRequired = set.filter((bit) => bit % 2 === 0 && !known(bit));
  if (unknownRequired.length > 0)
    throw refuse('feature-required', 'payInvoiceFeatureRequired', unknownRequired.join(', '));
  const has = (even: number) => set.includes(even) || set.includes(even + 1);
  // basic_mpp depends on payment_secret (BOLT 9): an invoice offering it without is broken.
  if (has(16) && !has(14)) throw refuse('feature-dependency', 'payInvoiceFeatureDependency');
  return { set, unknownOptional: set.filter((bit) => !known(bit)) };
}

function readDescription(words: number[]): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(fieldBytes('d', words));
  } catch (error) {
    if (error instanceof PaymentError) throw error;
    throw refuse('description-utf8', 'payInvoiceDescriptionUtf8');
  }
}

/** The words of the data part; refuses every malformed bech32 string with its own reason. */
function bech32Words(text: string): { hrp: string; words: number[] } {
  if (text.length > MAX_INVOICE_LENGTH) throw refuse('too-long', 'payInvoiceTooLong', MAX_INVOICE_LENGTH);
  if (text !== text.toLowerCase() && text !== text.toUpperCase())
    throw refuse('mixed-case', 'payInvoiceMixedCase');
  const lower = text.toLowerCase();
  const separator = lower.lastIndexOf('1');
  if (separator < 1) throw refuse('no-separator', 'payInvoiceNoSeparator');
  const hrp = lower.slice(0, separator);
  const data = lower.slice(separator + 1);
  if (!/^[\x21-\x7e]+$/.test(hrp) || [...data].some((c) => !BECH32_CHARSET.includes(c)))
    throw refuse('characters', 'payInvoiceCharacters');
  if (data.length < 6) throw refuse('too-short', 'payInvoiceTooShort');
  const decoded = bech32.decodeUnsafe(lower, false);
  if (!decoded) throw refuse('checksum', 'payInvoiceChecksum');
  return { hrp, words: [...decoded.words] };
}

interface Fields {
  seen: Set<Tag>;
  paymentHash?: string;
  paymentSecret?: string;
  description?: string;
  descriptionHash?: string;
  metadata?: string;
  expiry?: bigint;
  minFinalCltv?: bigint;
  fallbacks: Fallback[];
  routes: RouteHop[][];
  features: { set: number[]; unknownOptional: number[] };
  unknownFields: string[];
}

interface RawField {
  tag: Tag | undefined;
  type: number;
  data: number[];
}

/** Splits the tagged fields; a field that runs past the end is refused. */
function splitFields(words: number[]): RawField[] {
  const out: RawField[] = [];
  let at = 0;
  while (at < words.length) {
    if (at + 3 > words.length) throw refuse('field-cut', 'payInvoiceFieldCut');
    const type = words[at]!;
    const length = words[at + 1]! * 32 + words[at + 2]!;
    const data = words.slice(at + 3, at + 3 + length);
    if (data.length !== length) throw refuse('field-cut', 'payInvoiceFieldCut');
    at += 3 + length;
    out.push({ tag: TAG_OF.get(type), type, data });
  }
  return out;
}

/** The node key the invoice names (`n`), if it names one; checked before the signature. */
function namedNodeKey(raw: RawField[]): Uint8Array | undefined {
  const named = raw.filter((field) => field.tag === 'n');
  if (named.some((field) => field.data.length !== FIXED_WORDS.n))
    throw refuse('field-length', 'payInvoiceFieldLength', 'n');
  if (named.length > 1) throw refuse('field-twice', 'payInvoiceFieldTwice', 'n');
  return named[0] && fieldBytes('n', named[0].data);
}

function readFields(raw: RawField[]): Fields {
  const fields: Fields = {
    seen: new Set(),
    fallbacks: [],
    routes: [],
    features: { set: [], unknownOptional: [] },
    unknownFields: [],
  };
  for (const { tag, type, data } of raw) {
    if (tag === undefined) {
      fields.unknownFields.push(BECH32_CHARSET[type]!);
      continue;
    }
    const fixed = FIXED_WORDS[tag];
    if (fixed !== undefined && data.length !== fixed)
      throw refuse('field-length', 'payInvoiceFieldLength', tag);
    if (SINGLE.includes(tag) && fields.seen.has(tag))
      throw refuse('field-twice', 'payInvoiceFieldTwice', tag);
    fields.seen.add(tag);
    switch (tag) {
      case 'p':
        fields.paymentHash = hex.encode(fieldBytes(tag, data));
        break;
      case 's':
        fields.paymentSecret = hex.encode(fieldBytes(tag, data));
        break;
      case 'h':
        fields.descriptionHash = hex.encode(fieldBytes(tag, data));
        break;
      case 'n':
        break;
      case 'd':
        fields.description = readDescription(data);
        break;
      case 'm':
        fields.metadata = hex.encode(fieldBytes(tag, data));
        break;
      case 'x':
        fields.expiry = minimalNumber(tag, data);
        break;
      case 'c':
        fields.minFinalCltv = minimalNumber(tag, data);
        break;
      case 'f': {
        const fallback = readFallback(data);
        if (fallback) fields.fallbacks.push(fallback);
        break;
      }
      case 'r':
        fields.routes.push(readRoute(data));
        break;
      case '9':
        fields.features = readFeatures(data);
        break;
    }
  }
  if (!fields.paymentHash) throw refuse('no-payment-hash', 'payInvoiceNoHash');
  if (!fields.paymentSecret) throw refuse('no-payment-secret', 'payInvoiceNoSecret');
  if (fields.description === undefined && !fields.descriptionHash)
    throw refuse('no-description', 'payInvoiceNoDescription');
  if (fields.description !== undefined && fields.descriptionHash)
    throw refuse('two-descriptions', 'payInvoiceTwoDescriptions');
  return fields;
}

/** The payee's key: verified against `n` (low-S) when given, else recovered (either S). */
function payeeKey(signed: Uint8Array, signature: number[], nodeKey: Uint8Array | undefined) {
  const bytes = bech32.fromWordsUnsafe(signature);
  if (bytes?.length !== 65) throw refuse('signature', 'payInvoiceSignatureBroken');
  const compact = bytes.subarray(0, 64);
  const recoveryId = bytes[64]!;
  if (recoveryId > 3) throw refuse('recovery-id', 'payInvoiceRecoveryId');
  const hash = sha256(signed);
  let parsed: ReturnType<typeof secp256k1.Signature.fromBytes>;
  try {
    parsed = secp256k1.Signature.fromBytes(compact, 'compact');
  } catch {
    throw refuse('signature', 'payInvoiceSignatureBroken');
  }
  if (nodeKey) {
    if (parsed.hasHighS()) throw refuse('high-s', 'payInvoiceHighS');
    let ok = false;
    try {
      ok = secp256k1.verify(compact, hash, nodeKey, { prehash: false, lowS: true, format: 'compact' });
    } catch {
      throw refuse('node-key', 'payInvoiceNodeKey');
    }
    if (!ok) throw refuse('signature-mismatch', 'payInvoiceSignatureMismatch');
    return { key: nodeKey, compact, recoveryId };
  }
  try {
    const key = parsed.addRecoveryBit(recoveryId).recoverPublicKey(hash).toBytes(true);
    return { key, compact, recoveryId };
  } catch {
    throw refuse('not-recoverable', 'payInvoiceNotRecoverable');
  }
}

/** The bytes the signature covers: the prefix as text, then the data before the signature, zero-padded. */
export function bolt11SignedData(input: string): Uint8Array {
  const { hrp, words } = bech32Words(input.trim().replace(/^lightning:/i, ''));
  return bolt11SigningBytes(hrp, words.slice(0, -SIGNATURE_WORDS));
}

/** The signed bytes for a prefix and the data words before the signature. */
export function bolt11SigningBytes(hrp: string, body: readonly number[]): Uint8Array {
  return new Uint8Array([...new TextEncoder().encode(hrp), ...wordsToPaddedBytes(body)]);
}

/**
 * Decodes and checks a BOLT 11 invoice (with or without `lightning:` in front). Throws
 * PaymentError('bad-invoice') for anything the spec says a reader must refuse; it never says
 * whether the invoice has expired (that depends on the clock: see `expiresAt`).
 */
export function decodeBolt11(input: string): Bolt11Invoice {
  const text = input.trim().replace(/^lightning:/i, '');
  const { hrp, words } = bech32Words(text);
  if (!hrp.startsWith('ln')) throw refuse('prefix', 'payInvoicePrefix', hrp.slice(0, 20));
  const { network, amountMsat } = readPrefix(hrp);
  if (words.length < TIMESTAMP_WORDS + SIGNATURE_WORDS) throw refuse('too-short', 'payInvoiceTooShort');
  const body = words.slice(0, -SIGNATURE_WORDS);
  const signatureWords = words.slice(-SIGNATURE_WORDS);
  const timestamp = wordsToBigint(body.slice(0, TIMESTAMP_WORDS));
  const raw = splitFields(body.slice(TIMESTAMP_WORDS));
  // The signature first: a changed invoice is refused as changed, whatever else is wrong in it.
  const nodeKey = namedNodeKey(raw);
  const signed = bolt11SigningBytes(hrp, body);
  const { key, compact, recoveryId } = payeeKey(signed, signatureWords, nodeKey);
  const fields = readFields(raw);

  const expirySeconds = fields.expiry ?? DEFAULT_EXPIRY;
  const invoice: Bolt11Invoice = {
    invoice: text.toLowerCase(),
    network,
    timestamp,
    expirySeconds,
    expiresAt: timestamp + expirySeconds,
    paymentHash: fields.paymentHash!,
    paymentSecret: fields.paymentSecret!,
    payeeNodeKey: hex.encode(key),
    nodeKeyGiven: nodeKey !== undefined,
    minFinalCltvExpiry: fields.minFinalCltv ?? DEFAULT_MIN_FINAL_CLTV,
    fallbacks: fields.fallbacks.map((f) => ({ ...f, address: fallbackAddress(f, network) })),
    routes: fields.routes,
    features: fields.features.set,
    unknownOptionalFeatures: fields.features.unknownOptional,
    unknownFields: fields.unknownFields,
    signature: hex.encode(compact),
    recoveryId,
  };
  if (amountMsat !== undefined) invoice.amountMsat = amountMsat;
  if (fields.description !== undefined) invoice.description = fields.description;
  if (fields.descriptionHash !== undefined) invoice.descriptionHash = fields.descriptionHash;
  if (fields.metadata !== undefined) invoice.metadata = fields.metadata;
  return invoice;
}
