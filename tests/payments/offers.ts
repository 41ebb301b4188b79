// Makes BOLT 12 offer strings for tests: TLV records (BigSize types and lengths) in bech32
// characters with no checksum, as the spec's "Encoding" writes them. Keys are the test node's.
import { bech32, hex } from '@scure/base';
import { TEST_NODE_KEY } from '../lnurl/invoices';

/** A BigSize (BOLT 1): one byte below 0xfd, else a marker and 2, 4 or 8 bytes big-endian. */
function bigSize(n: bigint): number[] {
  if (n < 0xfdn) return [Number(n)];
  const [marker, width] = n <= 0xffffn ? [0xfd, 2] : n <= 0xffff_ffffn ? [0xfe, 4] : [0xff, 8];
  const out = [marker];
  for (let i = width - 1; i >= 0; i--) out.push(Number((n >> BigInt(8 * i)) & 0xffn));
  return out;
}

/** A truncated integer: big-endian, no leading zero bytes. */
export function tu64(n: bigint): Uint8Array {
  const out: number[] = [];
  for (let v = n; v > 0n; v >>= 8n) out.unshift(Number(v & 0xffn));
  return new Uint8Array(out);
}

const text = (s: string) => new TextEncoder().encode(s);

export interface OfferFields {
  chains?: string[];
  currency?: string;
  amount?: bigint;
  description?: string;
  absoluteExpiry?: bigint;
  issuer?: string;
  quantityMax?: bigint;
  /** Hex; default the test node's key. `null` leaves it out. */
  issuerId?: string | null;
  /** Extra records: [type, value]. */
  extra?: [bigint, Uint8Array][];
}

/** The records of an offer, in type order. */
export function offerRecords(fields: OfferFields): [bigint, Uint8Array][] {
  const records: [bigint, Uint8Array][] = [];
  if (fields.chains) records.push([2n, hex.decode(fields.chains.join(''))]);
  if (fields.currency !== undefined) records.push([6n, text(fields.currency)]);
  if (fields.amount !== undefined) records.push([8n, tu64(fields.amount)]);
  if (fields.description !== undefined) records.push([10n, text(fields.description)]);
  if (fields.absoluteExpiry !== undefined) records.push([14n, tu64(fields.absoluteExpiry)]);
  if (fields.issuer !== undefined) records.push([18n, text(fields.issuer)]);
  if (fields.quantityMax !== undefined) records.push([20n, tu64(fields.quantityMax)]);
  if (fields.issuerId !== null) records.push([22n, hex.decode(fields.issuerId ?? TEST_NODE_KEY)]);
  records.push(...(fields.extra ?? []));
  return records.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Records as an offer string: `lno1` and the bytes' bech32 characters, without a checksum. */
export function offerString(records: [bigint, Uint8Array][]): string {
  const bytes = records.flatMap(([type, value]) => [
    ...bigSize(type),
    ...bigSize(BigInt(value.length)),
    ...value,
  ]);
  // bech32.encode adds a checksum: the offer is the same string without its last six characters.
  return bech32.encode('lno', bech32.toWords(new Uint8Array(bytes)), false).slice(0, -6);
}

export const makeOffer = (fields: OfferFields) => offerString(offerRecords(fields));
