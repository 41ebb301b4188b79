import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bech32, hex } from '@scure/base';
import { type MessageKey, t } from '../i18n';
import type { Chain } from './addresses';
import { BECH32_CHARSET } from './bolt11';
import { type CurrencyCode, isCurrencyCode } from './currency';
import { PaymentError } from './errors';
import { MAX_MONEY } from './limits';
import { readTlvStream, readTu64, TlvError, type TlvRecord } from './tlv';

/**
 * BOLT 12 offers (`lno1…`), read as the spec's "Encoding" and "Requirements For Offers" say: the
 * human-readable string (bech32 characters without a checksum, all lower or all upper case, `+`
 * and any whitespace after it joining parts), every TLV field, and each case where a reader
 * "MUST NOT respond to the offer" refused with a sentence. Keys are checked to be points on the
 * curve by @noble/curves; the 5-bit words become bytes through @scure/base.
 *
 * An offer carries no signature: it names the issuer's key (or blinded paths to it), and the
 * invoice a wallet asks for is signed by that key. So reading an offer proves nothing about who
 * runs the shop. Hushdrop makes no invoice request (it is not a node): it hands the offer to a
 * wallet. A refusal is a PaymentError('bad-offer') whose `detail` names the rule.
 */

/** The introduction point of a blinded path: a node's key, or one end of a channel. */
export type IntroductionNode = { nodeId: string } | { shortChannelId: string; direction: 0 | 1 };

export interface BlindedPath {
  firstNode: IntroductionNode;
  /** `first_path_key`, hex. */
  firstPathKey: string;
  /** Each hop's blinded key (hex) and the size of the data only that hop can read. */
  hops: { blindedNodeId: string; encryptedDataBytes: number }[];
}

export interface OfferChain {
  /** The chain hash as the offer writes it (the genesis block hash, in its byte order), hex. */
  hash: string;
  /** The Bitcoin network, when Hushdrop knows the chain. */
  network?: Chain;
  name?: string;
}

export interface Bolt12Offer {
  /** The offer as read: lower case, joins removed (how it is handed on). */
  offer: string;
  /** `offer_chains` as listed; empty when absent (bitcoin is implied). */
  chains: OfferChain[];
  /** The first chain Hushdrop knows: what the offer asks to be paid on. */
  network: Chain;
  metadata?: string;
  /** ISO 4217 code: the amount is in this currency's smallest unit, not in millisatoshis. */
  currency?: CurrencyCode;
  /** Per item: in millisatoshis, or in `currency`. */
  amount?: bigint;
  /** Untrusted text from the issuer. */
  description?: string;
  /** Feature bits set (all odd: an even one is refused, as no offer feature is defined yet). */
  features: number[];
  /** Seconds since the epoch after which no invoice may be asked for. */
  absoluteExpiry?: bigint;
  paths: BlindedPath[];
  /** Untrusted text naming the issuer (the spec suggests a domain or user@domain first). */
  issuer?: string;
  /** 0: any quantity; n: up to n items per invoice; absent: one item. */
  quantityMax?: bigint;
  /** The key that signs the invoices, hex. */
  issuerId?: string;
  /** Odd fields Hushdrop does not know (ignored, as the spec says), by type. */
  unknownFields: string[];
}

/** An offer is longer than an invoice at most by its paths; QR codes end at 7,089 characters. */
export const MAX_OFFER_LENGTH = 7_089;

const FIELDS: Record<number, string> = {
  2: 'offer_chains',
  4: 'offer_metadata',
  6: 'offer_currency',
  8: 'offer_amount',
  10: 'offer_description',
  12: 'offer_features',
  14: 'offer_absolute_expiry',
  16: 'offer_paths',
  18: 'offer_issuer',
  20: 'offer_quantity_max',
  22: 'offer_issuer_id',
};

/** Chain hashes: each chain's genesis block hash in the byte order the BOLTs write it. */
const CHAINS: Record<string, { network: Chain; name: string }> = {
  '6fe28c0ab6f1b372c1a6a246ae63f74f931e8365e15a089c68d6190000000000': { network: 'main', name: 'bitcoin' },
  '43497fd7f826957108f4a30fd9cec3aeba79972084e90ead01ea330900000000': { network: 'test', name: 'testnet3' },
  '43f08bdab050e35b567c864b91f47f50ae725ae2de53bcfbbaf284da00000000': { network: 'test', name: 'testnet4' },
  f61eee3b63a380a477a063af32b2bbc97c9ff9f01f2c4225e973988108000000: { network: 'signet', name: 'signet' },
  '06226e46111a0b59caaf126043eb5bbf28c34f3a5e332a1fc7b2b73cf188910f': { network: 'regtest', name: 'regtest' },
};

function refuse(detail: string, why: MessageKey, ...args: (string | number)[]): PaymentError {
  return new PaymentError('bad-offer', t('payOfferRefused', t(why, ...args)), { detail });
}

/** The offer's bytes from its text: `+` joins removed, one case, `lno1`, bech32 words to bytes. */
function offerBytes(input: string): { offer: string; bytes: Uint8Array } {
  const text = input.trim().replace(/^lightning:/i, '');
  if (text.length > MAX_OFFER_LENGTH) throw refuse('too-long', 'payOfferTooLong', MAX_OFFER_LENGTH);
  // A `+` and any whitespace after it, between two bech32 characters, are removed; nothing else is.
  const joined = text.replace(/(?<=[0-9a-z])\+\s*(?=[0-9a-z])/gi, '');
  if (/[+\s]/.test(joined)) throw refuse('join', 'payOfferJoin');
  if (joined !== joined.toLowerCase() && joined !== joined.toUpperCase())
    throw refuse('mixed-case', 'payOfferMixedCase');
  const offer = joined.toLowerCase();
  const separator = offer.lastIndexOf('1');
  if (offer.slice(0, separator) !== 'lno') throw refuse('prefix', 'payOfferPrefix');
  const words = [...offer.slice(separator + 1)].map((c) => BECH32_CHARSET.indexOf(c));
  if (words.includes(-1)) throw refuse('characters', 'payOfferCharacters');
  try {
    // Strict: more than 4 bits of padding, or padding bits that are not zero, are refused.
    return { offer, bytes: bech32.fromWords(words) };
  } catch {
    throw refuse('padding', 'payOfferPadding');
  }
}

function records(bytes: Uint8Array): TlvRecord[] {
  try {
    return readTlvStream(bytes);
  } catch (error) {
    if (!(error instanceof TlvError)) throw error;
    const { problem } = error;
    if (problem.rule === 'order')
      throw refuse('order', 'payOfferOrder', problem.type.toString(), problem.after.toString());
    throw refuse(problem.rule, problem.rule === 'truncated' ? 'payOfferTruncated' : 'payOfferNotMinimal');
  }
}

/** Offers use types 1–79 and the experimental 1,000,000,000–1,999,999,999 (inclusive). */
const inRange = (type: bigint) =>
  (type >= 1n && type <= 79n) || (type >= 1_000_000_000n && type <= 1_999_999_999n);

function utf8(value: Uint8Array, field: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(value);
  } catch {
    throw refuse('utf8', 'payOfferUtf8', field);
  }
}

function number(value: Uint8Array, field: string): bigint {
  const n = readTu64(value);
  if (n === undefined) throw refuse('tu64', 'payOfferNumber', field);
  return n;
}

/** A 33-byte compressed key that is a point on secp256k1, as hex. */
function point(value: Uint8Array, field: string): string {
  try {
    if (value.length !== 33) throw new Error('length');
    secp256k1.Point.fromBytes(value);
  } catch {
    throw refuse('point', 'payOfferKey', field);
  }
  return hex.encode(value);
}

/** `offer_paths`: one or more `blinded_path`s back to back (BOLT 4, "Route Blinding"). */
function readPaths(value: Uint8Array): BlindedPath[] {
  const paths: BlindedPath[] = [];
  let at = 0;
  const take = (n: number) => {
    if (at + n > value.length) throw refuse('path-cut', 'payOfferPathCut');
    at += n;
    return value.subarray(at - n, at);
  };
  while (at < value.length) {
    let firstNode: IntroductionNode;
    const kind = value[at]!;
    if (kind === 0 || kind === 1) {
      // sciddir_or_pubkey: a direction byte and a short channel id (block x transaction x output).
      const b = take(9);
      const block = (b[1]! << 16) | (b[2]! << 8) | b[3]!;
      const tx = (b[4]! << 16) | (b[5]! << 8) | b[6]!;
      firstNode = { shortChannelId: `${block}x${tx}x${(b[7]! << 8) | b[8]!}`, direction: kind };
    } else firstNode = { nodeId: point(take(33), 'first_node_id') };
    const firstPathKey = point(take(33), 'first_path_key');
    const count = take(1)[0]!;
    if (count === 0) throw refuse('no-hops', 'payOfferPathNoHops');
    const hops: BlindedPath['hops'] = [];
    for (let i = 0; i < count; i++) {
      const blindedNodeId = point(take(33), 'blinded_node_id');
      const length = take(2);
      const encryptedDataBytes = (length[0]! << 8) | length[1]!;
      take(encryptedDataBytes);
      hops.push({ blindedNodeId, encryptedDataBytes });
    }
    paths.push({ firstNode, firstPathKey, hops });
  }
  return paths;
}

/** Feature bits set, lowest first (bit 0 is the last byte's lowest bit). */
function featureBits(value: Uint8Array): number[] {
  const bits: number[] = [];
  for (let bit = 0; bit < value.length * 8; bit++)
    if (value[value.length - 1 - (bit >> 3)]! & (1 << (bit & 7))) bits.push(bit);
  return bits;
}

function readChains(value: Uint8Array): OfferChain[] {
  if (value.length === 0) throw refuse('no-chains', 'payOfferNoChains');
  if (value.length % 32 !== 0) throw refuse('length', 'payOfferLength', FIELDS[2]!);
  const chains: OfferChain[] = [];
  for (let at = 0; at < value.length; at += 32) {
    const hash = hex.encode(value.subarray(at, at + 32));
    chains.push({ hash, ...CHAINS[hash] });
  }
  return chains;
}

/** One known field's value into the offer. */
function readField(offer: Bolt12Offer, type: number, value: Uint8Array): void {
  const field = FIELDS[type]!;
  switch (type) {
    case 2:
      offer.chains = readChains(value);
      break;
    case 4:
      offer.metadata = hex.encode(value);
      break;
    case 6: {
      const code = utf8(value, field);
      if (!isCurrencyCode(code)) throw refuse('currency', 'payOfferCurrencyCode', code.slice(0, 20));
      offer.currency = code;
      break;
    }
    case 8:
      offer.amount = number(value, field);
      break;
    case 10:
      offer.description = utf8(value, field);
      break;
    case 12:
      offer.features = featureBits(value);
      break;
    case 14:
      offer.absoluteExpiry = number(value, field);
      break;
    case 16:
      offer.paths = readPaths(value);
      break;
    case 18:
      offer.issuer = utf8(value, field);
      break;
    case 20:
      offer.quantityMax = number(value, field);
      break;
    case 22:
      offer.issuerId = point(value, field);
      break;
  }
}

/** The reader's requirements that concern the fields together. */
function checkRules(offer: Bolt12Offer): void {
  const even = offer.features.find((bit) => bit % 2 === 0);
  if (even !== undefined) throw refuse('feature', 'payOfferFeature', even);
  if (offer.chains.length > 0 && !offer.chains.some((c) => c.network)) throw refuse('chain', 'payOfferChain');
  if (offer.amount !== undefined) {
    if (offer.description === undefined) throw refuse('no-description', 'payOfferAmountNoDescription');
    if (offer.amount === 0n) throw refuse('amount-zero', 'payOfferAmountZero');
    if (offer.currency === undefined && offer.amount > MAX_MONEY * 1000n)
      throw refuse('too-much', 'payOfferTooMuch');
  } else if (offer.currency !== undefined) throw refuse('currency-no-amount', 'payOfferCurrencyNoAmount');
  if (offer.issuerId === undefined && offer.paths.length === 0) throw refuse('no-issuer', 'payOfferNoIssuer');
}

/** Every field of an offer's text, as records (for those who want to see them, and the tests). */
export function offerRecords(text: string): TlvRecord[] {
  return records(offerBytes(text).bytes);
}

/**
 * Reads an offer (`lno1…`, with or without `lightning:`) and applies the reader's requirements;
 * throws PaymentError('bad-offer') saying which one it breaks. Expiry is the caller's to judge,
 * against its clock.
 */
export function decodeBolt12(text: string): Bolt12Offer {
  const { offer: string, bytes } = offerBytes(text);
  const offer: Bolt12Offer = {
    offer: string,
    chains: [],
    network: 'main',
    features: [],
    paths: [],
    unknownFields: [],
  };
  for (const { type, value } of records(bytes)) {
    if (!inRange(type)) throw refuse('range', 'payOfferOutOfRange', type.toString());
    const known = type < 80n ? FIELDS[Number(type)] : undefined;
    if (known) readField(offer, Number(type), value);
    else if (type % 2n === 0n) throw refuse('unknown-even', 'payOfferUnknownField', type.toString());
    else offer.unknownFields.push(type.toString());
  }
  checkRules(offer);
  const known = offer.chains.find((c) => c.network);
  if (known) offer.network = known.network!;
  return offer;
}
