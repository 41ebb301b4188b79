// Looking a BIP 353 name up through a DNS-over-HTTPS resolver (RFC 8484), against the small test
// resolver in tests/dnssec (real HTTP on loopback, records signed at test time under a test root):
// the queries it makes, the chain it gathers checked as a proof is, a resolver that vouches (AD)
// for a changed signature not believed, and a plain user@domain falling back to the Lightning
// Address (the local LNURL service) only when the name gives no answer, saying why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookUpName } from '../../lib/payments/bip353/look-up';
import { parseBip353Name } from '../../lib/payments/bip353/name';
import { resolveName } from '../../lib/payments/bip353/resolve';
import { readAnchorLine } from '../../lib/payments/dnssec/anchors';
import { dohQueryUrl } from '../../lib/payments/dnssec/doh';
import { nameFromText } from '../../lib/payments/dnssec/wire';
import { PaymentError } from '../../lib/payments/errors';
import { fetchPayParams, parseLnurl } from '../../lib/payments/lnurl';
import { sourceFromText } from '../../lib/payments/page-input';
import { type DohServer, startDohServer } from '../dnssec/doh-server';
import { signTree, T, txtOwner, withBadSignature, Zone } from '../dnssec/zones';
import { type LnurlService, startLnurlService } from '../lnurl/server';

const ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const now = new Date();
const validity = {
  inception: new Date(now.getTime() - 3600_000),
  expiration: new Date(now.getTime() + 86_400_000),
};

let root: Zone;
let doh: DohServer;
let lnurl: LnurlService;
let records: ReturnType<typeof signTree>;

beforeAll(async () => {
  root = new Zone('.', { algorithm: 13 });
  const tld = new Zone('test.', { algorithm: 13 });
  const shop = new Zone('shop.test.', { algorithm: 15 });
  shop.txt(txtOwner('alice', 'shop.test'), `bitcoin:${ADDRESS}?amount=0.0015`);
  records = signTree([root, tld, shop], validity);
  doh = await startDohServer(records);
  lnurl = await startLnurlService();
});

afterAll(async () => {
  await doh?.close();
  await lnurl?.close();
});

const nodeFetch = (input: string, init: RequestInit) => fetch(input, init);
const options = () => ({
  resolver: doh.url,
  fetch: nodeFetch,
  anchors: [readAnchorLine(root.anchorLine())],
  now,
});

describe('a name looked up through DNS over HTTPS', () => {
  it('asks for the TXT records, then each zone’s keys and DS records, and verifies the name', async () => {
    doh.setRecords(records);
    doh.asked.length = 0;
    const { checked, problem } = await resolveName(parseBip353Name('₿alice@shop.test'), options());
    expect(problem).toBeUndefined();
    expect(checked).toMatchObject({
      kind: 'bip353',
      verdict: 'verified',
      payee: ADDRESS,
      amount: { value: 150_000n, unit: 'sat' },
      bip353: { via: 'resolver', resolver: doh.url, zones: ['.', 'test', 'shop.test'] },
    });
    expect(doh.asked).toEqual([
      `alice.user._bitcoin-payment.shop.test. ${T.TXT}`,
      `shop.test. ${T.DNSKEY}`,
      `shop.test. ${T.DS}`,
      `test. ${T.DNSKEY}`,
      `test. ${T.DS}`,
      `. ${T.DNSKEY}`,
    ]);
  });

  it('sends RFC 8484 GET queries with ID 0, recursion desired, checking disabled and DNSSEC OK', () => {
    const url = new URL(dohQueryUrl('https://dns.example/dns-query?ct', nameFromText('a.example'), T.TXT));
    const bytes = Buffer.from(url.searchParams.get('dns')!, 'base64url');
    expect(url.searchParams.get('ct')).toBe('');
    // ID 0, flags RD | CD, one question, one OPT record with the DO bit.
    expect(bytes.subarray(0, 12).toString('hex')).toBe('000001100001000000000001');
    expect(bytes.subarray(-11).toString('hex')).toBe('00002910000000800000' + '00');
  });

  it('refuses a changed signature although the resolver sets the AD bit on its answer', async () => {
    doh.setRecords(withBadSignature(records, txtOwner('alice', 'shop.test'), T.TXT));
    const { checked, problem } = await resolveName(parseBip353Name('alice@shop.test'), options());
    expect(checked.verdict).toBe('invalid');
    expect(problem).toBeInstanceOf(PaymentError);
    expect(checked.reasons[0]).toMatch(/signature on the TXT records of .* does not match them/);
  });

  it('says a name the resolver holds nothing for has no record', async () => {
    doh.setRecords(records);
    const { checked } = await resolveName(parseBip353Name('₿bob@shop.test'), options());
    expect(checked.verdict).toBe('invalid');
    expect(checked.reasons[0]).toBe('There is no TXT record at bob.user._bitcoin-payment.shop.test.');
  });

  it('fails with a sentence when the resolver is not there', async () => {
    const gone = { ...options(), resolver: 'http://127.0.0.1:9/dns-query' };
    await expect(resolveName(parseBip353Name('₿alice@shop.test'), gone)).rejects.toMatchObject({
      code: 'unreachable',
      message: 'The DNS resolver 127.0.0.1:9 could not be reached.',
    });
  });
});

describe('₿name, and a plain user@domain', () => {
  const deps = (resolver: string) => ({
    resolve: (name: ReturnType<typeof parseBip353Name>) => resolveName(name, { ...options(), resolver }),
    // The Lightning Address's site is the local LNURL service (a test name has no web site).
    lightning: () => fetchPayParams(parseLnurl(lnurl.address('alice')), { fetch: nodeFetch }),
    now,
  });

  it('reads ₿user@domain as a name only, and user@domain as a Lightning Address that is also a name', () => {
    expect(sourceFromText('₿alice@shop.test')).toMatchObject({
      kind: 'name',
      name: { display: '₿alice@shop.test' },
    });
    expect(sourceFromText('alice@shop.test')).toMatchObject({
      kind: 'lnurl',
      target: { url: 'https://shop.test/.well-known/lnurlp/alice' },
      name: { display: '₿alice@shop.test' },
    });
    // Explicitly Lightning, or not a name: as before.
    expect(sourceFromText('lightning:alice@shop.test')).not.toHaveProperty('name');
    expect(sourceFromText(lnurl.address('alice'))).not.toHaveProperty('name');
  });

  it('answers user@domain as a BIP 353 name when the name holds', async () => {
    doh.setRecords(records);
    const source = sourceFromText('alice@shop.test');
    if (source.kind !== 'lnurl' || !source.name) throw new Error('not a name');
    const checked = await lookUpName({ ...source, name: source.name }, deps(doh.url));
    expect(checked).toMatchObject({ kind: 'bip353', verdict: 'verified', lookup: { answeredBy: 'bip353' } });
  });

  it('falls back to the Lightning Address when the name gives no answer, saying why', async () => {
    doh.setRecords(records);
    const source = sourceFromText('bob@shop.test');
    if (source.kind !== 'lnurl' || !source.name) throw new Error('not a name');
    const checked = await lookUpName({ ...source, name: source.name }, deps(doh.url));
    expect(checked).toMatchObject({
      kind: 'lnurl',
      verdict: 'unsigned',
      lookup: {
        answeredBy: 'lightning-address',
        why: 'There is no TXT record at bob.user._bitcoin-payment.shop.test.',
      },
    });
    expect(checked.lnurl?.params?.description).toMatch(/Tea for alice/);
  });

  it('falls back when the resolver is not there, and never for a ₿ name', async () => {
    const source = sourceFromText('alice@shop.test');
    if (source.kind !== 'lnurl' || !source.name) throw new Error('not a name');
    const gone = deps('http://127.0.0.1:9/dns-query');
    const checked = await lookUpName({ ...source, name: source.name }, gone);
    expect(checked.lookup).toEqual({
      answeredBy: 'lightning-address',
      why: 'The DNS resolver 127.0.0.1:9 could not be reached.',
    });
    const named = sourceFromText('₿alice@shop.test');
    if (named.kind !== 'name') throw new Error('not a ₿ name');
    await expect(lookUpName(named, gone)).rejects.toMatchObject({ code: 'unreachable' });
  });
});
