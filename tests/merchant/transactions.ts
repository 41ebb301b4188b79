/**
 * Structurally valid Bitcoin transactions for tests (the signatures are dummies: lib/payments
 * only checks structure and outputs, and never broadcasts).
 */

function compactSize(n: number): number[] {
  if (n < 0xfd) return [n];
  return [0xfd, n & 0xff, n >> 8];
}

function le(value: bigint, width: number): number[] {
  return Array.from({ length: width }, (_, i) => Number((value >> BigInt(8 * i)) & 0xffn));
}

export function fakeTransaction(
  outputs: { amount: bigint; script: Uint8Array }[],
  options: { segwit?: boolean; inputs?: number } = {},
): Uint8Array {
  const inputs = options.inputs ?? 1;
  const bytes: number[] = [...le(2n, 4)];
  if (options.segwit) bytes.push(0x00, 0x01);
  bytes.push(...compactSize(inputs));
  for (let i = 0; i < inputs; i++) {
    bytes.push(...new Array(32).fill(0xab), ...le(BigInt(i), 4));
    const scriptSig = options.segwit ? [] : [0x47, ...new Array(0x47).fill(0x30)];
    bytes.push(...compactSize(scriptSig.length), ...scriptSig, 0xff, 0xff, 0xff, 0xfd);
  }
  bytes.push(...compactSize(outputs.length));
  for (const output of outputs) {
    bytes.push(...le(output.amount, 8), ...compactSize(output.script.length), ...output.script);
  }
  if (options.segwit) {
    for (let i = 0; i < inputs; i++)
      bytes.push(2, 0x47, ...new Array(0x47).fill(0x30), 0x21, ...new Array(0x21).fill(0x02));
  }
  bytes.push(...le(0n, 4));
  return Uint8Array.from(bytes);
}

export const fakeTransactionHex = (...args: Parameters<typeof fakeTransaction>) =>
  Buffer.from(fakeTransaction(...args)).toString('hex');
