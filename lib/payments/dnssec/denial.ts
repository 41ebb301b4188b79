/**
 * Authenticated denial of existence, as far as a wildcard answer needs it: whether an NSEC record
 * (RFC 4034 §4, RFC 4035 §5.4) or an NSEC3 record (RFC 5155 §8.3) covers a name, i.e. proves
 * that the zone has no such name. The caller checks the record's signature.
 */
import { sha1 } from '@noble/hashes/legacy.js';
import { t } from '../../i18n';
import { DnssecError, displayName } from './problem';
import { base32hexDecode, readNsec3, readNsecNext } from './records';
import { canonicalNameWire, compareBytes, compareNames, concat, isWithin, type Name } from './wire';

/** RFC 9276 §3.2: validators may refuse NSEC3 with more iterations than this; Hushdrop does. */
export const MAX_NSEC3_ITERATIONS = 100;

/** RFC 5155 §3.1.1: the one hash algorithm defined, SHA-1. */
const NSEC3_SHA1 = 1;

/**
 * An NSEC at `owner` covers `name` when `name` sorts strictly between the owner and the next name
 * (RFC 4034 §6.1 order); the zone's last NSEC points back to its apex and covers what sorts after it.
 */
export function nsecCovers(owner: Name, rdata: Uint8Array, name: Name): boolean {
  const next = readNsecNext(rdata);
  if (compareNames(owner, name) >= 0) return false;
  const last = compareNames(next, owner) <= 0;
  return last || compareNames(name, next) < 0;
}

/** RFC 5155 §5: IH(salt, x, 0) = H(x | salt); IH(salt, x, k) = H(IH(salt, x, k - 1) | salt). */
export function nsec3Hash(name: Name, salt: Uint8Array, iterations: number): Uint8Array {
  let digest = sha1(concat([canonicalNameWire(name), salt]));
  for (let i = 0; i < iterations; i++) digest = sha1(concat([digest, salt]));
  return digest;
}

/**
 * An NSEC3 of `zone` at `owner` (the base32hex hash, then the zone) covers `name` when the name's
 * hash sorts strictly between the owner's hash and the next one, or after the last one. Throws a
 * PaymentError for a record whose iterations RFC 9276 lets a validator refuse.
 */
export function nsec3Covers(owner: Name, rdata: Uint8Array, zone: Name, name: Name): boolean {
  if (owner.length !== zone.length + 1 || !isWithin(owner, zone) || !isWithin(name, zone)) return false;
  const nsec3 = readNsec3(rdata);
  if (nsec3.hashAlgorithm !== NSEC3_SHA1) return false;
  if (nsec3.iterations > MAX_NSEC3_ITERATIONS)
    throw new DnssecError(
      'nsec3-iterations',
      t('payDnsNsec3Iterations', displayName(zone), nsec3.iterations, MAX_NSEC3_ITERATIONS),
    );
  const ownerHash = base32hexDecode(owner[0]!);
  if (!ownerHash || ownerHash.length !== nsec3.nextHashed.length) return false;
  const hash = nsec3Hash(name, nsec3.salt, nsec3.iterations);
  if (hash.length !== ownerHash.length) return false;
  const afterOwner = compareBytes(ownerHash, hash) < 0;
  const beforeNext = compareBytes(hash, nsec3.nextHashed) < 0;
  // The last record of the hash order wraps around to the first.
  const last = compareBytes(nsec3.nextHashed, ownerHash) <= 0;
  return last ? afterOwner || beforeNext : afterOwner && beforeNext;
}
