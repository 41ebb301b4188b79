/**
 * The RDATA fields DNSSEC checking reads, each from the RFC that defines it. Every reader takes
 * the record's RDATA bytes and throws DnsWireError when they do not have the record's form.
 */
import {
  concat,
  DnsWireError,
  lowerName,
  type Name,
  nameWire,
  type ResourceRecord,
  TYPE,
  WireReader,
} from './wire';

function whole<T>(rdata: Uint8Array, read: (r: WireReader) => T): T {
  const r = new WireReader(rdata);
  const out = read(r);
  if (!r.done) throw new DnsWireError('record data longer than its fields');
  return out;
}

/** RFC 4034 §3.1. */
export interface Rrsig {
  typeCovered: number;
  algorithm: number;
  labels: number;
  originalTtl: number;
  /** Seconds since 1970, modulo 2^32 (RFC 4034 §3.1.5). */
  expiration: number;
  inception: number;
  keyTag: number;
  signer: Name;
  signature: Uint8Array;
}

export function readRrsig(rdata: Uint8Array): Rrsig {
  const r = new WireReader(rdata);
  const out: Rrsig = {
    typeCovered: r.u16(),
    algorithm: r.u8(),
    labels: r.u8(),
    originalTtl: r.u32(),
    expiration: r.u32(),
    inception: r.u32(),
    keyTag: r.u16(),
    signer: r.name(),
    signature: new Uint8Array(),
  };
  out.signature = r.rest();
  if (out.signature.length === 0) throw new DnsWireError('signature missing');
  return out;
}

/** RFC 4034 §3.1.8.1: the RRSIG's RDATA without its signature, the signer's name in lower case. */
export function rrsigSignedPart(rdata: Uint8Array): Uint8Array {
  const sig = readRrsig(rdata);
  return concat([rdata.subarray(0, 18), nameWire(lowerName(sig.signer))]);
}

/** RFC 4034 §2.1. */
export interface Dnskey {
  flags: number;
  protocol: number;
  algorithm: number;
  publicKey: Uint8Array;
}

/** Flag bit 7: a zone key, the only kind that may sign a zone's data (RFC 4034 §2.1.1). */
export const ZONE_KEY = 0x0100;
/** Flag bit 8: revoked (RFC 5011 §2.1); such a key signs nothing any more. */
export const REVOKED_KEY = 0x0080;

export const readDnskey = (rdata: Uint8Array): Dnskey =>
  whole(rdata, (r) => ({ flags: r.u16(), protocol: r.u8(), algorithm: r.u8(), publicKey: r.rest() }));

/** RFC 4034 Appendix B: the key tag, a checksum of the DNSKEY's RDATA (algorithm 1 aside, unused). */
export function keyTag(rdata: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < rdata.length; i++) sum += i & 1 ? rdata[i]! : rdata[i]! << 8;
  sum += (sum >>> 16) & 0xffff;
  return sum & 0xffff;
}

/** RFC 4034 §5.1. */
export interface Ds {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: Uint8Array;
}

export const readDs = (rdata: Uint8Array): Ds =>
  whole(rdata, (r) => ({ keyTag: r.u16(), algorithm: r.u8(), digestType: r.u8(), digest: r.rest() }));

/** RFC 4034 §4.1: the next owner name in the zone (the type bitmap is not needed here). */
export const readNsecNext = (rdata: Uint8Array): Name => new WireReader(rdata).name();

/** RFC 5155 §3.2. */
export interface Nsec3 {
  hashAlgorithm: number;
  flags: number;
  iterations: number;
  salt: Uint8Array;
  nextHashed: Uint8Array;
}

export function readNsec3(rdata: Uint8Array): Nsec3 {
  const r = new WireReader(rdata);
  const hashAlgorithm = r.u8();
  const flags = r.u8();
  const iterations = r.u16();
  const salt = r.take(r.u8());
  const nextHashed = r.take(r.u8());
  if (nextHashed.length === 0) throw new DnsWireError('NSEC3 without a next hashed owner');
  return { hashAlgorithm, flags, iterations, salt, nextHashed };
}

/** RFC 1035 §3.3.14: TXT RDATA, one or more <character-string>s. */
export function readTxt(rdata: Uint8Array): Uint8Array[] {
  if (rdata.length === 0) throw new DnsWireError('TXT record without a string');
  const r = new WireReader(rdata);
  const out: Uint8Array[] = [];
  while (!r.done) out.push(r.take(r.u8()));
  return out;
}

/** CNAME (RFC 1035 §3.3.1) and DNAME (RFC 6672 §2.1): one name. */
export const readTarget = (rdata: Uint8Array): Name => whole(rdata, (r) => r.name());

/**
 * RFC 4034 §6.2 item 3, as corrected by RFC 6840 §5.1: the RDATA of these types has its names in
 * lower case in the canonical form. Of the types a BIP 353 chain holds, CNAME and DNAME (RRSIG's
 * signer is handled by rrsigSignedPart; NSEC's next name keeps its case, RFC 6840).
 */
export function canonicalRdata(rr: ResourceRecord): Uint8Array {
  switch (rr.type) {
    case TYPE.NS:
    case TYPE.CNAME:
    case TYPE.PTR:
    case TYPE.DNAME:
      return nameWire(lowerName(readTarget(rr.rdata)));
    case TYPE.MX: {
      const r = new WireReader(rr.rdata);
      const preference = r.take(2);
      const exchange = r.name();
      if (!r.done) throw new DnsWireError('record data longer than its fields');
      return concat([preference, nameWire(lowerName(exchange))]);
    }
    case TYPE.SOA: {
      const r = new WireReader(rr.rdata);
      const mname = r.name();
      const rname = r.name();
      const rest = r.take(20);
      if (!r.done) throw new DnsWireError('record data longer than its fields');
      return concat([nameWire(lowerName(mname)), nameWire(lowerName(rname)), rest]);
    }
    default:
      return rr.rdata;
  }
}

/** RFC 4648 base32hex without padding, as NSEC3 owner labels spell a hash (RFC 5155 §3.3). */
export function base32hexDecode(label: Uint8Array): Uint8Array | undefined {
  const alphabet = '0123456789abcdefghijklmnopqrstuv';
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const byte of label) {
    const index = alphabet.indexOf(String.fromCharCode(byte).toLowerCase());
    if (index < 0) return undefined;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((value >>> bits) & 0xff);
    }
  }
  // Leftover bits must be zero padding of under one byte.
  if (bits >= 5 || (value & ((1 << bits) - 1)) !== 0) return undefined;
  return Uint8Array.from(out);
}
