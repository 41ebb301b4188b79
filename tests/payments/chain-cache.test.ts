// What makes judging signed requests fast (parsed certificates cached, roots indexed, keys kept)
// must never change a verdict: these cases are judged on first sight and again from the caches.
import { beforeAll, describe, expect, it } from 'vitest';
import { createRootCa, type Identity, issue } from '../../devkit/ca';
import { createCertificateCache } from '../../lib/payments/certificate-cache';
import { validateChain } from '../../lib/payments/chain';
import { PaymentError } from '../../lib/payments/errors';
import { createRootStore, type RootStore } from '../../lib/payments/roots';
import { evaluatePaymentRequest } from '../../lib/payments/verify';
import { buildPaymentRequest, P2PKH_SCRIPT } from '../merchant/requests';
import { fromHex } from '../merchant/wire';
import { watchedSubtle } from './watched-subtle';

const NOW = new Date();

let root: Identity;
let twin: Identity;
let roots: RootStore;

beforeAll(async () => {
  root = await createRootCa('Hushdrop Cache Root CA');
  // Same name, another key: both are trusted, and each must be told apart by its signature.
  twin = await createRootCa('Hushdrop Cache Root CA');
  roots = createRootStore([twin.der, root.der]);
}, 60_000);

const request = (chain: Uint8Array[], privateKey: CryptoKey) =>
  buildPaymentRequest({
    details: { time: 1n, outputs: [{ amount: 1000n, script: fromHex(P2PKH_SCRIPT) }] },
    signer: { chain, privateKey },
  });

describe('certificate cache', () => {
  it('gives the same parsed certificate for the same bytes, and forgets the least recently used', async () => {
    const cache = createCertificateCache(2);
    const a = await issue(root, { commonName: 'a.example' });
    const b = await issue(root, { commonName: 'b.example' });
    const c = await issue(root, { commonName: 'c.example' });
    const first = cache.parse(a.der);
    expect(cache.parse(Uint8Array.from(a.der))).toBe(first);
    cache.parse(b.der);
    cache.parse(a.der); // a is now the most recently used
    cache.parse(c.der); // b goes
    expect(cache.parse(a.der)).toBe(first);
    const bAgain = cache.parse(b.der);
    expect(bAgain.subject.isEqual(b.certificate.subject)).toBe(true);
  });

  it('refuses unreadable bytes every time, without keeping them', () => {
    const cache = createCertificateCache();
    for (let i = 0; i < 2; i++)
      expect(() => cache.parse(Uint8Array.of(0x30, 0x03, 1, 2))).toThrow(PaymentError);
  });
});

describe('verdicts do not depend on the caches', () => {
  it('two roots with the same name: the path ends at the one whose key signed', async () => {
    for (const signer of [root, twin]) {
      const leaf = await issue(signer, { commonName: 'shop.example' });
      for (const certificates of [createCertificateCache(), undefined, undefined]) {
        const result = await validateChain([leaf.der], {
          roots,
          now: NOW,
          subtle: crypto.subtle,
          ...(certificates ? { certificates } : {}),
        });
        expect(result.ok).toBe(true);
        if (result.ok) expect(result.anchor.tbsView).toEqual(signer.certificate.tbsView);
      }
    }
  });

  it('an issuer name that differs in case and spacing finds its root, as pkijs compares names', async () => {
    const plainRoot = await issue(null, { commonName: 'Spacing Root CA', isCa: true });
    const leaf = await issue(plainRoot, { commonName: 'shop.example', issuerName: '  spacing   ROOT ca ' });
    const result = await validateChain([leaf.der], {
      roots: createRootStore([plainRoot.der]),
      now: NOW,
      subtle: crypto.subtle,
    });
    expect(result.ok).toBe(true);
  });

  it('good, rogue and expired requests get the same verdict on first sight and when judged again', async () => {
    const intermediate = await issue(root, { commonName: 'Hushdrop Cache Issuing CA', isCa: true });
    const deep = await issue(intermediate, { commonName: 'deep.example' });
    const rogueRoot = await createRootCa('Hushdrop Cache Root CA');
    const rogue = await issue(rogueRoot, { commonName: 'shop.example' });
    const old = await issue(root, {
      commonName: 'old.example',
      notBefore: new Date(NOW.getTime() - 10 * 86_400_000),
      notAfter: new Date(NOW.getTime() - 86_400_000),
    });
    const cases = [
      {
        bytes: await request([deep.der, intermediate.der, root.der], deep.keys.privateKey),
        verdict: 'verified',
      },
      { bytes: await request([deep.der, intermediate.der], deep.keys.privateKey), verdict: 'verified' },
      { bytes: await request([rogue.der, rogueRoot.der], rogue.keys.privateKey), verdict: 'invalid' },
      { bytes: await request([old.der], old.keys.privateKey), verdict: 'invalid' },
    ];
    for (const { bytes, verdict } of cases) {
      const fresh = await evaluatePaymentRequest(bytes, {
        roots,
        now: NOW,
        certificates: createCertificateCache(),
      });
      expect(fresh.verdict).toBe(verdict);
      for (let again = 0; again < 2; again++) {
        const cached = await evaluatePaymentRequest(bytes, { roots, now: NOW });
        expect(cached.verdict).toBe(verdict);
        expect(cached.reasons).toEqual(fresh.reasons);
        expect(cached.merchant).toEqual(fresh.merchant);
      }
    }
  });
});

describe('first sight checks each signature once', () => {
  let older: Identity;
  let issuing: Identity;
  let leaf: Identity;
  /** The root's key and name, vouched for by an older root: a cross-signed copy sent along. */
  let crossSigned: Identity;

  beforeAll(async () => {
    older = await createRootCa('Hushdrop Cache Older Root');
    issuing = await issue(root, { commonName: 'Hushdrop Cache Issuing CA 2', isCa: true });
    leaf = await issue(issuing, { commonName: 'shop.example' });
    crossSigned = await issue(older, {
      commonName: 'Hushdrop Cache Root CA',
      organization: 'Hushdrop tests',
      isCa: true,
      publicKey: root.keys.publicKey,
    });
  }, 60_000);

  const judge = async (store: RootStore, chain: Uint8Array[]) => {
    const { subtle, counted } = watchedSubtle();
    const result = await evaluatePaymentRequest(await request(chain, leaf.keys.privateKey), {
      roots: store,
      now: NOW,
      subtle,
      certificates: createCertificateCache(),
    });
    return { result, verifies: counted.verify };
  };

  it('a root listed twice and a cross-signed copy of it: three checks (request, leaf, issuing CA)', async () => {
    // Before: the issuing CA was checked against both listings of the root and against the copy
    // (one key, three objects), and the copy against the older root, which pkijs never asks about.
    const { result, verifies } = await judge(createRootStore([root.der, older.der, root.der]), [
      leaf.der,
      issuing.der,
      crossSigned.der,
    ]);
    expect(result.verdict).toBe('verified');
    expect(result.merchant?.trustAnchor).toBe('Hushdrop Cache Root CA');
    expect(verifies).toBe(3);
  });

  it('with the root missing, the path goes through the copy to the older root', async () => {
    const { result } = await judge(createRootStore([older.der]), [leaf.der, issuing.der, crossSigned.der]);
    expect(result.reasons).toEqual([]);
    expect(result.verdict).toBe('verified');
    expect(result.merchant?.trustAnchor).toBe('Hushdrop Cache Older Root');
  });

  it('a root of the right name but another key: the checks not started ahead are made when asked', async () => {
    // The twin bears the issuing CA's issuer name, so the copy is not walked ahead of time; its
    // signature by the older root is checked when pkijs asks, and the path ends there.
    const { result } = await judge(createRootStore([twin.der, older.der]), [
      leaf.der,
      issuing.der,
      crossSigned.der,
    ]);
    expect(result.reasons).toEqual([]);
    expect(result.verdict).toBe('verified');
    expect(result.merchant?.trustAnchor).toBe('Hushdrop Cache Older Root');
  });
});
