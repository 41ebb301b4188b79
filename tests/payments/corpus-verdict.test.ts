import { describe, expect, it } from 'vitest';
import {
  CORPUS_ABSENT_MESSAGE,
  certificateFixture,
  fixture,
  HAVE_CORPUS,
  REQUEST_FIXTURES,
} from '../../devkit/corpus';
import { formatDate } from '../../lib/i18n';
import { displayNameOf, parseCertificate } from '../../lib/payments/certificates';
import { decodePaymentRequest, decodeX509Certificates } from '../../lib/payments/codec';
import { formatTime } from '../../lib/payments/expiry';
import { bundledRootStore, createRootStore, EMPTY_ROOT_STORE } from '../../lib/payments/roots';
import { evaluatePaymentRequest } from '../../lib/payments/verify';

const at = (seconds: number) => new Date(seconds * 1000);
const byFile = (file: string) => REQUEST_FIXTURES.find((f) => f.file === file)!;

async function evaluateFixture(
  file: string,
  extra: { now?: Date; roots?: string[]; pageHost?: string } = {},
) {
  const f = byFile(file);
  return evaluatePaymentRequest(fixture(file), {
    roots: createRootStore((extra.roots ?? f.roots).map(certificateFixture)),
    now: extra.now ?? at(f.at),
    ...(extra.pageHost ? { pageHost: extra.pageHost } : {}),
  });
}

if (!HAVE_CORPUS) {
  describe('real-world BIP70 corpus verdicts', () => {
    it.skip(CORPUS_ABSENT_MESSAGE, () => {});
  });
}

describe.runIf(HAVE_CORPUS)('real-world corpus: verdicts at the manifest times', () => {
  it.each(REQUEST_FIXTURES.filter((f) => f.file !== 'core-paymentrequest5-cert2.bin'))(
    '$file: chain ok = $chainOk against $roots',
    async (f) => {
      const result = await evaluateFixture(f.file);
      if (f.chainOk) {
        expect(result.reasons).toEqual([]);
        expect(result.verdict).toBe('verified');
        expect(result.merchant?.commonName).toBe(f.leafCommonName);
      } else {
        expect(result.verdict).toBe('invalid');
        expect(result.merchant).toBeUndefined();
        expect(result.reasons.length).toBeGreaterThan(0);
      }
      expect(result.details.outputs).toEqual([
        { amount: f.amount, script: f.script, type: 'p2pkh', address: expect.any(String) },
      ]);
      if (f.address) expect(result.details.outputs[0]!.address).toBe(f.address);
      expect(result.details.outputs[0]!.address![0]).toMatch(f.network === 'main' ? /1/ : /[mn]/);
      expect(result.details.total).toBe(f.amount);
    },
  );

  describe('Bitcoin Core vectors', () => {
    it('1-cert1: verified as testmerchant.org with cacert1 as the only root', async () => {
      const result = await evaluateFixture('core-paymentrequest1-cert1.bin');
      expect(result.verdict).toBe('verified');
      expect(result.merchant).toMatchObject({
        commonName: 'testmerchant.org',
        organization: 'Payment Request Test Merchant',
        issuer: 'PaymentRequest Test CA',
        trustAnchor: 'PaymentRequest Test CA',
      });
      expect(result.details).toMatchObject({ network: 'main', memo: 'UnitTestOne', time: 1366388914n });
      expect(result.expired).toBe(false);
    });

    it('1-cert1: NOT verified with an empty root store (invalid, not unsigned)', async () => {
      const result = await evaluatePaymentRequest(fixture('core-paymentrequest1-cert1.bin'), {
        roots: EMPTY_ROOT_STORE,
        now: at(1366400000),
      });
      expect(result.verdict).toBe('invalid');
      expect(result.merchant).toBeUndefined();
      expect(result.reasons.join(' ')).toMatch(/certificate authority we trust/);
    });

    it('1-cert1: NOT verified with only cacert2 (same CA name, different key)', async () => {
      const result = await evaluateFixture('core-paymentrequest1-cert1.bin', { roots: ['core-cacert2.der'] });
      expect(result.verdict).toBe('invalid');
    });

    it('2-cert1: the merchant certificate has expired → invalid', async () => {
      const result = await evaluateFixture('core-paymentrequest2-cert1.bin');
      expect(result.verdict).toBe('invalid');
      const request = decodePaymentRequest(fixture('core-paymentrequest2-cert1.bin'));
      const leaf = parseCertificate(decodeX509Certificates(request.pkiData!)[0]!);
      expect(leaf.notAfter.value.toISOString().slice(0, 10)).toBe('2013-02-24');
      // The date as the language writes it, in this machine's time zone.
      const day = formatDate(leaf.notAfter.value, { timeStyle: undefined });
      expect(result.reasons).toEqual([`The merchant's certificate expired on ${day}.`]);
    });

    it('3-cert1: a 10-long chain verifies as testmerchant8.org', async () => {
      const result = await evaluateFixture('core-paymentrequest3-cert1.bin');
      expect(result.verdict).toBe('verified');
      expect(result.merchant?.commonName).toBe('testmerchant8.org');
    });

    it('4-cert1: an expired intermediate → invalid, naming it', async () => {
      const result = await evaluateFixture('core-paymentrequest4-cert1.bin');
      expect(result.verdict).toBe('invalid');
      expect(result.reasons.join(' ')).toContain('testca5.org');
    });

    it('5-cert1: signed by another CA with the same name → invalid', async () => {
      const result = await evaluateFixture('core-paymentrequest5-cert1.bin');
      expect(result.verdict).toBe('invalid');
      expect(result.reasons.join(' ')).toMatch(/certificate authority we trust/);
    });

    it('1-cert2: a test-network request is flagged on a main-network wallet', async () => {
      const result = await evaluatePaymentRequest(fixture('core-paymentrequest1-cert2.bin'), {
        roots: createRootStore([certificateFixture('core-cacert2.der')]),
        now: at(1423000000),
        expectedNetwork: 'main',
      });
      expect(result.details.network).toBe('test');
      expect(result.networkMatches).toBe(false);
      expect(result.warnings.join(' ')).toMatch(/test network/);
      // Our signature-based path builder accepts the odd leaf (subject == issuer name).
      expect(result.verdict).toBe('verified');
      expect(result.merchant?.commonName).toBe('PaymentRequest Test CA');
    });

    it.each([
      ['core-paymentrequest2-cert2.bin', 1n, true],
      ['core-paymentrequest3-cert2.bin', 0x7fffffffffffffffn, false],
      ['core-paymentrequest4-cert2.bin', 0x8000000000000000n, false],
    ])(
      '%s: expires = %s → expired %s (2^63 is far future for us, unlike Core)',
      async (file, expires, expired) => {
        const result = await evaluateFixture(file);
        expect(result.details.expires).toBe(expires);
        expect(result.expired).toBe(expired);
        expect(result.verdict).toBe('verified');
        if (expired) expect(result.warnings.join(' ')).toContain(`expired on ${formatTime(1n)};`);
      },
    );

    it('5-cert2: an amount above 21,000,000 BTC → invalid', async () => {
      const result = await evaluateFixture('core-paymentrequest5-cert2.bin');
      expect(result.verdict).toBe('invalid');
      expect(result.merchant).toBeUndefined();
      expect(result.details.outputs[0]!.amount).toBe(2100000100000000n);
      expect(result.reasons).toEqual([
        'Output 1 asks for 21,000,001 BTC, more than the 21,000,000 BTC that can ever exist.',
      ]);
    });
  });

  describe('real merchants', () => {
    it('bitcoinj x509+sha1 request verifies as www.bitcoincore.org, with a SHA-1 warning', async () => {
      const result = await evaluateFixture('bitcoinj-pki-test-bitcoincore-org-sha1.bin');
      expect(result.verdict).toBe('verified');
      expect(result.pkiType).toBe('x509+sha1');
      expect(result.merchant?.commonName).toBe('www.bitcoincore.org');
      expect(result.merchant?.trustAnchor).toBe('AddTrust External CA Root');
      expect(result.warnings.join(' ')).toMatch(/SHA-1/);
      expect(result.details.merchantData).toEqual(
        new Uint8Array(Buffer.from('6f2fb001cbfd2754ac5ee2ca2efe60c235323234646363623833646461', 'hex')),
      );
    });

    it('BitPay testnet 2014: verified (Go Daddy Class 2), included serial-0 root tolerated', async () => {
      const result = await evaluateFixture('bitcore-bitpay-testnet-2014.bin', {
        pageHost: 'test.bitpay.com',
      });
      expect(result.verdict).toBe('verified');
      expect(result.merchant).toMatchObject({
        commonName: '*.bitpay.com',
        trustAnchor: 'Go Daddy Class 2 Certification Authority',
      });
      expect(result.hostMatches).toBe(true);
      expect(result.expired).toBe(false);
    });

    it('BitPay 2015 mainnet: verified as bitpay.com (BitPay, Inc.); a different page host is flagged', async () => {
      const result = await evaluateFixture('bitcore-bitpay2-mainnet-2015.bin', { pageHost: 'evil.example' });
      expect(result.verdict).toBe('verified');
      expect(result.merchant).toMatchObject({ commonName: 'bitpay.com', organization: 'BitPay, Inc.' });
      expect(result.hostMatches).toBe(false);
      expect(result.warnings.join(' ')).toMatch(/not the site you are on/);
    });

    it('BitPay chains also verify against the Go Daddy G2 root (cross-signed G2 carried)', async () => {
      for (const f of REQUEST_FIXTURES.filter((x) => x.roots[0] === 'root-godaddy-class2.pem')) {
        const result = await evaluateFixture(f.file, { roots: ['root-godaddy-root-g2.pem'] });
        const expected = f.file === 'breadwallet-bitpay-mainnet-2014.bin' ? 'invalid' : 'verified';
        expect(result.verdict, f.file).toBe(expected);
      }
    });

    it('real requests are invalid at today’s date (certificates long expired) and expired', async () => {
      const result = await evaluateFixture('bitcore-bitpay3-mainnet-2017.bin', { now: new Date() });
      expect(result.verdict).toBe('invalid');
      expect(result.expired).toBe(true);
    });

    it('Coinbase 2015 (no version, no network field): verified as coinbase.com', async () => {
      const result = await evaluateFixture('bitcore-coinbase-mainnet-2015.bin', {
        pageHost: 'www.coinbase.com',
      });
      expect(result.verdict).toBe('verified');
      expect(result.details.network).toBe('main');
      expect(result.merchant).toMatchObject({ commonName: 'coinbase.com', organization: 'Coinbase, Inc.' });
      expect(result.hostMatches).toBe(true);
    });

    it('breadwallet files are expired at their own expiry + 1 s', async () => {
      for (const file of ['breadwallet-bitpay-mainnet-2014.bin', 'breadwallet-coinbase-mainnet-2014.bin']) {
        const f = byFile(file);
        const before = await evaluateFixture(file, { now: at(Number(f.expires!)) });
        const after = await evaluateFixture(file, { now: at(Number(f.expires!) + 1) });
        expect(before.expired).toBe(false);
        expect(after.expired).toBe(true);
      }
    });

    it('the bundled Mozilla roots verify the BitPay and Coinbase chains they still cover', async () => {
      const bundled = bundledRootStore();
      expect(bundled.certificates.length).toBeGreaterThan(100);
      const names = new Set(bundled.certificates.map((c) => displayNameOf(c.subject)));
      const cases: [string, string][] = [
        ['bitcore-bitpay3-mainnet-2017.bin', 'Go Daddy Root Certificate Authority - G2'],
        ['bitcore-coinbase-mainnet-2015.bin', 'DigiCert High Assurance EV Root CA'],
      ];
      for (const [file, root] of cases) {
        if (!names.has(root)) continue; // Node's list may drop a root in a later release.
        const result = await evaluatePaymentRequest(fixture(file), {
          roots: bundled,
          now: at(byFile(file).at),
        });
        expect(result.verdict, file).toBe('verified');
        expect(result.merchant?.trustAnchor).toBe(root);
      }
      const core = await evaluatePaymentRequest(fixture('core-paymentrequest1-cert1.bin'), {
        roots: bundled,
        now: at(1366400000),
      });
      expect(core.verdict).toBe('invalid');
    });
  });
});
