/**
 * Checks a DNSSEC chain of trust, from trust anchors (DS records, the root's from the build) down
 * to the records at a name, as RFC 4035 §5 describes, over a set of records in no order: an RFC
 * 9102 AuthenticationChain, or what a resolver answered. Nothing here asks the network or
 * trusts a resolver's AD bit: every signature is checked here.
 *
 * The steps:
 *   1. A zone's DNSKEY RRset is trusted when a key in it matches a trusted DS record of the zone
 *      (RFC 4034 §5.1.4 digest, RFC 4035 §5.2) and signs the RRset. Its zone keys are then
 *      trusted for the zone.
 *   2. A DS RRset signed by a trusted zone above it becomes trusted, and step 1 runs for the zone
 *      it names; until nothing changes.
 *   3. From the name asked, follow CNAME (RFC 1034 §3.6.2) and DNAME (RFC 6672) records to the
 *      records of the type asked, each RRset signed by a trusted zone that contains it.
 *   4. An RRset whose RRSIG counts fewer labels than its owner came from a wildcard (RFC 4035
 *      §5.3.4): it counts only with an NSEC (RFC 4035 §5.4) or NSEC3 (RFC 5155 §8.8) record of
 *      the same zone proving that the "next closer" name does not exist.
 * Signatures count only within their validity period at `now` (RFC 4034 §3.1.5).
 */
import { t } from '../../i18n';
import { PaymentError } from '../errors';
import { formatTime } from '../expiry';
import {
  algorithmName,
  digestName,
  dsDigest,
  isSupportedAlgorithm,
  isSupportedDigest,
  KeyProblem,
  verifySignature,
} from './algorithms';
import { nsec3Covers, nsecCovers } from './denial';
import { DnssecError, type DnssecProblem, displayName } from './problem';
import {
  canonicalRdata,
  type Dnskey,
  type Ds,
  keyTag,
  REVOKED_KEY,
  type Rrsig,
  readDnskey,
  readDs,
  readRrsig,
  readTarget,
  rrsigSignedPart,
  ZONE_KEY,
} from './records';
import {
  CLASS_IN,
  canonicalNameWire,
  compareBytes,
  compareNames,
  concat,
  DnsWireError,
  isWithin,
  type Name,
  nameKey,
  nameWire,
  type ResourceRecord,
  sameName,
  signedLabelCount,
  suffixOf,
  TYPE,
  u16,
  u32,
} from './wire';

/** A DS record the chain starts from: the root's (from the build), or one the person added. */
export interface TrustAnchor {
  owner: Name;
  ds: Ds;
}

export interface ValidateOptions {
  anchors: readonly TrustAnchor[];
  now: Date;
  /** Defaults to globalThis.crypto.subtle. */
  subtle?: SubtleCrypto;
}

export interface ValidatedAnswer {
  /** Where the records were found, after any CNAME or DNAME. */
  owner: Name;
  /** The names passed through from the one asked, that one first. */
  path: Name[];
  /** The RDATA of each record of the answer, in the order received. */
  rdatas: Uint8Array[];
  /** Zones whose keys signed something used, from the root down. */
  zones: Name[];
  /** The earliest expiry of a signature used, in seconds since 1970. */
  signaturesUntil: number;
  /** The lowest TTL of the records and signatures used (BIP 353: no longer in a cache). */
  ttl: number;
  /** Whether the answer, or a CNAME or DNAME on the way, came from a wildcard. */
  wildcard: boolean;
}

const TYPE_NAMES: Record<number, string> = {
  [TYPE.CNAME]: 'CNAME',
  [TYPE.TXT]: 'TXT',
  [TYPE.DNAME]: 'DNAME',
  [TYPE.DS]: 'DS',
  [TYPE.NSEC]: 'NSEC',
  [TYPE.DNSKEY]: 'DNSKEY',
  [TYPE.NSEC3]: 'NSEC3',
};
const typeName = (type: number) => TYPE_NAMES[type] ?? `TYPE${type}`;

/** CNAME and DNAME steps followed before giving up (a loop, or a chain too long to be honest). */
export const MAX_ALIAS_STEPS = 8;

/**
 * Signature checks one validation may make. An honest chain needs about two per zone and one per
 * answer; records built to make a validator try every key on every signature (CVE-2023-50387,
 * "KeyTrap": many keys sharing a tag, many signatures) stop here instead of taking minutes.
 */
export const MAX_SIGNATURE_CHECKS = 64;

interface Rrset {
  owner: Name;
  type: number;
  rdatas: Uint8Array[];
  ttl: number;
}

interface Signature {
  rr: ResourceRecord;
  sig: Rrsig;
}

interface TrustedKey {
  rdata: Uint8Array;
  key: Dnskey;
  tag: number;
}

/** What a verified RRset was signed by. */
interface Verified {
  signer: Name;
  sig: Rrsig;
  wildcard: boolean;
}

/** The problem to report when several signatures failed: the most telling one, "unsigned" last. */
const RANK: DnssecProblem[] = [
  'bad-signature',
  'ds-mismatch',
  'no-anchor',
  'expired',
  'not-yet',
  'rsa-short',
  'algorithm',
  'no-key',
  'no-dnskey',
  'no-ds',
];
const rank = (p: DnssecProblem) => {
  const at = RANK.indexOf(p);
  return p === 'unsigned' ? RANK.length + 1 : at < 0 ? RANK.length : at;
};

const rrsetKey = (owner: Name, type: number) => `${nameKey(owner)}/${type}`;

/** RFC 1982 serial arithmetic on 32-bit times: whether `a` comes after `b`. */
const serialAfter = (a: number, b: number) => {
  const diff = (a - b) >>> 0;
  return diff !== 0 && diff < 0x80000000;
};

class Chain {
  private readonly rrsets = new Map<string, Rrset>();
  private readonly sigs = new Map<string, Signature[]>();
  /** Zones whose keys are trusted. */
  private readonly keys = new Map<string, { zone: Name; keys: TrustedKey[] }>();
  /** Trusted DS records by the zone they name. */
  private readonly ds = new Map<string, { zone: Name; list: Ds[] }>();
  /** Why a zone with trusted DS records still has no trusted keys. */
  private readonly zoneProblems = new Map<string, DnssecError>();
  /** Why a zone's DS RRset, signed by a trusted zone, did not verify. */
  private readonly dsProblems = new Map<string, DnssecError>();
  private readonly used: { sig: Rrsig; ttl: number; signer: Name }[] = [];
  private readonly now: number;
  private readonly subtle: SubtleCrypto;
  private checks = 0;

  constructor(records: readonly ResourceRecord[], options: ValidateOptions) {
    this.now = Math.floor(options.now.getTime() / 1000) >>> 0;
    const subtle = options.subtle ?? globalThis.crypto?.subtle;
    if (!subtle) throw new PaymentError('bad-input', t('payNoWebCrypto'));
    this.subtle = subtle;
    const seen = new Set<string>();
    for (const rr of records) {
      if (rr.klass !== CLASS_IN) continue;
      // The same record twice counts once (RFC 2181 §5: an RRset has no duplicates).
      const id = `${rrsetKey(rr.owner, rr.type)}/${Array.from(rr.rdata).join(',')}`;
      if (seen.has(id)) continue;
      seen.add(id);
      if (rr.type === TYPE.RRSIG) {
        let sig: Rrsig;
        try {
          sig = readRrsig(rr.rdata);
        } catch {
          continue;
        }
        const key = rrsetKey(rr.owner, sig.typeCovered);
        this.sigs.set(key, [...(this.sigs.get(key) ?? []), { rr, sig }]);
        continue;
      }
      const key = rrsetKey(rr.owner, rr.type);
      const set = this.rrsets.get(key);
      if (set) {
        set.rdatas.push(rr.rdata);
        set.ttl = Math.min(set.ttl, rr.ttl);
      } else this.rrsets.set(key, { owner: rr.owner, type: rr.type, rdatas: [rr.rdata], ttl: rr.ttl });
    }
    for (const anchor of options.anchors) this.addDs(anchor.owner, [anchor.ds]);
  }

  private addDs(zone: Name, list: Ds[]): void {
    const key = nameKey(zone);
    const entry = this.ds.get(key);
    if (entry) entry.list.push(...list);
    else this.ds.set(key, { zone, list: [...list] });
  }

  private error(problem: DnssecProblem, message: string): DnssecError {
    return new DnssecError(problem, message);
  }

  /** RFC 4034 §3.1.8.1: the bytes an RRSIG signs for this RRset. */
  private signedData(rrset: Rrset, sigRdata: Uint8Array, sig: Rrsig): Uint8Array {
    const labels = signedLabelCount(rrset.owner);
    // RFC 4035 §5.3.2: a wildcard expansion is checked as the wildcard's own name.
    const owner =
      sig.labels < labels ? [Uint8Array.of(0x2a), ...suffixOf(rrset.owner, sig.labels)] : rrset.owner;
    const head = concat([canonicalNameWire(owner), u16(rrset.type), u16(CLASS_IN), u32(sig.originalTtl)]);
    // RFC 4034 §6.3: records in canonical order of their canonical RDATA, duplicates once.
    const rdatas = rrset.rdatas
      .map((rdata) =>
        canonicalRdata({ owner: rrset.owner, type: rrset.type, klass: CLASS_IN, ttl: 0, rdata }),
      )
      .sort(compareBytes)
      .filter((rdata, i, all) => i === 0 || compareBytes(rdata, all[i - 1]!) !== 0);
    return concat([
      rrsigSignedPart(sigRdata),
      ...rdatas.flatMap((rdata) => [head, u16(rdata.length), rdata]),
    ]);
  }

  /**
   * Checks an RRset's signatures; the first that holds makes it verified. `keysFor` gives the
   * keys a signer may use (the trusted ones; for a DNSKEY RRset, the keys its DS records match).
   * Throws the most telling problem when none holds.
   */
  private async verify(
    rrset: Rrset,
    keysFor: (signer: Name) => TrustedKey[] | undefined,
    signerRule: (signer: Name) => boolean,
  ): Promise<Verified> {
    const where = displayName(rrset.owner);
    const what = typeName(rrset.type);
    const sigs = this.sigs.get(rrsetKey(rrset.owner, rrset.type)) ?? [];
    let worst: DnssecError = this.error('unsigned', t('payDnsUnsigned', where, what));
    const consider = (e: DnssecError) => {
      if (rank(e.problem) < rank(worst.problem)) worst = e;
    };
    for (const { rr, sig } of sigs) {
      const zone = displayName(sig.signer);
      // The signer is the zone holding the RRset (RFC 4035 §5.3.1), so its name is the owner's or above it.
      if (!isWithin(rrset.owner, sig.signer) || !signerRule(sig.signer)) continue;
      if (sig.labels > signedLabelCount(rrset.owner)) continue;
      const keys = keysFor(sig.signer);
      if (!keys) {
        consider(this.untrusted(sig.signer));
        continue;
      }
      if (serialAfter(sig.inception, this.now)) {
        consider(this.error('not-yet', t('payDnsNotYet', where, what, formatTime(BigInt(sig.inception)))));
        continue;
      }
      if (serialAfter(this.now, sig.expiration)) {
        consider(this.error('expired', t('payDnsExpired', where, what, formatTime(BigInt(sig.expiration)))));
        continue;
      }
      if (!isSupportedAlgorithm(sig.algorithm)) {
        consider(this.error('algorithm', t('payDnsAlgorithm', zone, algorithmName(sig.algorithm))));
        continue;
      }
      const candidates = keys.filter((k) => k.tag === sig.keyTag && k.key.algorithm === sig.algorithm);
      if (candidates.length === 0) {
        consider(this.error('no-key', t('payDnsNoKey', where, what, zone)));
        continue;
      }
      const data = this.signedData(rrset, rr.rdata, sig);
      for (const candidate of candidates) {
        if (++this.checks > MAX_SIGNATURE_CHECKS) throw this.error('too-much-work', t('payDnsTooMuchWork'));
        try {
          if (
            await verifySignature(this.subtle, sig.algorithm, candidate.key.publicKey, data, sig.signature)
          ) {
            this.used.push({ sig, ttl: Math.min(rrset.ttl, sig.originalTtl), signer: sig.signer });
            return { signer: sig.signer, sig, wildcard: sig.labels < signedLabelCount(rrset.owner) };
          }
          consider(this.error('bad-signature', t('payDnsBadSignature', where, what, zone)));
        } catch (error) {
          if (!(error instanceof KeyProblem)) throw error;
          if (error.detail === 'rsa-short')
            consider(this.error('rsa-short', t('payDnsRsaShort', zone, error.bits ?? 0)));
          else consider(this.error('bad-signature', t('payDnsBadSignature', where, what, zone)));
        }
      }
    }
    throw worst;
  }

  /** Why a zone's keys are not trusted: its own problem, or, up the tree, what stops its DS. */
  private untrusted(zone: Name, depth = 0): DnssecError {
    const key = nameKey(zone);
    const known = this.zoneProblems.get(key);
    if (known) return known;
    if (depth > 64 || zone.length === 0) return this.error('no-anchor', t('payDnsNoAnchor'));
    if (this.ds.has(key)) return this.error('no-dnskey', t('payDnsNoKeys', displayName(zone)));
    const dsSet = this.rrsets.get(rrsetKey(zone, TYPE.DS));
    if (!dsSet) return this.error('no-ds', t('payDnsNoDs', displayName(zone)));
    const above = (this.sigs.get(rrsetKey(zone, TYPE.DS)) ?? []).find(
      (s) => !sameName(s.sig.signer, zone) && isWithin(zone, s.sig.signer),
    );
    if (!above) return this.error('no-ds', t('payDnsNoDs', displayName(zone)));
    return this.keys.has(nameKey(above.sig.signer))
      ? (this.dsProblems.get(key) ?? this.error('no-ds', t('payDnsNoDs', displayName(zone))))
      : this.untrusted(above.sig.signer, depth + 1);
  }

  /** Step 1 for one zone with trusted DS records. */
  private async trustZone(zone: Name, dsList: Ds[]): Promise<void> {
    const key = nameKey(zone);
    const name = displayName(zone);
    const dnskeys = this.rrsets.get(rrsetKey(zone, TYPE.DNSKEY));
    if (!dnskeys) {
      this.zoneProblems.set(key, this.error('no-dnskey', t('payDnsNoKeys', name)));
      return;
    }
    const ownerWire = canonicalNameWire(zone);
    const keys: TrustedKey[] = [];
    for (const rdata of dnskeys.rdatas) {
      try {
        const dnskey = readDnskey(rdata);
        if (dnskey.protocol !== 3 || !(dnskey.flags & ZONE_KEY) || dnskey.flags & REVOKED_KEY) continue;
        keys.push({ rdata, key: dnskey, tag: keyTag(rdata) });
      } catch {
        // An unreadable key signs nothing.
      }
    }
    const usable = dsList.filter(
      (ds) => isSupportedAlgorithm(ds.algorithm) && isSupportedDigest(ds.digestType),
    );
    if (usable.length === 0) {
      // Only SHA-1 digests or algorithms refused: the zone cannot be checked (BIP 353).
      const first = dsList[0]!;
      const why = isSupportedAlgorithm(first.algorithm)
        ? digestName(first.digestType)
        : algorithmName(first.algorithm);
      this.zoneProblems.set(key, this.error('algorithm', t('payDnsAlgorithm', name, why)));
      return;
    }
    // RFC 4034 §5.1.4: digest = hash(owner name | DNSKEY RDATA).
    const matching = keys.filter((k) =>
      usable.some(
        (ds) =>
          ds.keyTag === k.tag &&
          ds.algorithm === k.key.algorithm &&
          compareBytes(dsDigest(ds.digestType, concat([ownerWire, k.rdata]))!, ds.digest) === 0,
      ),
    );
    if (matching.length === 0) {
      this.zoneProblems.set(
        key,
        zone.length === 0
          ? this.error('no-anchor', t('payDnsNoAnchor'))
          : this.error('ds-mismatch', t('payDnsDsMismatch', name)),
      );
      return;
    }
    try {
      await this.verify(
        dnskeys,
        (signer) => (sameName(signer, zone) ? matching : undefined),
        (signer) => sameName(signer, zone),
      );
      this.keys.set(key, { zone, keys });
    } catch (error) {
      if (!(error instanceof DnssecError)) throw error;
      this.zoneProblems.set(key, error);
    }
  }

  /** Steps 1 and 2, until nothing changes. */
  async establish(): Promise<void> {
    const tried = new Set<string>();
    const dsTried = new Set<string>();
    for (let changed = true; changed; ) {
      changed = false;
      for (const [key, { zone, list }] of this.ds) {
        if (tried.has(key)) continue;
        tried.add(key);
        await this.trustZone(zone, list);
        if (this.keys.has(key)) changed = true;
      }
      for (const [key, rrset] of this.rrsets) {
        if (rrset.type !== TYPE.DS || this.ds.has(nameKey(rrset.owner))) continue;
        // Worth a try once per set of trusted zones that could sign it.
        const signers = (this.sigs.get(key) ?? [])
          .map((s) => nameKey(s.sig.signer))
          .filter((s) => this.keys.has(s));
        const attempt = `${key}|${signers.join('|')}`;
        if (signers.length === 0 || dsTried.has(attempt)) continue;
        dsTried.add(attempt);
        try {
          await this.verify(
            rrset,
            (signer) => this.keys.get(nameKey(signer))?.keys,
            (signer) => !sameName(signer, rrset.owner),
          );
          const list = rrset.rdatas.flatMap((rdata) => {
            try {
              return [readDs(rdata)];
            } catch {
              return [];
            }
          });
          this.addDs(rrset.owner, list);
          changed = true;
        } catch (error) {
          if (!(error instanceof DnssecError)) throw error;
          this.dsProblems.set(nameKey(rrset.owner), error);
        }
      }
    }
  }

  /** An RRset of the zone data, verified by a trusted zone, with its wildcard proof if it needs one. */
  private async verifyData(rrset: Rrset): Promise<Verified> {
    const verified = await this.verify(
      rrset,
      (signer) => this.keys.get(nameKey(signer))?.keys,
      () => true,
    );
    if (verified.wildcard) await this.proveNoCloserMatch(rrset.owner, verified);
    return verified;
  }

  /** Step 4: the next closer name of a wildcard answer does not exist (NSEC or NSEC3 of the zone). */
  private async proveNoCloserMatch(owner: Name, verified: Verified): Promise<void> {
    const nextCloser = suffixOf(owner, verified.sig.labels + 1);
    const zone = verified.signer;
    let problem: DnssecError = this.error('wildcard', t('payDnsWildcard', displayName(owner)));
    for (const rrset of this.rrsets.values()) {
      if (rrset.type !== TYPE.NSEC && rrset.type !== TYPE.NSEC3) continue;
      if (!isWithin(rrset.owner, zone)) continue;
      let covers: boolean;
      try {
        covers =
          rrset.type === TYPE.NSEC
            ? rrset.rdatas.some((rdata) => nsecCovers(rrset.owner, rdata, nextCloser))
            : rrset.rdatas.some((rdata) => nsec3Covers(rrset.owner, rdata, zone, nextCloser));
      } catch (error) {
        if (error instanceof DnssecError) problem = error;
        continue;
      }
      if (!covers) continue;
      try {
        const proof = await this.verify(
          rrset,
          (signer) => this.keys.get(nameKey(signer))?.keys,
          (signer) => sameName(signer, zone),
        );
        if (!proof.wildcard) return;
      } catch (error) {
        if (!(error instanceof DnssecError)) throw error;
        problem = error;
      }
    }
    throw problem;
  }

  /** Step 3: from `name` to the verified RRset of `type`. */
  async answer(query: Name, type: number): Promise<ValidatedAnswer> {
    let name = query;
    const path: Name[] = [query];
    let wildcard = false;
    for (let step = 0; step <= MAX_ALIAS_STEPS; step++) {
      const found = this.rrsets.get(rrsetKey(name, type));
      if (found) {
        const verified = await this.verifyData(found);
        wildcard ||= verified.wildcard;
        return this.result(found, path, wildcard);
      }
      const cname = this.rrsets.get(rrsetKey(name, TYPE.CNAME));
      if (cname) {
        if (cname.rdatas.length !== 1) throw this.error('unreadable', t('payDnsUnreadable'));
        wildcard ||= (await this.verifyData(cname)).wildcard;
        name = readTarget(cname.rdatas[0]!);
        path.push(name);
        continue;
      }
      const dname = this.dnameAbove(name);
      if (dname) {
        if (dname.rdatas.length !== 1) throw this.error('unreadable', t('payDnsUnreadable'));
        wildcard ||= (await this.verifyData(dname)).wildcard;
        // RFC 6672 §2.2: the labels below the DNAME's owner, then its target.
        const next = [...name.slice(0, name.length - dname.owner.length), ...readTarget(dname.rdatas[0]!)];
        if (nameWire(next).length > 255) throw this.error('unreadable', t('payDnsUnreadable'));
        name = next;
        path.push(name);
        continue;
      }
      throw this.error('no-record', t('payDnsNoRecord', displayName(name), typeName(type)));
    }
    throw this.error('too-many-steps', t('payDnsTooManySteps', displayName(query)));
  }

  private dnameAbove(name: Name): Rrset | undefined {
    for (let cut = 1; cut < name.length; cut++) {
      const found = this.rrsets.get(rrsetKey(name.slice(cut), TYPE.DNAME));
      if (found) return found;
    }
    return undefined;
  }

  private result(rrset: Rrset, path: Name[], wildcard: boolean): ValidatedAnswer {
    const zones = new Map<string, Name>();
    for (const u of this.used) zones.set(nameKey(u.signer), u.signer);
    return {
      owner: rrset.owner,
      path,
      rdatas: rrset.rdatas,
      zones: [...zones.values()].sort((a, b) => a.length - b.length || compareNames(a, b)),
      signaturesUntil: Math.min(...this.used.map((u) => u.sig.expiration)),
      ttl: Math.min(...this.used.map((u) => u.ttl)),
      wildcard,
    };
  }
}

/**
 * Validates the records of `type` at `query` from `records` (in any order) against the trust
 * anchors at `now`. Throws DnssecError with the sentence to show when they do not hold.
 */
export async function validateRecords(
  records: readonly ResourceRecord[],
  query: Name,
  type: number,
  options: ValidateOptions,
): Promise<ValidatedAnswer> {
  try {
    const chain = new Chain(records, options);
    await chain.establish();
    return await chain.answer(query, type);
  } catch (error) {
    if (error instanceof DnsWireError) throw new DnssecError('unreadable', t('payDnsUnreadable'));
    throw error;
  }
}
