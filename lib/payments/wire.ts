import { type MessageKey, t } from '../i18n';
import { PaymentError } from './errors';

/**
 * A minimal protobuf wire-format walker. The signature check must see the request exactly as it
 * was sent (field order, unknown fields, non-canonical encodings), so we never re-encode: we find
 * where each top-level field starts and ends and copy bytes around them.
 */

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_START_GROUP = 3;
export const WIRE_END_GROUP = 4;
export const WIRE_FIXED32 = 5;

export interface WireField {
  /** Field number. */
  number: number;
  wireType: number;
  /** Offset of the tag's first byte. */
  start: number;
  /** Offset of the value (after the tag and, for wire type 2, after the length). */
  valueStart: number;
  /** Offset just past the field. */
  end: number;
}

/** Groups are obsolete, but legal on the wire; bound their nesting so input can't recurse deep. */
const MAX_GROUP_DEPTH = 32;

/** `detail` names the message that says what is wrong ("a number runs past the end"). */
function garbled(detail: MessageKey, ...substitutions: (string | number)[]): PaymentError {
  return new PaymentError('malformed', t('payWireDamaged', t(detail, ...substitutions)));
}

/** Reads a varint at `pos`; returns its value (exact up to 2^53) and the next offset. */
function readVarint(bytes: Uint8Array, pos: number): [value: number, next: number] {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= bytes.length) throw garbled('payWireNumberEnd');
    const b = bytes[pos++]!;
    value += (b & 0x7f) * scale;
    if (b < 0x80) return [value, pos];
    scale *= 128;
  }
  throw garbled('payWireNumberLong');
}

function readTag(bytes: Uint8Array, pos: number): [fieldNumber: number, wireType: number, next: number] {
  const [tag, next] = readVarint(bytes, pos);
  const wireType = tag % 8;
  const fieldNumber = Math.floor(tag / 8);
  if (fieldNumber < 1 || fieldNumber > 0x1fffffff) throw garbled('payWireFieldNumber');
  return [fieldNumber, wireType, next];
}

/** Skips one value of `wireType` starting at `pos` (just past its tag); returns the end offset. */
function skipValue(
  bytes: Uint8Array,
  pos: number,
  wireType: number,
  fieldNumber: number,
  depth: number,
): number {
  switch (wireType) {
    case WIRE_VARINT:
      return readVarint(bytes, pos)[1];
    case WIRE_FIXED64:
      if (pos + 8 > bytes.length) throw garbled('payWireFieldEnd');
      return pos + 8;
    case WIRE_FIXED32:
      if (pos + 4 > bytes.length) throw garbled('payWireFieldEnd');
      return pos + 4;
    case WIRE_BYTES: {
      const [length, next] = readVarint(bytes, pos);
      if (length > bytes.length - next) throw garbled('payWireFieldEnd');
      return next + length;
    }
    case WIRE_START_GROUP: {
      if (depth >= MAX_GROUP_DEPTH) throw garbled('payWireGroupsDeep');
      let p = pos;
      for (;;) {
        const [n, wt, next] = readTag(bytes, p);
        if (wt === WIRE_END_GROUP) {
          if (n !== fieldNumber) throw garbled('payWireGroupEnd');
          return next;
        }
        p = skipValue(bytes, next, wt, n, depth + 1);
      }
    }
    default:
      throw garbled('payWireType', wireType);
  }
}

/** Lists the top-level fields of a message, in wire order. Throws PaymentError if malformed. */
export function walkFields(bytes: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const start = pos;
    const [number, wireType, afterTag] = readTag(bytes, pos);
    if (wireType === WIRE_END_GROUP) throw garbled('payWireGroupStray');
    let valueStart = afterTag;
    if (wireType === WIRE_BYTES) valueStart = readVarint(bytes, afterTag)[1];
    const end = skipValue(bytes, afterTag, wireType, number, 0);
    fields.push({ number, wireType, start, valueStart, end });
    pos = end;
  }
  return fields;
}
