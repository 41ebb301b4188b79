// DNS zones signed at test time under a test root of their own, with Node's crypto: what the BIP 353
// tests check against, so that nothing depends on the real root's keys or today's date. Written
// apart from lib/payments/dnssec (names, key tags, canonical order and signed data computed here
// again, the plain way), so that a mistake there is not repeated here and hidden.
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { TYPE } from '../../lib/payments/dnssec/wire';

/** RR type numbers (IANA's; only the numbers are shared with the code under test). */
export const T = TYPE;

export interface Rec {
  owner: string;
  type: number;
  ttl: number;
  rdata: Buffer;
}

/** Dotted text to labels (no escapes: test names are plain). "." and "" are the root. */
const labelsOf = (name: string) =>
  name
    .replace(/\.$/, '')
    .split('.')
    .filter((l) => l !== '');

/** RFC 1035 wire form, lower case (canonical): test names are ASCII. */
export function wireName(name: string): Buffer {
  const parts = labelsOf(name.toLowerCase()).map((l) => Buffer.concat([Buffer.of(l.length), Buffer.from(l)]));
  return Buffer.concat([...parts, Buffer.of(0)]);
}

const u16 = (n: number) => Buffer.of(n >> 8, n & 0xff);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

export function recordWire(r: Rec): Buffer {
  return Buffer.concat([wireName(r.owner), u16(r.type), u16(1), u32(r.ttl), u16(r.rdata.length), r.rdata]);
}

export const txtRdata = (...strings: string[]) =>
  Buffer.concat(strings.map((s) => Buffer.concat([Buffer.of(Buffer.byteLength(s)), Buffer.from(s)])));

const sameName = (a: string, b: string) =>
  labelsOf(a.toLowerCase()).join('.') === labelsOf(b.toLowerCase()).join('.');
const within = (name: string, zone: string) => {
  const n = labelsOf(name.toLowerCase());
  const z = labelsOf(zone.toLowerCase());
  return z.length <= n.length && n.slice(n.length - z.length).join('.') === z.join('.');
};

/** RFC 4034 Appendix B, again. */
function tagOf(rdata: Buffer): number {
  let acc = 0;
  rdata.forEach((b, i) => {
    acc += i % 2 === 0 ? b << 8 : b;
  });
  return (acc + ((acc >> 16) & 0xffff)) & 0xffff;
}

export type Algorithm = 5 | 8 | 10 | 13 | 14 | 15 | 16;

export interface Key {
  algorithm: Algorithm;
  flags: number;
  rdata: Buffer;
  tag: number;
  privateKey: KeyObject;
}

/** A DNSKEY and its private half; RSA keys `rsaBits` long (2048 by default). */
export function makeKey(algorithm: Algorithm, flags: number, rsaBits = 2048): Key {
  let publicKey: Buffer;
  let privateKey: KeyObject;
  if (algorithm === 5 || algorithm === 8 || algorithm === 10) {
    const pair = generateKeyPairSync('rsa', { modulusLength: rsaBits });
    const jwk = pair.publicKey.export({ format: 'jwk' });
    const e = Buffer.from(jwk.e!, 'base64url');
    publicKey = Buffer.concat([Buffer.of(e.length), e, Buffer.from(jwk.n!, 'base64url')]);
    privateKey = pair.privateKey;
  } else if (algorithm === 13 || algorithm === 14) {
    const pair = generateKeyPairSync('ec', { namedCurve: algorithm === 13 ? 'P-256' : 'P-384' });
    const jwk = pair.publicKey.export({ format: 'jwk' });
    publicKey = Buffer.concat([Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
    privateKey = pair.privateKey;
  } else {
    const pair = algorithm === 15 ? generateKeyPairSync('ed25519') : generateKeyPairSync('ed448');
    publicKey = Buffer.from(pair.publicKey.export({ format: 'jwk' }).x!, 'base64url');
    privateKey = pair.privateKey;
  }
  const rdata = Buffer.concat([u16(flags), Buffer.of(3, algorithm), publicKey]);
  return { algorithm, flags, rdata, tag: tagOf(rdata), privateKey };
}

function signBytes(key: Key, data: Buffer): Buffer {
  switch (key.algorithm) {
    case 5:
      return sign('sha1', data, key.privateKey);
    case 8:
      return sign('sha256', data, key.privateKey);
    case 10:
      return sign('sha512', data, key.privateKey);
    case 13:
      return sign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
    case 14:
      return sign('sha384', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
    default:
      return sign(null, data, key.privateKey);
  }
}

export interface Validity {
  inception: Date;
  expiration: Date;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** An RRSIG over `set` (records of one owner and type) by `key` of zone `signer`. */
export function rrsig(set: Rec[], key: Key, signer: string, validity: Validity): Rec {
  const first = set[0]!;
  const labels = labelsOf(first.owner);
  const count = labels[0] === '*' ? labels.length - 1 : labels.length;
  const head = Buffer.concat([
    u16(first.type),
    Buffer.of(key.algorithm, count),
    u32(first.ttl),
    u32(seconds(validity.expiration)),
    u32(seconds(validity.inception)),
    u16(key.tag),
    wireName(signer),
  ]);
  const rdatas = [...new Set(set.map((r) => r.rdata.toString('hex')))]
    .sort()
    .map((h) => Buffer.from(h, 'hex'));
  const data = Buffer.concat([
    head,
    ...rdatas.map((rd) =>
      Buffer.concat([wireName(first.owner), u16(first.type), u16(1), u32(first.ttl), u16(rd.length), rd]),
    ),
  ]);
  return {
    owner: first.owner,
    type: T.RRSIG,
    ttl: first.ttl,
    rdata: Buffer.concat([head, signBytes(key, data)]),
  };
}

/** A DS record of `key` at `owner` (digest type 2, SHA-256, unless asked). */
export function dsOf(owner: string, key: Key, digestType = 2): Buffer {
  const hash = digestType === 1 ? 'sha1' : digestType === 4 ? 'sha384' : 'sha256';
  const digest = createHash(hash)
    .update(Buffer.concat([wireName(owner), key.rdata]))
    .digest();
  return Buffer.concat([u16(key.tag), Buffer.of(key.algorithm, digestType), digest]);
}

/** RFC 4034 §4.1.2 type bitmap, window 0 only (every type here is below 256). */
function bitmap(types: number[]): Buffer {
  const bytes = Buffer.alloc(32);
  let last = 0;
  for (const t of types) {
    bytes[t >> 3]! |= 0x80 >> (t & 7);
    last = Math.max(last, (t >> 3) + 1);
  }
  return Buffer.concat([Buffer.of(0, last), bytes.subarray(0, last)]);
}

/** Canonical order (RFC 4034 §6.1), computed from the labels right to left. */
function canonicalCompare(a: string, b: string): number {
  const la = labelsOf(a.toLowerCase()).reverse();
  const lb = labelsOf(b.toLowerCase()).reverse();
  for (let i = 0; i < Math.min(la.length, lb.length); i++) {
    const diff = Buffer.compare(Buffer.from(la[i]!), Buffer.from(lb[i]!));
    if (diff !== 0) return diff;
  }
  return la.length - lb.length;
}

const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';
function base32hex(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32HEX[(value << (5 - bits)) & 31];
  return out;
}

/** RFC 5155 §5 hash, again. */
export function nsec3HashOf(name: string, salt: Buffer, iterations: number): Buffer {
  let h = createHash('sha1')
    .update(Buffer.concat([wireName(name), salt]))
    .digest();
  for (let i = 0; i < iterations; i++)
    h = createHash('sha1')
      .update(Buffer.concat([h, salt]))
      .digest();
  return h;
}

export interface ZoneOptions {
  algorithm?: Algorithm;
  rsaBits?: number;
  /** How the zone proves names absent: NSEC, NSEC3 (iterations, salt), or not at all. */
  denial?: 'nsec' | { iterations: number; salt?: Buffer } | 'none';
  ttl?: number;
}

/** One zone: a key-signing and a zone-signing key, and its data. */
export class Zone {
  readonly ksk: Key;
  readonly zsk: Key;
  readonly data: Rec[] = [];
  readonly ttl: number;
  constructor(
    readonly apex: string,
    readonly options: ZoneOptions = {},
  ) {
    const algorithm = options.algorithm ?? 13;
    this.ksk = makeKey(algorithm, 257, options.rsaBits);
    this.zsk = makeKey(algorithm, 256, options.rsaBits);
    this.ttl = options.ttl ?? 3600;
  }

  add(owner: string, type: number, rdata: Buffer): this {
    this.data.push({ owner, type, ttl: this.ttl, rdata });
    return this;
  }

  txt(owner: string, ...strings: string[]): this {
    return this.add(owner, T.TXT, txtRdata(...strings));
  }

  /** The root's anchor, as a DS line in text (what the options take). */
  anchorLine(): string {
    const ds = dsOf(this.apex, this.ksk);
    const owner = labelsOf(this.apex).length === 0 ? '.' : `${labelsOf(this.apex).join('.')}.`;
    return `${owner} IN DS ${ds.readUInt16BE(0)} ${ds[2]} ${ds[3]} ${ds.subarray(4).toString('hex').toUpperCase()}`;
  }
}

export interface TreeOptions extends Validity {
  /** Signatures made with the KSK's algorithm but left out, or changed, per owner and type: for tests. */
  skip?: (rec: Rec) => boolean;
}

const groupKey = (r: Rec) => `${labelsOf(r.owner.toLowerCase()).join('.')}/${r.type}`;

function groups(records: Rec[]): Rec[][] {
  const map = new Map<string, Rec[]>();
  for (const r of records) map.set(groupKey(r), [...(map.get(groupKey(r)) ?? []), r]);
  return [...map.values()];
}

/** The zone `name` is in: the deepest apex it falls under. */
function zoneOf(zones: Zone[], name: string): Zone | undefined {
  return zones
    .filter((z) => within(name, z.apex))
    .sort((a, b) => labelsOf(b.apex).length - labelsOf(a.apex).length)[0];
}

/**
 * Every record of a tree of zones, signed: each zone's DNSKEY set (signed by its KSK), its data and
 * DS records for its children (signed by its ZSK), and its NSEC or NSEC3 chain when asked.
 */
export function signTree(zones: Zone[], options: TreeOptions): Rec[] {
  const out: Rec[] = [];
  for (const zone of zones) {
    const records: Rec[] = [...zone.data];
    for (const child of zones) {
      if (child === zone || sameName(child.apex, zone.apex)) continue;
      if (
        zoneOf(
          zones.filter((z) => z !== child),
          child.apex,
        ) === zone
      )
        records.push({ owner: child.apex, type: T.DS, ttl: zone.ttl, rdata: dsOf(child.apex, child.ksk) });
    }
    const denial = zone.options.denial ?? 'none';
    if (denial !== 'none') records.push(...denialChain(zone, records, denial));
    const keys = [zone.ksk, zone.zsk].map((k) => ({
      owner: zone.apex,
      type: T.DNSKEY,
      ttl: zone.ttl,
      rdata: k.rdata,
    }));
    out.push(...keys, rrsig(keys, zone.ksk, zone.apex, options));
    for (const set of groups(records)) {
      out.push(...set);
      if (!options.skip?.(set[0]!)) out.push(rrsig(set, zone.zsk, zone.apex, options));
    }
  }
  return out;
}

function denialChain(
  zone: Zone,
  records: Rec[],
  denial: 'nsec' | { iterations: number; salt?: Buffer },
): Rec[] {
  const owners = [
    ...new Set([zone.apex, ...records.map((r) => r.owner)].map((o) => labelsOf(o.toLowerCase()).join('.'))),
  ];
  const typesAt = (o: string) => [
    ...new Set([
      ...records.filter((r) => labelsOf(r.owner.toLowerCase()).join('.') === o).map((r) => r.type),
      ...(sameName(o, zone.apex) ? [T.DNSKEY, 6] : []),
      T.RRSIG,
    ]),
  ];
  if (denial === 'nsec') {
    const sorted = owners.sort(canonicalCompare);
    return sorted.map((o, i) => ({
      owner: o,
      type: T.NSEC,
      ttl: zone.ttl,
      rdata: Buffer.concat([
        wireName(sorted[(i + 1) % sorted.length]!),
        bitmap([...typesAt(o), T.NSEC].sort((a, b) => a - b)),
      ]),
    }));
  }
  const salt = denial.salt ?? Buffer.alloc(0);
  const hashed = owners
    .map((o) => ({ o, h: nsec3HashOf(o, salt, denial.iterations) }))
    .sort((a, b) => Buffer.compare(a.h, b.h));
  return hashed.map(({ o, h }, i) => ({
    owner: `${base32hex(h)}.${labelsOf(zone.apex).join('.')}`,
    type: T.NSEC3,
    ttl: zone.ttl,
    rdata: Buffer.concat([
      Buffer.of(1, 0),
      u16(denial.iterations),
      Buffer.of(salt.length),
      salt,
      Buffer.of(20),
      hashed[(i + 1) % hashed.length]!.h,
      bitmap(typesAt(o).sort((a, b) => a - b)),
    ]),
  }));
}

const covers = (r: Rec, type: number) =>
  r.type === type || (r.type === T.RRSIG && r.rdata.readUInt16BE(0) === type);

/**
 * What a resolver answers for `name` when a wildcard `*.<rest>` of the tree matches it: the
 * records of `type` for the wildcard, with their signatures, as `name`'s (RFC 4035 §5.3.4), in
 * place of the wildcard's own; every other record (the denial chain's) stays.
 */
export function expandWildcard(records: Rec[], wildcard: string, name: string, type: number): Rec[] {
  const expanded = records.filter((r) => sameName(r.owner, wildcard) && covers(r, type));
  return [...records.filter((r) => !expanded.includes(r)), ...expanded.map((r) => ({ ...r, owner: name }))];
}

/** The records of `set` with one byte of each RRSIG's signature changed (the last). */
export function withBadSignature(records: Rec[], owner: string, covered: number): Rec[] {
  return records.map((r) => {
    if (r.type !== T.RRSIG || !sameName(r.owner, owner) || r.rdata.readUInt16BE(0) !== covered) return r;
    const rdata = Buffer.from(r.rdata);
    rdata[rdata.length - 1]! ^= 0x01;
    return { ...r, rdata };
  });
}

/** An RFC 9102 chain as BIP 353 carries it: the name's length, the name, then every record. */
export function proofHex(name: string, records: Rec[]): string {
  return Buffer.concat([Buffer.of(name.length), Buffer.from(name), ...records.map(recordWire)]).toString(
    'hex',
  );
}

/** The owner name of a BIP 353 name's TXT record. */
export const txtOwner = (user: string, domain: string) => `${user}.user._bitcoin-payment.${domain}`;
