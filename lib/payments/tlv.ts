/**
 * Lightning's TLV streams (BOLT 1, "Type-Length-Value Format"): BigSize types and lengths, records
 * in strictly increasing type order, and the truncated integers (`tu64`) their values hold. The
 * reader's rules are BOLT 1's: a type or length not in its shortest form, types out of order or
 * repeated, and a length past the end each make the whole stream unreadable. What a record means
 * is for its message to say (bolt12.ts for offers).
 */

export interface TlvRecord {
  type: bigint;
  value: Uint8Array;
}

/** Why a stream cannot be read: the rule broken, and the type it was found at when known. */
export type TlvProblem =
  | { rule: 'truncated' }
  | { rule: 'not-minimal' }
  | { rule: 'order'; type: bigint; after: bigint };

export class TlvError extends Error {
  constructor(readonly problem: TlvProblem) {
    super(problem.rule);
  }
}

/** One BigSize at `at`: its value and where the next thing starts. */
function bigSize(bytes: Uint8Array, at: number): { value: bigint; next: number } {
  const first = bytes[at];
  if (first === undefined) throw new TlvError({ rule: 'truncated' });
  if (first < 0xfd) return { value: BigInt(first), next: at + 1 };
  const width = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
  if (at + 1 + width > bytes.length) throw new TlvError({ rule: 'truncated' });
  let value = 0n;
  for (let i = 1; i <= width; i++) value = (value << 8n) | BigInt(bytes[at + i]!);
  // Each width must be needed: 0xfd for 0xfd and up, 0xfe above 0xffff, 0xff above 0xffffffff.
  const least = width === 2 ? 0xfdn : width === 4 ? 0x1_0000n : 0x1_0000_0000n;
  if (value < least) throw new TlvError({ rule: 'not-minimal' });
  return { value, next: at + 1 + width };
}

/** Every record of a stream, in order; throws TlvError when the stream breaks a BOLT 1 rule. */
export function readTlvStream(bytes: Uint8Array): TlvRecord[] {
  const records: TlvRecord[] = [];
  let at = 0;
  while (at < bytes.length) {
    const type = bigSize(bytes, at);
    const length = bigSize(bytes, type.next);
    const last = records.at(-1)?.type;
    if (last !== undefined && type.value <= last)
      throw new TlvError({ rule: 'order', type: type.value, after: last });
    const end = BigInt(length.next) + length.value;
    if (end > BigInt(bytes.length)) throw new TlvError({ rule: 'truncated' });
    records.push({ type: type.value, value: bytes.subarray(length.next, Number(end)) });
    at = Number(end);
  }
  return records;
}

/** A `tu64`: at most 8 bytes, big-endian, without leading zero bytes; undefined otherwise. */
export function readTu64(value: Uint8Array): bigint | undefined {
  if (value.length > 8 || value[0] === 0) return undefined;
  let n = 0n;
  for (const byte of value) n = (n << 8n) | BigInt(byte);
  return n;
}
