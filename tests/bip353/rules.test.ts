// The rules a BIP 353 proof is checked by, each on zones signed at test time under a test root
// (tests/dnssec/zones.ts) that is the only trust anchor, at a fixed clock: the DNSSEC chain (RFC
// 4034/4035: keys, DS digests, signatures, validity, algorithms), CNAME and DNAME, wildcards with
// their NSEC or NSEC3 proof (RFC 5155), and the BIP's own record rules.
import { beforeAll, describe, expect, it } from 'vitest';
import { checkDnssecProof } from '../../lib/payments/bip353/proof';
import { readAnchorLine, rootAnchors } from '../../lib/payments/dnssec/anchors';
import type { TrustAnchor } from '../../lib/payments/dnssec/validate';
import type { CheckedRequest } from '../../lib/payments/request';
import {
  type Algorithm,
  dsOf,
  expandWildcard,
  makeKey,
  proofHex,
  type Rec,
  rrsig,
  signTree,
  T,
  txtOwner,
  txtRdata,
  wireName as wire,
  withBadSignature,
  Zone,
} from '../dnssec/zones';

const NOW = new Date('2026-03-01T12:00:00Z');
const VALID = { inception: new Date('2026-02-20T00:00:00Z'), expiration: new Date('2026-03-20T00:00:00Z') };
const ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const OTHER = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const URI = `bitcoin:${ADDRESS}`;
const NAME = 'alice@shop.test';
const OWNER = txtOwner('alice', 'shop.test');

let root: Zone;
let tld: Zone;
let shop: Zone;
let anchors: TrustAnchor[];

beforeAll(() => {
  root = new Zone('.', { algorithm: 8 });
  tld = new Zone('test.', { algorithm: 8 });
  shop = new Zone('shop.test.', { algorithm: 13 });
  anchors = [readAnchorLine(root.anchorLine())];
});

/** A fresh shop zone under the same root and TLD, with its own options. */
function tree(shopZone: Zone, options: { validity?: typeof VALID; skip?: (r: Rec) => boolean } = {}) {
  return signTree([root, tld, shopZone], {
    ...VALID,
    ...options.validity,
    ...(options.skip ? { skip: options.skip } : {}),
  });
}

function check(
  name: string,
  records: Rec[],
  now = NOW,
  with_: TrustAnchor[] = anchors,
): Promise<CheckedRequest> {
  return checkDnssecProof(Buffer.from(proofHex(name, records), 'hex'), { anchors: with_, now });
}

function expectRefused(checked: CheckedRequest, reason: RegExp): void {
  expect(checked.verdict).toBe('invalid');
  expect(checked.reasons.join(' ')).toMatch(reason);
  expect(checked.handOff).toBeUndefined();
}

const shopWith = (algorithm: Algorithm, ...txts: string[][]) => {
  const zone = new Zone('shop.test.', { algorithm });
  for (const strings of txts) zone.txt(OWNER, ...strings);
  return zone;
};

describe('a chain from the test root', () => {
  it('verifies the name and reads its one bitcoin: record as a URI', async () => {
    shop.data.length = 0;
    shop.txt(OWNER, URI).txt(OWNER, 'v=spf1 -all');
    const checked = await check(NAME, tree(shop));
    expect(checked.reasons).toEqual([]);
    expect(checked).toMatchObject({
      kind: 'bip353',
      verdict: 'verified',
      payee: ADDRESS,
      network: 'main',
      signer: { kind: 'dnssec', name: `₿${NAME}`, zones: ['.', 'test', 'shop.test'] },
      handOff: { uri: URI },
      bip353: { name: `₿${NAME}`, via: 'proof', uri: URI, wildcard: false, ttl: 3600 },
    });
    expect(checked.bip353?.payment).toMatchObject({ kind: 'bip21', verdict: 'unsigned' });
  });

  it('fails without the test root as an anchor: the real root does not vouch for it', async () => {
    shop.data.length = 0;
    shop.txt(OWNER, URI);
    expectRefused(await check(NAME, tree(shop), NOW, rootAnchors()), /keys of the DNS root are not the ones/);
  });

  it.each([8, 10, 13, 14, 15, 16] as const)('verifies zones signed with algorithm %i', async (algorithm) => {
    const checked = await check(NAME, tree(shopWith(algorithm, [URI])));
    expect(checked.reasons).toEqual([]);
    expect(checked.verdict).toBe('verified');
  });

  it('refuses RSA/SHA-1 (algorithm 5) and RSA keys under 1,024 bits (BIP 353)', async () => {
    expectRefused(await check(NAME, tree(shopWith(5, [URI]))), /shop\.test is signed with RSA\/SHA-1/);
    const short = new Zone('shop.test.', { algorithm: 8, rsaBits: 768 });
    short.txt(OWNER, URI);
    expectRefused(await check(NAME, tree(short)), /RSA key of 768 bits; BIP 353 requires at least 1,024/);
  });

  it('refuses a zone its parent vouches for with a SHA-1 DS digest only', async () => {
    const zone = shopWith(13, [URI]);
    // The DS set replaced by one with digest type 1 (SHA-1), signed by test.'s key.
    const ds: Rec = { owner: zone.apex, type: T.DS, ttl: 3600, rdata: dsOf(zone.apex, zone.ksk, 1) };
    const records = [...withoutDs(tree(zone), zone.apex), ds, rrsig([ds], tld.zsk, tld.apex, VALID)];
    expectRefused(await check(NAME, records), /shop\.test is signed with SHA-1/);
  });
});

describe('signatures', () => {
  it('refuses a TXT record whose signature has one byte changed', async () => {
    const records = withBadSignature(tree(shopWith(13, [URI])), OWNER, T.TXT);
    expectRefused(
      await check(NAME, records),
      /signature on the TXT records of alice\.user\._bitcoin-payment\.shop\.test does not match/,
    );
  });

  it('refuses a record changed after it was signed', async () => {
    const records = tree(shopWith(13, [URI])).map((r) =>
      r.type === T.TXT ? { ...r, rdata: txtRdata(`bitcoin:${OTHER}`) } : r,
    );
    expectRefused(await check(NAME, records), /does not match them/);
  });

  it('refuses a DNSKEY set whose signature was changed, naming the zone', async () => {
    const records = withBadSignature(tree(shopWith(13, [URI])), 'shop.test.', T.DNSKEY);
    expectRefused(await check(NAME, records), /DNSKEY records of shop\.test does not match/);
  });

  it('stops after 64 signature checks (KeyTrap: records built to make a validator try everything)', async () => {
    const records = tree(shopWith(13, [URI]));
    const sig = records.find((r) => r.type === T.RRSIG && r.owner === OWNER)!;
    // 70 signatures by the right key tag, each a byte different, none good.
    const forged = Array.from({ length: 70 }, (_, i) => {
      const rdata = Buffer.from(sig.rdata);
      rdata[rdata.length - 1] = i;
      rdata[rdata.length - 2]! ^= 0xff;
      return { ...sig, rdata };
    });
    const checked = await check(NAME, [...records.filter((r) => r !== sig), ...forged]);
    expectRefused(checked, /too many signature checks \(more than 64\)/);
  });

  it('refuses an unsigned record', async () => {
    const records = tree(shopWith(13, [URI]), { skip: (r) => r.type === T.TXT });
    expectRefused(
      await check(NAME, records),
      /TXT records of alice\.user\._bitcoin-payment\.shop\.test carry no DNSSEC signature/,
    );
  });

  it('holds only between inception and expiration, against the clock given', async () => {
    const records = tree(shopWith(13, [URI]));
    expect((await check(NAME, records, new Date('2026-02-20T00:00:01Z'))).verdict).toBe('verified');
    expect((await check(NAME, records, new Date('2026-03-20T00:00:00Z'))).verdict).toBe('verified');
    expectRefused(await check(NAME, records, new Date('2026-02-19T23:59:59Z')), /is valid only from/);
    expectRefused(await check(NAME, records, new Date('2026-03-20T00:00:01Z')), /expired on/);
  });
});

describe('the links between zones', () => {
  it('refuses a zone with no DS record in its parent (not signed, or left out)', async () => {
    const records = withoutDs(tree(shopWith(13, [URI])), 'shop.test.');
    expectRefused(await check(NAME, records), /Nothing links the zone shop\.test to the zone above it/);
  });

  it('refuses a zone whose keys are not the ones its DS record names', async () => {
    const zone = shopWith(13, [URI]);
    // A DS of another key, properly signed by test.: the mismatch is the zone's keys.
    const ds: Rec = { owner: zone.apex, type: T.DS, ttl: 3600, rdata: dsOf(zone.apex, makeKey(13, 257)) };
    const records = [...withoutDs(tree(zone), zone.apex), ds, rrsig([ds], tld.zsk, tld.apex, VALID)];
    expectRefused(await check(NAME, records), /None of the keys of the zone shop\.test is the one/);
  });
});

describe('BIP 353 record rules', () => {
  it('refuses two TXT records starting with bitcoin:, whatever their case', async () => {
    const checked = await check(NAME, tree(shopWith(13, [URI], [`BITCOIN:${OTHER}`])));
    expectRefused(checked, /more than one TXT record starting with “bitcoin:”/);
  });

  it('refuses a name with no bitcoin: record, and ignores records that do not start so', async () => {
    expectRefused(
      await check(NAME, tree(shopWith(13, ['v=spf1 -all'], [' bitcoin:x']))),
      /has no payment instructions/,
    );
  });

  it('reads "BiTcOiN:" as the prefix, and joins a record’s strings in order without separators', async () => {
    const checked = await check(
      NAME,
      tree(shopWith(13, [`BiTcOiN:${ADDRESS.slice(0, 20)}`, ADDRESS.slice(20), '?amount=0.001'])),
    );
    expect(checked.verdict).toBe('verified');
    expect(checked.bip353?.uri).toBe(`BiTcOiN:${ADDRESS}?amount=0.001`);
    expect(checked.amount).toEqual({ value: 100_000n, unit: 'sat' });
  });

  it('a verified record whose URI is refused is invalid with the URI’s reason', async () => {
    const checked = await check(NAME, tree(shopWith(13, ['bitcoin:bc1qnotanaddress'])));
    expect(checked.verdict).toBe('invalid');
    expect(checked.bip353?.zones).toEqual(['.', 'test', 'shop.test']);
    expect(checked.handOff).toBeUndefined();
  });

  it('matches the name without regard to case', async () => {
    const checked = await check('Alice@SHOP.test', tree(shopWith(13, [URI])));
    expect(checked.verdict).toBe('verified');
    expect(checked.bip353?.name).toBe(`₿${NAME}`);
  });

  it('refuses a proof of another name than the one it carries', async () => {
    const records = tree(shopWith(13, [URI]));
    expectRefused(
      await check('bob@shop.test', records),
      /no TXT record at bob\.user\._bitcoin-payment\.shop\.test/,
    );
  });
});

describe('CNAME and DNAME', () => {
  it('follows a signed CNAME into another zone', async () => {
    const zone = new Zone('shop.test.', { algorithm: 13 });
    const pay = new Zone('pay.test.', { algorithm: 15 });
    zone.add(OWNER, T.CNAME, Buffer.from(wire('alice.wallets.pay.test')));
    pay.txt('alice.wallets.pay.test', URI);
    const checked = await check(NAME, signTree([root, tld, zone, pay], VALID));
    expect(checked.reasons).toEqual([]);
    expect(checked.bip353?.path).toEqual([OWNER, 'alice.wallets.pay.test']);
    expect(checked.bip353?.zones).toEqual(['.', 'test', 'pay.test', 'shop.test']);
  });

  it('refuses an unsigned CNAME', async () => {
    const zone = new Zone('shop.test.', { algorithm: 13 });
    zone.add(OWNER, T.CNAME, Buffer.from(wire('alice.other.shop.test'))).txt('alice.other.shop.test', URI);
    const records = signTree([root, tld, zone], { ...VALID, skip: (r) => r.type === T.CNAME });
    expectRefused(
      await check(NAME, records),
      /CNAME records of alice\.user\._bitcoin-payment\.shop\.test carry no DNSSEC signature/,
    );
  });

  it('stops a CNAME loop', async () => {
    const zone = new Zone('shop.test.', { algorithm: 13 });
    zone
      .add(OWNER, T.CNAME, Buffer.from(wire('a.shop.test')))
      .add('a.shop.test', T.CNAME, Buffer.from(wire(OWNER)));
    expectRefused(
      await check(NAME, signTree([root, tld, zone], VALID)),
      /leads through too many CNAME or DNAME records/,
    );
  });

  it('follows a signed DNAME', async () => {
    const zone = new Zone('shop.test.', { algorithm: 13 });
    zone.add('user._bitcoin-payment.shop.test', T.DNAME, Buffer.from(wire('users.pay.shop.test')));
    zone.txt('alice.users.pay.shop.test', URI);
    const checked = await check(NAME, signTree([root, tld, zone], VALID));
    expect(checked.reasons).toEqual([]);
    expect(checked.bip353?.path).toEqual([OWNER, 'alice.users.pay.shop.test']);
  });
});

describe('wildcards', () => {
  const WILD = '*.user._bitcoin-payment.shop.test';

  function wildTree(denial: 'nsec' | { iterations: number }) {
    const zone = new Zone('shop.test.', { algorithm: 13, denial });
    zone.txt(WILD, URI).txt('bob.user._bitcoin-payment.shop.test', `bitcoin:${OTHER}`);
    const records = signTree([root, tld, zone], VALID);
    // As a resolver answers alice: the wildcard's TXT records with alice's name, and the denial records.
    return expandWildcard(records, WILD, OWNER, T.TXT);
  }

  it('takes a wildcard answer with the NSEC3 record that proves the name has none of its own', async () => {
    const checked = await check(NAME, wildTree({ iterations: 0 }));
    expect(checked.reasons).toEqual([]);
    expect(checked.bip353?.wildcard).toBe(true);
    expect(checked.payee).toBe(ADDRESS);
  });

  it('takes a wildcard answer with an NSEC proof', async () => {
    const checked = await check(NAME, wildTree('nsec'));
    expect(checked.reasons).toEqual([]);
    expect(checked.bip353?.wildcard).toBe(true);
  });

  it('refuses a wildcard answer without its proof', async () => {
    const records = wildTree({ iterations: 0 }).filter(
      (r) => r.type !== T.NSEC3 && !(r.type === T.RRSIG && r.rdata.readUInt16BE(0) === T.NSEC3),
    );
    expectRefused(await check(NAME, records), /comes from a wildcard, and the NSEC or NSEC3 record proving/);
  });

  it('refuses a wildcard answer for a name that has a record of its own (the proof does not cover it)', async () => {
    // bob has his own record: a wildcard answer for bob is a forgery, and no NSEC covers bob.
    const records = wildTree('nsec');
    const wild = records
      .filter((r) => r.owner === OWNER)
      .map((r) => ({ ...r, owner: 'bob.user._bitcoin-payment.shop.test' }));
    const forged = [...records.filter((r) => !r.owner.startsWith('bob.')), ...wild];
    expectRefused(await check('bob@shop.test', forged), /comes from a wildcard/);
  });

  it('refuses NSEC3 with more iterations than RFC 9276 lets a validator take', async () => {
    expectRefused(
      await check(NAME, wildTree({ iterations: 150 })),
      /150 NSEC3 iterations; Hushdrop takes at most 100/,
    );
  });
});

/** The records without the DS set of `zone` and its signature. */
function withoutDs(records: Rec[], zone: string): Rec[] {
  const covers = (r: Rec, type: number) =>
    r.type === type || (r.type === T.RRSIG && r.rdata.readUInt16BE(0) === type);
  return records.filter((r) => !(r.owner === zone && covers(r, T.DS)));
}
