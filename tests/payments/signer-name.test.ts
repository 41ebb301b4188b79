// "Signed by" names what the chain vouches for (lib/payments/signer-name.ts): the leaf's SAN DNS
// names, else its CN only after the CN passed every DNS name constraint of the chain. pkijs checks
// constraints on SAN DNS names only, so without our check a name-constrained CA (or a root the
// person added) could put any CN in the heading. Chains are made here, valid around now.
import { beforeAll, describe, expect, it } from 'vitest';
import { createRootCa, type Identity, type IssueOptions, issue } from '../../devkit/ca';
import { createRootStore, type RootStore } from '../../lib/payments/roots';
import { inDnsSubtree } from '../../lib/payments/signer-name';
import { evaluatePaymentRequest } from '../../lib/payments/verify';
import { buildPaymentRequest, P2PKH_SCRIPT } from '../merchant/requests';
import { fromHex } from '../merchant/wire';

const NOW = new Date();

let root: Identity;
/** A sub-CA that may vouch for example.com and its subdomains only. */
let constrained: Identity;
/** A sub-CA that may vouch for anything but bank.com. */
let excluding: Identity;
/** A root the person added themselves, limited to corp.example. */
let addedRoot: Identity;
let roots: RootStore;

beforeAll(async () => {
  root = await createRootCa('Hushdrop Names Root CA');
  constrained = await issue(root, {
    commonName: 'Example Constrained CA',
    isCa: true,
    permittedDns: ['example.com'],
  });
  excluding = await issue(root, { commonName: 'Not-Bank CA', isCa: true, excludedDns: ['bank.com'] });
  addedRoot = await issue(null, { commonName: 'Corp Root CA', isCa: true, permittedDns: ['corp.example'] });
  roots = createRootStore([root.der, addedRoot.der]);
}, 60_000);

/** A request signed by a leaf that `issuer` issues with `options`, judged now. */
async function judge(issuer: Identity, options: IssueOptions) {
  const leaf = await issue(issuer, options);
  const chain = issuer === root || issuer === addedRoot ? [leaf.der] : [leaf.der, issuer.der];
  const bytes = await buildPaymentRequest({
    details: {
      time: BigInt(Math.floor(NOW.getTime() / 1000)),
      outputs: [{ amount: 1000n, script: fromHex(P2PKH_SCRIPT) }],
    },
    signer: { chain, privateKey: leaf.keys.privateKey },
  });
  return evaluatePaymentRequest(bytes, { roots, now: NOW });
}

describe('the name "Signed by" shows', () => {
  it('a CA limited to example.com cannot name bank.com in a CN without SAN: invalid, with the reason', async () => {
    const result = await judge(constrained, { commonName: 'bank.com' });
    expect(result.verdict).toBe('invalid');
    expect(result.merchant).toBeUndefined();
    expect(result.reasons).toEqual([
      'The merchant\'s certificate names "bank.com", which "Example Constrained CA" may not vouch for: its name constraints do not allow that name.',
    ]);
  });

  it('with a SAN, the SAN DNS name, never the CN beside it', async () => {
    const result = await judge(constrained, { commonName: 'bank.com', dnsNames: ['shop.example.com'] });
    expect(result.reasons).toEqual([]);
    expect(result.verdict).toBe('verified');
    expect(result.merchant?.commonName).toBe('shop.example.com');
    expect(result.merchant?.dnsNames).toEqual(['shop.example.com']);
  });

  it('with a SAN and no constraints anywhere, still the SAN name, not the CN', async () => {
    const result = await judge(root, { commonName: 'Totally Your Bank', dnsNames: ['shop.example'] });
    expect(result.verdict).toBe('verified');
    expect(result.merchant?.commonName).toBe('shop.example');
  });

  it('a CN inside the permitted subtree, without SAN: the CN', async () => {
    for (const name of ['example.com', 'shop.example.com', 'SHOP.Example.COM.']) {
      const result = await judge(constrained, { commonName: name });
      expect(result.reasons).toEqual([]);
      expect(result.merchant?.commonName).toBe(name);
    }
  });

  it('a CN that only ends in the permitted letters is outside it (labels, not text)', async () => {
    for (const name of ['badexample.com', 'example.com.evil', 'Example Bank']) {
      const result = await judge(constrained, { commonName: name });
      expect(result.verdict).toBe('invalid');
      expect(result.reasons[0]).toContain(`"${name}"`);
    }
  });

  it('a CN in an excluded subtree, without SAN: invalid', async () => {
    for (const name of ['bank.com', 'login.bank.com']) {
      const result = await judge(excluding, { commonName: name });
      expect(result.verdict).toBe('invalid');
      expect(result.reasons[0]).toContain('"Not-Bank CA"');
    }
    expect((await judge(excluding, { commonName: 'shop.example' })).merchant?.commonName).toBe(
      'shop.example',
    );
  });

  it('the constraints of a root the person added hold for its CN and its SAN names too', async () => {
    const cn = await judge(addedRoot, { commonName: 'bank.com' });
    expect(cn.verdict).toBe('invalid');
    expect(cn.reasons[0]).toContain('"Corp Root CA"');
    const san = await judge(addedRoot, { commonName: 'intranet', dnsNames: ['bank.com'] });
    expect(san.verdict).toBe('invalid');
    expect(san.merchant).toBeUndefined();
    const inside = await judge(addedRoot, { commonName: 'bank.com', dnsNames: ['pay.corp.example'] });
    expect(inside.verdict).toBe('verified');
    expect(inside.merchant?.commonName).toBe('pay.corp.example');
  });

  it('a SAN name outside an intermediate’s constraints: invalid (pkijs refuses the chain)', async () => {
    const result = await judge(constrained, { commonName: 'shop.example.com', dnsNames: ['bank.com'] });
    expect(result.verdict).toBe('invalid');
    expect(result.merchant).toBeUndefined();
  });
});

describe('inDnsSubtree', () => {
  it('holds the base and the names below it, label by label, in any case, final dot or not', () => {
    expect(inDnsSubtree('example.com', 'example.com')).toBe(true);
    expect(inDnsSubtree('a.b.Example.COM.', 'example.com')).toBe(true);
    expect(inDnsSubtree('*.example.com', 'example.com')).toBe(true);
    expect(inDnsSubtree('badexample.com', 'example.com')).toBe(false);
    expect(inDnsSubtree('example.com.evil', 'example.com')).toBe(false);
    expect(inDnsSubtree('com', 'example.com')).toBe(false);
  });

  it('a base with a leading dot holds only names below it; an empty base holds every name', () => {
    expect(inDnsSubtree('shop.example.com', '.example.com')).toBe(true);
    expect(inDnsSubtree('example.com', '.example.com')).toBe(false);
    expect(inDnsSubtree('anything.at.all', '')).toBe(true);
  });
});
