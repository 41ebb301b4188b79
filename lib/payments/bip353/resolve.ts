/**
 * Looking a BIP 353 name up through a DNS-over-HTTPS resolver: the TXT records at the name (and
 * where its CNAMEs and DNAMEs lead), then, for every zone that signed something, its DNSKEY
 * records and its DS records in the zone above, up to the root. What comes back is checked as a
 * proof is (instructions.ts): the resolver only carries records.
 */
import type { DohOptions } from '../dnssec/doh';
import { dohQuery } from '../dnssec/doh';
import { readRrsig, readTarget } from '../dnssec/records';
import type { TrustAnchor } from '../dnssec/validate';
import { MAX_ALIAS_STEPS } from '../dnssec/validate';
import { isWithin, type Name, nameKey, type ResourceRecord, sameName, TYPE } from '../dnssec/wire';
import type { PaymentError } from '../errors';
import type { CheckedRequest } from '../request';
import { checkNameRecords } from './instructions';
import type { Bip353Name } from './name';

/** Queries one look-up may make: the name and its aliases, then two per zone up to the root. */
export const MAX_QUERIES = 30;

export type Query = (name: Name, type: number) => Promise<ResourceRecord[]>;

function aliasTarget(records: readonly ResourceRecord[], name: Name): Name | undefined {
  const cname = records.find((rr) => rr.type === TYPE.CNAME && sameName(rr.owner, name));
  if (cname) return readTarget(cname.rdata);
  const dname = records.find(
    (rr) => rr.type === TYPE.DNAME && rr.owner.length < name.length && isWithin(name, rr.owner),
  );
  if (!dname) return undefined;
  return [...name.slice(0, name.length - dname.owner.length), ...readTarget(dname.rdata)];
}

/** The records a chain for `name` needs, asked one query at a time of `query`. */
export async function gatherRecords(
  name: Name,
  query: Query,
  anchors: readonly TrustAnchor[],
): Promise<ResourceRecord[]> {
  const records: ResourceRecord[] = [];
  const asked = new Set<string>();
  const ask = async (owner: Name, type: number) => {
    const key = `${nameKey(owner)}/${type}`;
    if (asked.has(key) || asked.size >= MAX_QUERIES) return;
    asked.add(key);
    records.push(...(await query(owner, type)));
  };
  let current = name;
  for (let step = 0; step <= MAX_ALIAS_STEPS; step++) {
    await ask(current, TYPE.TXT);
    if (records.some((rr) => rr.type === TYPE.TXT && sameName(rr.owner, current))) break;
    const next = aliasTarget(records, current);
    if (!next) break;
    current = next;
  }
  const anchored = new Set(anchors.map((a) => nameKey(a.owner)));
  const zonesDone = new Set<string>();
  for (;;) {
    const signers = records
      .filter((rr) => rr.type === TYPE.RRSIG)
      .flatMap((rr) => {
        try {
          return [readRrsig(rr.rdata).signer];
        } catch {
          return [];
        }
      })
      .filter((zone) => !zonesDone.has(nameKey(zone)));
    if (signers.length === 0 || asked.size >= MAX_QUERIES) break;
    const zones = new Map(signers.map((zone) => [nameKey(zone), zone]));
    for (const [key, zone] of zones) {
      zonesDone.add(key);
      // A zone with an anchor of its own needs no DS from above (the root always has one).
      await Promise.all([ask(zone, TYPE.DNSKEY), anchored.has(key) ? undefined : ask(zone, TYPE.DS)]);
    }
  }
  return records;
}

export interface ResolveOptions extends DohOptions {
  anchors: readonly TrustAnchor[];
  now: Date;
  subtle?: SubtleCrypto;
}

/**
 * A name looked up through the resolver and judged: verified, or invalid with the sentence, and
 * then `problem` says why (for a caller that falls back to a Lightning Address). Throws
 * PaymentError('unreachable') when the resolver does not answer.
 */
export async function resolveName(
  name: Bip353Name,
  options: ResolveOptions,
): Promise<{ checked: CheckedRequest; problem?: PaymentError }> {
  const records = await gatherRecords(
    name.dnsName,
    (owner, type) => dohQuery(owner, type, options),
    options.anchors,
  );
  return checkNameRecords(name, records, { ...options, via: 'resolver', resolver: options.resolver });
}
