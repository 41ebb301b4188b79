/**
 * DNS wire format, as far as checking a DNSSEC chain needs it: names (RFC 1035 §3.1, §4.1.4),
 * resource records (RFC 1035 §4.1.3), DNS messages for RFC 8484 (a query out, the answer in), and
 * the canonical forms signatures are made over (RFC 4034 §6).
 *
 * Names stay as their labels' bytes, never as dotted text: a label may hold a dot or any byte, and
 * a signature covers bytes, so text would let two different names look alike. Records keep their
 * RDATA's bytes as received (with compressed names written out), and are read field by field only
 * where a rule needs it (records.ts).
 *
 * Why not a DNS library: dns-packet needs Node's Buffer, and its Uint8Array fork
 * (@dnsquery/dns-packet) turns names into dotted UTF-8 text (a label "a.b" reads as two labels,
 * invalid UTF-8 as U+FFFD) and RDATA into objects to be encoded again before checking a
 * signature. A validator needs the exact bytes; these few readers keep them.
 */

/** A domain name: its labels, leftmost first, without the empty root label. */
export type Name = readonly Uint8Array[];

export const ROOT: Name = [];

/** RR types this code reads (RFC 1035, 4034, 5155, 6672). */
export const TYPE = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  DNAME: 39,
  OPT: 41,
  DS: 43,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
} as const;

export const CLASS_IN = 1;

export interface ResourceRecord {
  owner: Name;
  type: number;
  klass: number;
  ttl: number;
  /** As received, with any compressed name in it written out in full (case kept). */
  rdata: Uint8Array;
}

/** Why bytes do not read as DNS: `detail` names the rule, for programs and tests. */
export class DnsWireError extends Error {
  override readonly name = 'DnsWireError';
  constructor(readonly detail: string) {
    super(`DNS wire format: ${detail}`);
  }
}

const MAX_LABEL = 63;
/** RFC 1035 §3.1: a name is at most 255 octets on the wire, length bytes and root included. */
const MAX_NAME_WIRE = 255;
/** Compression pointers followed in one name; more is a loop or abuse. */
const MAX_POINTERS = 32;

/** Reads big-endian fields from `bytes`; `message` (when set) is what compression pointers point into. */
export class WireReader {
  offset: number;
  constructor(
    readonly bytes: Uint8Array,
    offset = 0,
    /** Set when reading a DNS message: names may then point back into it (RFC 1035 §4.1.4). */
    readonly compression = false,
  ) {
    this.offset = offset;
  }

  get done(): boolean {
    return this.offset >= this.bytes.length;
  }

  private need(n: number): void {
    if (this.offset + n > this.bytes.length) throw new DnsWireError('ends early');
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.offset++]!;
  }

  u16(): number {
    this.need(2);
    const value = (this.bytes[this.offset]! << 8) | this.bytes[this.offset + 1]!;
    this.offset += 2;
    return value;
  }

  u32(): number {
    this.need(4);
    const b = this.bytes;
    const o = this.offset;
    this.offset += 4;
    return ((b[o]! << 24) >>> 0) + (b[o + 1]! << 16) + (b[o + 2]! << 8) + b[o + 3]!;
  }

  take(n: number): Uint8Array {
    this.need(n);
    const out = this.bytes.slice(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  rest(): Uint8Array {
    return this.take(this.bytes.length - this.offset);
  }

  /**
   * A name. Pointers are taken only when reading a message, and only backwards (to an earlier
   * offset than the pointer itself), so no name can loop.
   */
  name(): Name {
    const labels: Uint8Array[] = [];
    let wire = 1;
    let at = this.offset;
    let resumeAt: number | undefined;
    let pointers = 0;
    for (;;) {
      if (at >= this.bytes.length) throw new DnsWireError('name ends early');
      const length = this.bytes[at]!;
      if (length === 0) {
        at += 1;
        break;
      }
      if ((length & 0xc0) === 0xc0) {
        if (!this.compression) throw new DnsWireError('compressed name where none may be');
        if (at + 1 >= this.bytes.length) throw new DnsWireError('name ends early');
        const target = ((length & 0x3f) << 8) | this.bytes[at + 1]!;
        if (target >= at || ++pointers > MAX_POINTERS) throw new DnsWireError('bad compression pointer');
        resumeAt ??= at + 2;
        at = target;
        continue;
      }
      if (length > MAX_LABEL) throw new DnsWireError('label longer than 63 bytes');
      if (at + 1 + length > this.bytes.length) throw new DnsWireError('name ends early');
      wire += length + 1;
      if (wire > MAX_NAME_WIRE) throw new DnsWireError('name longer than 255 bytes');
      labels.push(this.bytes.slice(at + 1, at + 1 + length));
      at += 1 + length;
    }
    this.offset = resumeAt ?? at;
    return labels;
  }
}

/** Types whose RDATA may carry compressed names (RFC 3597 §4: RFC 1035's own types only). */
function rdataWithNames(type: number, r: WireReader, end: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const name = () => parts.push(nameWire(r.name()));
  const fixed = (n: number) => parts.push(r.take(n));
  switch (type) {
    case TYPE.NS:
    case TYPE.CNAME:
    case TYPE.PTR:
      name();
      break;
    case TYPE.MX:
      fixed(2);
      name();
      break;
    case TYPE.SOA:
      name();
      name();
      fixed(20);
      break;
    default:
      return r.take(end - r.offset);
  }
  if (r.offset !== end) throw new DnsWireError('record data has the wrong length');
  return concat(parts);
}

/** One resource record at the reader's offset. */
export function readRecord(r: WireReader): ResourceRecord {
  const owner = r.name();
  const type = r.u16();
  const klass = r.u16();
  const ttl = r.u32();
  const length = r.u16();
  const end = r.offset + length;
  if (end > r.bytes.length) throw new DnsWireError('record data ends early');
  const rdata = r.compression ? rdataWithNames(type, r, end) : r.take(length);
  return { owner, type, klass, ttl, rdata };
}

/** A run of records with nothing between them, as in an RFC 9102 AuthenticationChain. */
export function readRecords(bytes: Uint8Array): ResourceRecord[] {
  const r = new WireReader(bytes);
  const out: ResourceRecord[] = [];
  while (!r.done) out.push(readRecord(r));
  return out;
}

// --- names -----------------------------------------------------------------------------------

const ASCII = new TextEncoder();

/** A name from dotted ASCII text (no escapes: the callers build names from checked labels). */
export function nameFromText(text: string): Name {
  const trimmed = text.endsWith('.') ? text.slice(0, -1) : text;
  if (trimmed === '') return ROOT;
  return trimmed.split('.').map((label) => ASCII.encode(label));
}

const lowerByte = (b: number) => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b);

/** RFC 4034 §6.2: US-ASCII capitals to small letters, every other byte as it is. */
export function lowerLabel(label: Uint8Array): Uint8Array {
  return label.map(lowerByte);
}

export function lowerName(name: Name): Name {
  return name.map(lowerLabel);
}

/** The name on the wire, uncompressed, ending with the root label. */
export function nameWire(name: Name): Uint8Array {
  const out = new Uint8Array(name.reduce((n, l) => n + l.length + 1, 1));
  let at = 0;
  for (const label of name) {
    out[at++] = label.length;
    out.set(label, at);
    at += label.length;
  }
  return out;
}

/** RFC 4034 §6.2: the canonical wire form of a name, lower case, uncompressed. */
export const canonicalNameWire = (name: Name) => nameWire(lowerName(name));

/**
 * The name as text people and logs read: labels joined by dots, with `\.`, `\\` and `\DDD`
 * (RFC 1035 §5.1) for what would be ambiguous or unprintable, and a final dot.
 */
export function nameText(name: Name): string {
  if (name.length === 0) return '.';
  return `${name
    .map((label) =>
      Array.from(label, (b) => {
        if (b === 0x2e || b === 0x5c) return `\\${String.fromCharCode(b)}`;
        if (b <= 0x20 || b >= 0x7f) return `\\${b.toString().padStart(3, '0')}`;
        return String.fromCharCode(b);
      }).join(''),
    )
    .join('.')}.`;
}

/** A key for maps: the canonical text (escaping makes it one-to-one). */
export const nameKey = (name: Name) => nameText(lowerName(name));

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * RFC 4034 §6.1 canonical order: compare from the rightmost label, each label as lower-case
 * bytes (a label that is a prefix of the other sorts first); fewer labels sort first.
 */
export function compareNames(a: Name, b: Name): number {
  const n = Math.min(a.length, b.length);
  for (let i = 1; i <= n; i++) {
    const diff = compareBytes(lowerLabel(a[a.length - i]!), lowerLabel(b[b.length - i]!));
    if (diff !== 0) return diff;
  }
  return a.length - b.length;
}

export const sameName = (a: Name, b: Name) => a.length === b.length && compareNames(a, b) === 0;

/** Whether `name` is `zone` or below it. */
export function isWithin(name: Name, zone: Name): boolean {
  return name.length >= zone.length && sameName(name.slice(name.length - zone.length), zone);
}

/** The rightmost `count` labels of `name`. */
export const suffixOf = (name: Name, count: number): Name => name.slice(name.length - count);

export const isWildcardLabel = (label: Uint8Array | undefined) =>
  label !== undefined && label.length === 1 && label[0] === 0x2a;

/** RFC 4034 §3.1.3: the labels an RRSIG counts: not the root, not a leading "*". */
export const signedLabelCount = (name: Name) => (isWildcardLabel(name[0]) ? name.length - 1 : name.length);

// --- bytes -----------------------------------------------------------------------------------

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export const u16 = (n: number) => Uint8Array.of(n >>> 8, n & 0xff);
export const u32 = (n: number) => Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);

export { compareBytes };

/** A record on the wire, uncompressed (what an RFC 9102 chain holds). */
export function recordWire(rr: ResourceRecord): Uint8Array {
  return concat([
    nameWire(rr.owner),
    u16(rr.type),
    u16(rr.klass),
    u32(rr.ttl),
    u16(rr.rdata.length),
    rr.rdata,
  ]);
}
