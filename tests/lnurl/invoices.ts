// Makes signed BOLT 11 invoices for tests: the LNURL test server's answers, and invoices with
// chosen fields for the decoder's tests. Signing is @noble/curves' (RFC 6979, low-S).
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, hex } from '@scure/base';
import { bolt11SigningBytes } from '../../lib/payments/bolt11';

export interface InvoiceFields {
  network?: 'main' | 'test' | 'signet' | 'regtest';
  amountMsat?: bigint;
  timestamp?: number;
  paymentHash?: string;
  paymentSecret?: string;
  description?: string;
  descriptionHash?: string;
  expiry?: number;
  /** Name the signing node in an `n` field. */
  nameNode?: boolean;
  /** Feature bits to set; default 8 and 14. */
  features?: number[];
  /** Extra raw fields: [type, words]. */
  extra?: [number, number[]][];
}

/** A fixed test node key (never a real one). */
export const TEST_NODE_SECRET = hex.decode('11'.repeat(32));
export const TEST_NODE_KEY = hex.encode(secp256k1.getPublicKey(TEST_NODE_SECRET, true));

const PREFIX = { main: 'lnbc', test: 'lntb', signet: 'lntbs', regtest: 'lnbcrt' } as const;

/** The shortest amount text: whole bitcoin, or m, u, n, p. */
function amountText(msat: bigint): string {
  for (const [unit, per] of [
    ['', 100_000_000_000n],
    ['m', 100_000_000n],
    ['u', 100_000n],
    ['n', 100n],
  ] as const) {
    if (msat % per === 0n) return `${msat / per}${unit}`;
  }
  return `${msat * 10n}p`;
}

function numberWords(n: bigint): number[] {
  const words: number[] = [];
  for (let v = n; v > 0n; v >>= 5n) words.unshift(Number(v & 31n));
  return words;
}

function field(type: number, words: number[]): number[] {
  return [type, words.length >> 5, words.length & 31, ...words];
}

function featureWords(bits: number[]): number[] {
  const top = Math.max(...bits);
  const words = new Array(Math.floor(top / 5) + 1).fill(0);
  for (const bit of bits) words[words.length - 1 - Math.floor(bit / 5)] |= 1 << (bit % 5);
  return words;
}

export function makeInvoice(fields: InvoiceFields, secret: Uint8Array = TEST_NODE_SECRET): string {
  const hrp = `${PREFIX[fields.network ?? 'main']}${fields.amountMsat === undefined ? '' : amountText(fields.amountMsat)}`;
  const words: number[] = [];
  let t = BigInt(fields.timestamp ?? Math.floor(Date.now() / 1000));
  const time: number[] = [];
  for (let i = 0; i < 7; i++, t >>= 5n) time.unshift(Number(t & 31n));
  words.push(...time);
  words.push(...field(1, bech32.toWords(hex.decode(fields.paymentHash ?? 'ab'.repeat(32)))));
  words.push(...field(16, bech32.toWords(hex.decode(fields.paymentSecret ?? 'cd'.repeat(32)))));
  if (fields.description !== undefined)
    words.push(...field(13, bech32.toWords(new TextEncoder().encode(fields.description))));
  if (fields.descriptionHash !== undefined)
    words.push(...field(23, bech32.toWords(hex.decode(fields.descriptionHash))));
  if (fields.expiry !== undefined) words.push(...field(6, numberWords(BigInt(fields.expiry))));
  if (fields.nameNode) words.push(...field(19, bech32.toWords(secp256k1.getPublicKey(secret, true))));
  words.push(...field(5, featureWords(fields.features ?? [8, 14])));
  for (const [type, data] of fields.extra ?? []) words.push(...field(type, data));
  const hash = sha256(bolt11SigningBytes(hrp, words));
  const recovered = secp256k1.sign(hash, secret, { prehash: false, format: 'recovered' });
  const signature = new Uint8Array([...recovered.subarray(1), recovered[0]!]);
  return bech32.encode(hrp, [...words, ...bech32.toWords(signature)], false);
}

/** SHA-256 of text as hex (a description hash, LUD-06's metadata hash). */
export const sha256Hex = (text: string) => hex.encode(sha256(new TextEncoder().encode(text)));
