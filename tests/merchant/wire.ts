/** A tiny protobuf wire writer for tests and the test merchant: fields in any order, duplicated, or unknown. */

export function varint(value: bigint | number): Uint8Array {
  let v = BigInt(value);
  const out: number[] = [];
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? byte | 0x80 : byte);
  } while (v > 0n);
  return Uint8Array.from(out);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export const tag = (field: number, wireType: number) => varint((BigInt(field) << 3n) | BigInt(wireType));

export const varintField = (field: number, value: bigint | number) => concat(tag(field, 0), varint(value));

export const bytesField = (field: number, value: Uint8Array | string) => {
  const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
  return concat(tag(field, 2), varint(bytes.length), bytes);
};

export const fixed32Field = (field: number, value: Uint8Array) => concat(tag(field, 5), value);

export const fromHex = (hex: string) => new Uint8Array(Buffer.from(hex, 'hex'));
export const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
