import { beforeAll, describe, expect, it } from 'vitest';
import { createRootCa, type Identity, issue } from '../../devkit/ca';
import type { PaymentDetailsInit } from '../../lib/payments/codec';
import { PaymentError } from '../../lib/payments/errors';
import { MAX_MONEY } from '../../lib/payments/limits';
import { createRootStore, EMPTY_ROOT_STORE, type RootStore } from '../../lib/payments/roots';
import { signedBytesOf } from '../../lib/payments/signature';
import { evaluatePaymentRequest } from '../../lib/payments/verify';
import { walkFields } from '../../lib/payments/wire';
import { type BuildOptions, buildPaymentRequest, P2PKH_SCRIPT, type Signer } from '../merchant/requests';
import { bytesField, concat, fixed32Field, fromHex, toHex, varintField } from '../merchant/wire';

const NOW = new Date();
const NOW_S = BigInt(Math.floor(NOW.getTime() / 1000));
const DAY = 86_400_000;

let root: Identity;
let root1: Identity;
let intermediate: Identity;
let leaf: Identity;
let leafViaIntermediate: Identity;
let roots: RootStore;
let signer: Signer;

const details = (extra: Partial<PaymentDetailsInit> = {}): PaymentDetailsInit => ({
  time: NOW_S,
  outputs: [{ amount: 150_000n, script: fromHex(P2PKH_SCRIPT) }],
  memo: 'Order 42',
  paymentUrl: 'https://shop.example/pay',
  merchantData: fromHex('c0ffee'),
  ...extra,
});

const evaluate = (bytes: Uint8Array, extra: Partial<Parameters<typeof evaluatePaymentRequest>[1]> = {}) =>
  evaluatePaymentRequest(bytes, { roots, now: NOW, ...extra });

const signedRequest = (extra: Partial<BuildOptions> = {}) =>
  buildPaymentRequest({ details: details(), signer, ...extra });

beforeAll(async () => {
  root = await createRootCa('Hushdrop Test Root CA');
  root1 = await createRootCa('Hushdrop SHA-1 Root CA', 'SHA-1');
  intermediate = await issue(root, { commonName: 'Hushdrop Test Issuing CA', isCa: true });
  leaf = await issue(root, {
    commonName: 'shop.example',
    organization: 'Example Shop Ltd',
    dnsNames: ['shop.example', '*.shop.example'],
  });
  leafViaIntermediate = await issue(intermediate, { commonName: 'deep.example', dnsNames: ['deep.example'] });
  roots = createRootStore([root.der, root1.der]);
  signer = { chain: [leaf.der], privateKey: leaf.keys.privateKey };
}, 60_000);

describe('own requests: signatures and chains', () => {
  it('SHA-256, leaf signed by the root → verified, naming merchant and CA', async () => {
    const result = await evaluate(await signedRequest());
    expect(result.reasons).toEqual([]);
    expect(result.verdict).toBe('verified');
    expect(result.merchant).toEqual({
      commonName: 'shop.example',
      organization: 'Example Shop Ltd',
      issuer: 'Hushdrop Test Root CA',
      trustAnchor: 'Hushdrop Test Root CA',
      dnsNames: ['shop.example', '*.shop.example'],
    });
    expect(result.details).toMatchObject({
      network: 'main',
      total: 150_000n,
      memo: 'Order 42',
      paymentUrl: 'https://shop.example/pay',
      merchantData: fromHex('c0ffee'),
    });
    expect(result.details.outputs[0]).toMatchObject({ type: 'p2pkh', address: expect.stringMatching(/^1/) });
  });

  it('x509+sha1 with SHA-1 certificates → verified, with a SHA-1 warning', async () => {
    const leaf1 = await issue(root1, { commonName: 'old.example', hash: 'SHA-1' });
    const bytes = await buildPaymentRequest({
      details: details(),
      pkiType: 'x509+sha1',
      signer: { chain: [leaf1.der], privateKey: leaf1.keys.privateKey },
    });
    const result = await evaluate(bytes);
    expect(result.verdict).toBe('verified');
    expect(result.pkiType).toBe('x509+sha1');
    expect(result.warnings.join(' ')).toMatch(/SHA-1/);
  });

  it('a signature made with a hash other than the pki_type says → invalid', async () => {
    const sha1Signed = await signedRequest({ pkiType: 'x509+sha256', signHash: 'SHA-1' });
    expect((await evaluate(sha1Signed)).verdict).toBe('invalid');
    const sha256Signed = await signedRequest({ pkiType: 'x509+sha1', signHash: 'SHA-256' });
    expect((await evaluate(sha256Signed)).verdict).toBe('invalid');
  });

  it('signing bytes without the empty field 5 (dropped instead of emptied) → invalid', async () => {
    const bytes = await signedRequest({
      tamperSignedBytes: (signed) => signed.subarray(0, signed.length - 2),
    });
    const result = await evaluate(bytes);
    expect(result.verdict).toBe('invalid');
    expect(result.reasons.join(' ')).toMatch(/signature does not match/);
  });

  it('chain through an intermediate, with or without the root included → verified', async () => {
    for (const chain of [
      [leafViaIntermediate.der, intermediate.der],
      [leafViaIntermediate.der, intermediate.der, root.der],
    ]) {
      const bytes = await buildPaymentRequest({
        details: details(),
        signer: { chain, privateKey: leafViaIntermediate.keys.privateKey },
      });
      const result = await evaluate(bytes);
      expect(result.reasons).toEqual([]);
      expect(result.merchant).toMatchObject({
        commonName: 'deep.example',
        issuer: 'Hushdrop Test Issuing CA',
        trustAnchor: 'Hushdrop Test Root CA',
      });
    }
  });

  it('a self-signed root sent in pki_data is not trusted because it was sent', async () => {
    const rogueRoot = await createRootCa('Hushdrop Test Root CA');
    const rogueLeaf = await issue(rogueRoot, { commonName: 'shop.example' });
    const bytes = await buildPaymentRequest({
      details: details(),
      signer: { chain: [rogueLeaf.der, rogueRoot.der], privateKey: rogueLeaf.keys.privateKey },
    });
    const result = await evaluate(bytes);
    expect(result.verdict).toBe('invalid');
    expect(result.merchant).toBeUndefined();
  });

  it('a CA with the same name but another key → invalid', async () => {
    const impostor = await createRootCa('Hushdrop Test Root CA');
    const fake = await issue(impostor, { commonName: 'shop.example' });
    const result = await evaluate(
      await buildPaymentRequest({
        details: details(),
        signer: { chain: [fake.der], privateKey: fake.keys.privateKey },
      }),
    );
    expect(result.verdict).toBe('invalid');
    expect(result.reasons.join(' ')).toMatch(/certificate authority we trust/);
  });

  it('no trusted roots at all → invalid, not unsigned', async () => {
    const result = await evaluate(await signedRequest(), { roots: EMPTY_ROOT_STORE });
    expect(result.verdict).toBe('invalid');
  });

  it('expired and not-yet-valid merchant certificates → invalid with the date', async () => {
    const expired = await issue(root, {
      commonName: 'late.example',
      notBefore: new Date(NOW.getTime() - 10 * DAY),
      notAfter: new Date(NOW.getTime() - 2 * DAY),
    });
    const early = await issue(root, {
      commonName: 'early.example',
      notBefore: new Date(NOW.getTime() + 2 * DAY),
      notAfter: new Date(NOW.getTime() + 10 * DAY),
    });
    for (const [identity, pattern] of [
      [expired, /expired on/],
      [early, /not valid before/],
    ] as const) {
      const result = await evaluate(
        await buildPaymentRequest({
          details: details(),
          signer: { chain: [identity.der], privateKey: identity.keys.privateKey },
        }),
      );
      expect(result.verdict).toBe('invalid');
      expect(result.reasons.join(' ')).toMatch(pattern);
    }
  });

  it('an intermediate that is not a CA, and a pathLen violation → invalid', async () => {
    const notCa = await issue(root, { commonName: 'not-a-ca.example' });
    const under = await issue(notCa, { commonName: 'under.example' });
    const tight = await issue(root, { commonName: 'Tight CA', isCa: true, pathLength: 0 });
    const sub = await issue(tight, { commonName: 'Sub CA', isCa: true });
    const deep = await issue(sub, { commonName: 'too-deep.example' });
    for (const [chain, key] of [
      [[under.der, notCa.der], under.keys.privateKey],
      [[deep.der, sub.der, tight.der], deep.keys.privateKey],
    ] as const) {
      const result = await evaluate(
        await buildPaymentRequest({ details: details(), signer: { chain: [...chain], privateKey: key } }),
      );
      expect(result.verdict).toBe('invalid');
    }
  });

  it('a leaf whose key usage forbids signing → invalid', async () => {
    const noSign = await issue(root, { commonName: 'nosign.example', keyUsage: 'none' });
    const result = await evaluate(
      await buildPaymentRequest({
        details: details(),
        signer: { chain: [noSign.der], privateKey: noSign.keys.privateKey },
      }),
    );
    expect(result.verdict).toBe('invalid');
  });

  it('signed by a key other than the leaf certificate’s → invalid', async () => {
    const result = await evaluate(
      await buildPaymentRequest({
        details: details(),
        signer: { chain: [leaf.der], privateKey: root.keys.privateKey },
      }),
    );
    expect(result.verdict).toBe('invalid');
    expect(result.reasons.join(' ')).toMatch(/signature does not match/);
  });

  it('more than 10 certificates → invalid', async () => {
    const chain = [leaf.der, ...Array.from({ length: 10 }, () => intermediate.der)];
    const result = await evaluate(
      await buildPaymentRequest({ details: details(), signer: { ...signer, chain } }),
    );
    expect(result.verdict).toBe('invalid');
    expect(result.reasons.join(' ')).toMatch(/at most 10/);
  });

  it('pageHost is compared with the certificate names (wildcards cover one label)', async () => {
    const bytes = await signedRequest();
    expect((await evaluate(bytes, { pageHost: 'shop.example' })).hostMatches).toBe(true);
    expect((await evaluate(bytes, { pageHost: 'pay.shop.example' })).hostMatches).toBe(true);
    expect((await evaluate(bytes, { pageHost: 'SHOP.example:8443' })).hostMatches).toBe(true);
    expect((await evaluate(bytes, { pageHost: 'a.b.shop.example' })).hostMatches).toBe(false);
    const other = await evaluate(bytes, { pageHost: 'shop.example.evil' });
    expect(other.hostMatches).toBe(false);
    expect(other.verdict).toBe('verified');
    expect(other.warnings.join(' ')).toMatch(/not the site you are on/);
    expect((await evaluate(bytes)).hostMatches).toBeUndefined();
  });
});

describe('own requests: stripping and tampering', () => {
  it('a stripped signature (pki_type none) → unsigned, flagged, no merchant name', async () => {
    const result = await evaluate(await buildPaymentRequest({ details: details() }));
    expect(result.verdict).toBe('unsigned');
    expect(result.merchant).toBeUndefined();
    expect(result.reasons).toEqual([]);
    expect(result.warnings[0]).toMatch(/not signed/);
    expect(result.hostMatches).toBeUndefined();
  });

  it('pki_type rewritten to none but signature data left in → unsigned, with a note', async () => {
    const signed = await signedRequest();
    const fields = walkFields(signed);
    const rebuilt = concat(
      ...fields.map((f) => (f.number === 2 ? bytesField(2, 'none') : signed.subarray(f.start, f.end))),
    );
    const result = await evaluate(rebuilt);
    expect(result.verdict).toBe('unsigned');
    expect(result.merchant).toBeUndefined();
    expect(result.warnings.join(' ')).toMatch(/carries signature data/);
  });

  it('changing any single byte of a signed request never leaves it verified', async () => {
    const bytes = await signedRequest();
    const original = await evaluate(bytes);
    expect(original.verdict).toBe('verified');
    let invalid = 0;
    let unreadable = 0;
    for (let i = 0; i < bytes.length; i++) {
      const altered = bytes.slice();
      altered[i]! ^= 0x01;
      try {
        const result = await evaluate(altered);
        expect(result.verdict, `byte ${i}`).not.toBe('verified');
        invalid++;
      } catch (error) {
        expect(error).toBeInstanceOf(PaymentError);
        unreadable++;
      }
    }
    expect(invalid + unreadable).toBe(bytes.length);
    expect(invalid).toBeGreaterThan(bytes.length / 2);
  }, 120_000);

  it('one altered amount byte → invalid with the signature reason', async () => {
    const bytes = await signedRequest();
    const at = toHex(bytes).indexOf(toHex(varintField(1, 150_000n))) / 2;
    const altered = bytes.slice();
    altered[at + 1]! += 1;
    const result = await evaluate(altered);
    expect(result.verdict).toBe('invalid');
    expect(result.details.outputs[0]!.amount).not.toBe(150_000n);
    expect(result.reasons).toEqual([expect.stringMatching(/signature does not match/)]);
  });

  it('two signature fields → invalid (ambiguous)', async () => {
    const bytes = await signedRequest();
    const result = await evaluate(concat(bytes, bytesField(5, fromHex('00'))));
    expect(result.verdict).toBe('invalid');
    expect(result.reasons.join(' ')).toMatch(/more than one signature/);
  });

  it('x509 pki_type without signature, without certificates, or with garbage certificates → invalid', async () => {
    const noSignature = await buildPaymentRequest({ details: details(), signer, order: [1, 2, 3, 4] });
    expect((await evaluate(noSignature)).reasons).toEqual([expect.stringMatching(/no signature/)]);
    const noCerts = concat(
      bytesField(2, 'x509+sha256'),
      bytesField(4, fromHex('1801')),
      bytesField(5, fromHex('00')),
    );
    expect((await evaluate(noCerts)).verdict).toBe('invalid');
    const garbage = concat(
      bytesField(2, 'x509+sha256'),
      bytesField(3, bytesField(1, fromHex('3003020101'))),
      bytesField(4, fromHex('1801')),
      bytesField(5, fromHex('00')),
    );
    const result = await evaluate(garbage);
    expect(result.verdict).toBe('invalid');
    expect(result.reasons.join(' ')).toMatch(/cannot be read/);
  });

  it('an unknown pki_type → invalid (unsupported), never unsigned', async () => {
    const result = await evaluate(await signedRequest({ pkiType: 'x509+sha512' }));
    expect(result.verdict).toBe('invalid');
    expect(result.reasons.join(' ')).toMatch(/unsupported kind of signature/);
  });
});

describe('own requests: wire layout', () => {
  it.each([[[4, 3, 2, 5, 1]], [[1, 2, 5, 3, 4]], [[5, 4, 3, 2, 1]], [[2, 'extra', 4, 3, 5]]] as const)(
    'fields in order %j still verify; signed bytes keep that order',
    async (order) => {
      const bytes = await signedRequest({
        order: [...order],
        version: 1,
        extraFields: [varintField(150, 3)],
      });
      const numbers = walkFields(bytes).map((f) => f.number);
      const expected = order.map((slot) => (slot === 'extra' ? 150 : slot));
      expect(numbers).toEqual(expected.includes(150) ? expected : expected.filter((n) => n !== 150));
      const signed = signedBytesOf(bytes);
      expect(walkFields(signed).map((f) => f.number)).toEqual(numbers);
      const result = await evaluate(bytes);
      expect(result.reasons).toEqual([]);
      expect(result.verdict).toBe('verified');
    },
  );

  it('unknown fields numbered 100 and above (top level, details, outputs) are kept and signed over', async () => {
    const output = concat(varintField(1, 5_000n), bytesField(2, fromHex(P2PKH_SCRIPT)), varintField(101, 9));
    const rawDetails = concat(
      bytesField(2, output),
      varintField(3, NOW_S),
      bytesField(100, 'extension'),
      fixed32Field(8, fromHex('0000803f')),
      varintField(1000, 1),
    );
    const bytes = await buildPaymentRequest({
      details: rawDetails,
      signer,
      extraFields: [bytesField(100, 'top'), varintField(999_999, 7)],
    });
    const result = await evaluate(bytes);
    expect(result.verdict).toBe('verified');
    expect(result.details.unknownFieldCount).toBe(6);
    expect(result.details.outputs[0]!.amount).toBe(5_000n);
  });

  it('an explicit default (version 1, network "main") is part of the signed bytes', async () => {
    const bytes = await buildPaymentRequest({ details: details({ network: 'main' }), signer, version: 1 });
    expect(walkFields(bytes)[0]!.number).toBe(1);
    expect((await evaluate(bytes)).verdict).toBe('verified');
  });
});

describe('own requests: content rules', () => {
  it('version 2 → invalid', async () => {
    const result = await evaluate(await signedRequest({ version: 2 }));
    expect(result.verdict).toBe('invalid');
    expect(result.reasons).toEqual([expect.stringMatching(/version 2/)]);
  });

  it('network test on a main wallet → flagged; unknown network → invalid', async () => {
    const test = await buildPaymentRequest({ details: details({ network: 'test' }), signer });
    const onMain = await evaluate(test, { expectedNetwork: 'main' });
    expect(onMain.networkMatches).toBe(false);
    expect(onMain.details.outputs[0]!.address).toMatch(/^[mn]/);
    expect(onMain.warnings.join(' ')).toMatch(/test network/);
    expect((await evaluate(test, { expectedNetwork: 'test' })).networkMatches).toBe(true);
    const main = await signedRequest();
    expect((await evaluate(main, { expectedNetwork: 'test' })).networkMatches).toBe(false);
    const regtest = await evaluate(
      await buildPaymentRequest({ details: details({ network: 'regtest' }), signer }),
    );
    expect(regtest.verdict).toBe('invalid');
    expect(regtest.reasons.join(' ')).toMatch(/unknown network "regtest"/);
    expect(regtest.details.outputs[0]!.address).toBeUndefined();
  });

  it('no outputs → invalid', async () => {
    const result = await evaluate(await buildPaymentRequest({ details: details({ outputs: [] }), signer }));
    expect(result.verdict).toBe('invalid');
    expect(result.reasons).toEqual(['This payment request lists no outputs to pay to.']);
  });

  it('amounts: exactly 21,000,000 BTC is fine; one satoshi more, 2^64-1, or a total above it → invalid', async () => {
    const script = fromHex(P2PKH_SCRIPT);
    const verdictFor = async (amounts: bigint[]) =>
      (
        await evaluate(
          await buildPaymentRequest({
            details: details({ outputs: amounts.map((amount) => ({ amount, script })) }),
            signer,
          }),
        )
      ).verdict;
    expect(await verdictFor([MAX_MONEY])).toBe('verified');
    expect(await verdictFor([0n])).toBe('verified');
    expect(await verdictFor([MAX_MONEY + 1n])).toBe('invalid');
    expect(await verdictFor([(1n << 64n) - 1n])).toBe('invalid');
    expect(await verdictFor([MAX_MONEY, 1n])).toBe('invalid');
    expect(await verdictFor([MAX_MONEY / 2n, MAX_MONEY / 2n])).toBe('verified');
  });

  it.each([
    [0n, true],
    [1n, true],
    [NOW_S - 1n, true],
    [NOW_S, false],
    [NOW_S + 1n, false],
    [(1n << 63n) - 1n, false],
    [1n << 63n, false],
    [(1n << 64n) - 1n, false],
  ])('expires = %s → expired %s', async (expires, expired) => {
    const result = await evaluate(await buildPaymentRequest({ details: details({ expires }), signer }));
    expect(result.expired).toBe(expired);
    expect(result.details.expires).toBe(expires);
    expect(result.verdict).toBe('verified');
  });

  it('no expires → never expired', async () => {
    expect((await evaluate(await signedRequest())).expired).toBe(false);
  });

  it('outputs are shown as addresses per type; other scripts are custom and flagged', async () => {
    const scripts = [
      [`76a914${'11'.repeat(20)}88ac`, 'p2pkh', /^m/],
      [`a914${'22'.repeat(20)}87`, 'p2sh', /^2/],
      [`0014${'33'.repeat(20)}`, 'p2wpkh', /^tb1q/],
      [`0020${'44'.repeat(32)}`, 'p2wsh', /^tb1q/],
      [`5120${'55'.repeat(32)}`, 'p2tr', /^tb1p/],
      ['6a0474657374', 'custom', undefined],
    ] as const;
    const result = await evaluate(
      await buildPaymentRequest({
        details: details({
          network: 'test',
          outputs: scripts.map(([s]) => ({ amount: 1n, script: fromHex(s) })),
        }),
        signer,
      }),
    );
    expect(result.details.total).toBe(6n);
    scripts.forEach(([, type, pattern], i) => {
      const output = result.details.outputs[i]!;
      expect(output.type).toBe(type);
      if (pattern) expect(output.address).toMatch(pattern);
      else expect(output.address).toBeUndefined();
    });
    expect(result.warnings.join(' ')).toMatch(/Output 6 pays to a custom script/);
  });

  it('memo and payment URL are untrusted data, returned verbatim', async () => {
    const memo = '<img src=x onerror=alert(1)> & <script>alert(2)</script>';
    const result = await evaluate(
      await buildPaymentRequest({ details: details({ memo, paymentUrl: 'javascript:alert(1)' }), signer }),
    );
    expect(result.details.memo).toBe(memo);
    expect(result.details.paymentUrl).toBe('javascript:alert(1)');
    expect(result.warnings.join(' ')).toMatch(/not a web address/);
  });

  it('a plain-http payment URL is flagged', async () => {
    const result = await evaluate(
      await buildPaymentRequest({ details: details({ paymentUrl: 'http://shop.example/pay' }) }),
    );
    expect(result.warnings.join(' ')).toMatch(/plain http/);
  });

  it('oversized input is refused before decoding; exactly 50,000 bytes is read', async () => {
    const small = await buildPaymentRequest({ details: details() });
    const pad = (target: number) => {
      const filler = target - small.length - 5; // tag 200 and a 3-byte length
      return concat(small, bytesField(200, new Uint8Array(filler)));
    };
    const exact = pad(50_000);
    expect(exact.length).toBe(50_000);
    expect((await evaluate(exact)).verdict).toBe('unsigned');
    await expect(evaluate(concat(exact, fromHex('00')))).rejects.toMatchObject({ code: 'too-large' });
  });

  it('unreadable details → PaymentError, not a verdict', async () => {
    await expect(evaluate(bytesField(4, fromHex('ff')))).rejects.toBeInstanceOf(PaymentError);
    await expect(evaluate(bytesField(4, bytesField(5, 'no time')))).rejects.toMatchObject({
      code: 'malformed',
    });
  });
});
