import { type MessageKey, t } from '../i18n';
import { PaymentError } from './errors';

/**
 * Just enough Bitcoin transaction parsing to check what a person pasted: that each hex blob is
 * one complete transaction (legacy or segwit), and which outputs it pays, so we can tell whether
 * it covers what the merchant asked for before sending it to them.
 */

export interface TransactionOutput {
  amount: bigint;
  script: Uint8Array;
}

export interface ParsedTransaction {
  bytes: Uint8Array;
  inputs: number;
  outputs: TransactionOutput[];
  segwit: boolean;
}

/** Bigger than any standard transaction (400,000 weight units ≈ 100 kB, hex doubles it). */
const MAX_TRANSACTION_BYTES = 100_000;

/** `why` names the message that ends the sentence ("it ends too early"). */
function bad(which: number, why: MessageKey): PaymentError {
  return new PaymentError('bad-transaction', t('payTransactionInvalid', which, t(why)));
}

export function parseTransaction(bytes: Uint8Array, which = 1): ParsedTransaction {
  let pos = 0;
  const need = (n: number) => {
    if (pos + n > bytes.length) throw bad(which, 'payTransactionEndsEarly');
  };
  const take = (n: number) => {
    need(n);
    const out = bytes.subarray(pos, pos + n);
    pos += n;
    return out;
  };
  const compactSize = (): number => {
    need(1);
    const first = bytes[pos++]!;
    let value: number;
    if (first < 0xfd) value = first;
    else {
      const width = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
      const raw = take(width);
      value = 0;
      for (let i = width - 1; i >= 0; i--) value = value * 256 + raw[i]!;
    }
    // Every counted element takes at least one byte, so larger counts are lies.
    if (value > bytes.length - pos) throw bad(which, 'payTransactionCount');
    return value;
  };

  take(4); // version
  let segwit = false;
  if (bytes[pos] === 0x00 && bytes[pos + 1] === 0x01) {
    segwit = true;
    pos += 2;
  }
  const inputs = compactSize();
  if (inputs === 0) throw bad(which, 'payTransactionNoInputs');
  for (let i = 0; i < inputs; i++) {
    take(36); // previous output
    take(compactSize()); // scriptSig
    take(4); // sequence
  }
  const outputCount = compactSize();
  if (outputCount === 0) throw bad(which, 'payTransactionNoOutputs');
  const outputs: TransactionOutput[] = [];
  for (let i = 0; i < outputCount; i++) {
    const value = take(8);
    let amount = 0n;
    for (let b = 7; b >= 0; b--) amount = (amount << 8n) | BigInt(value[b]!);
    outputs.push({ amount, script: new Uint8Array(take(compactSize())) });
  }
  if (segwit) {
    for (let i = 0; i < inputs; i++) {
      const items = compactSize();
      for (let j = 0; j < items; j++) take(compactSize());
    }
  }
  take(4); // lock time
  if (pos !== bytes.length) throw bad(which, 'payTransactionExtraBytes');
  return { bytes, inputs, outputs, segwit };
}

/** Reads one or more transactions pasted as hex (separated by spaces, commas or new lines). */
export function parseTransactionsHex(text: string | string[]): ParsedTransaction[] {
  const pieces = (Array.isArray(text) ? text : [text])
    .flatMap((piece) => piece.split(/[\s,;]+/))
    .filter((piece) => piece !== '');
  if (pieces.length === 0) {
    throw new PaymentError('bad-transaction', t('payTransactionNone'));
  }
  return pieces.map((piece, i) => {
    const hex = piece.replace(/^0x/i, '');
    if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2 !== 0) {
      throw new PaymentError('bad-transaction', t('payTransactionNotHex', i + 1));
    }
    if (hex.length / 2 > MAX_TRANSACTION_BYTES) throw bad(i + 1, 'payTransactionTooLarge');
    const bytes = new Uint8Array(hex.length / 2);
    for (let b = 0; b < bytes.length; b++) bytes[b] = Number.parseInt(hex.slice(b * 2, b * 2 + 2), 16);
    return parseTransaction(bytes, i + 1);
  });
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The requested outputs the transactions do not pay in full (script match, amount at least the
 * requested one; outputs of amount 0 only need the script). Empty means everything is covered.
 */
export function uncoveredOutputs<T extends { amount: bigint; script: Uint8Array }>(
  transactions: ParsedTransaction[],
  requested: T[],
): T[] {
  const paid = transactions.flatMap((tx) => tx.outputs);
  const used = new Set<number>();
  return requested.filter((want) => {
    const index = paid.findIndex(
      (have, i) => !used.has(i) && sameBytes(have.script, want.script) && have.amount >= want.amount,
    );
    if (index < 0) return true;
    used.add(index);
    return false;
  });
}
