// "Signed by" names what the certificate chain vouches for, in both browsers (issue 17, finding 8).
// pkijs enforces a CA's name constraints on subjectAltName DNS names only, so a CN is whatever
// the issuer wrote. Two signed BIP70 requests from a merchant under a sub-CA limited to
// example.com (its root added as a trusted root, the way the options page stores it):
//   - the leaf has a SAN and a different, misleading CN: the page names the SAN, never the CN;
//   - the leaf has no SAN and its CN lies outside the constraints (of the sub-CA, and of a root
//     the person added that is itself limited to corp.example): the page calls the request
//     invalid with a sentence naming the CA, and heads it with no signer at all.
// The requests are served by a loopback site, allowed up front (payment-origin.e2e tests that step).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRootCa, type Identity, type IssueOptions, issue } from '../../devkit/ca';
import { describeScript } from '../../lib/payments/addresses';
import { buildPaymentRequest } from '../merchant/requests';
import { PAY_TO_SCRIPT, PAYMENT_AMOUNT } from '../merchant/server';
import type { DriverPage } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { type Attacker, startAttacker } from './support/attacker';
import { screenshotAndAxe } from './support/axe';
import { allowPaymentOrigins } from './support/payment-origins';

const REQUEST_MIME = 'application/bitcoin-paymentrequest';
/** The name a misleading CN claims: a bank the constrained CA may not vouch for. */
const MISLEADING_CN = 'bank.com';
/** The name the SAN carries, inside the sub-CA's constraints. */
const SAN_NAME = 'shop.example.com';
const PAY_TO = describeScript(PAY_TO_SCRIPT, 'main').address!;

let site: Attacker;
let root: Identity;
/** A sub-CA that may vouch for example.com and the names below it only. */
let constrained: Identity;
/** A root the person added for their company, limited to corp.example. */
let corpRoot: Identity;

beforeAll(async () => {
  site = await startAttacker();
  root = await createRootCa('Hushdrop Names E2E Root CA');
  constrained = await issue(root, {
    commonName: 'Example Constrained CA',
    isCa: true,
    permittedDns: ['example.com'],
  });
  corpRoot = await issue(null, { commonName: 'Corp Root CA', isCa: true, permittedDns: ['corp.example'] });
}, 60_000);

afterAll(async () => {
  await site?.close();
});

/**
 * Serves, at `path`, a request for 0.0015 BTC signed by a leaf that `issuer` issues with `leaf`;
 * the chain carries the issuer too when it is not a trusted root itself. Returns its URL.
 */
async function serveSigned(path: string, issuer: Identity, leaf: IssueOptions): Promise<string> {
  const signer = await issue(issuer, leaf);
  const now = BigInt(Math.floor(Date.now() / 1000));
  const bytes = await buildPaymentRequest({
    details: {
      network: 'main',
      outputs: [{ amount: PAYMENT_AMOUNT, script: PAY_TO_SCRIPT }],
      time: now,
      expires: now + 900n,
      memo: `Signer name test ${path}`,
    },
    signer: {
      chain: issuer === constrained ? [signer.der, constrained.der] : [signer.der],
      privateKey: signer.keys.privateKey,
    },
  });
  return site.file(path, REQUEST_MIME, bytes);
}

forEachBrowser({}, (d) => {
  beforeAll(async () => {
    await d.setStorage({
      paymentRoots: [root.der, corpRoot.der].map((der) => Buffer.from(der).toString('base64')),
    });
    await allowPaymentOrigins((items) => d.setStorage(items), site.origin);
  });

  /** The payment page with the request at `url`, fetched after its button, showing a verdict. */
  async function openRequest(url: string): Promise<DriverPage> {
    const page = await d.open(`payment.html?${new URLSearchParams({ r: url })}`);
    await page.waitFor('#fetch-request');
    await page.click('#fetch-request');
    await page.waitFor('#verdict, #error');
    return page;
  }

  describe('"Signed by" on the payment page', () => {
    it('names the SAN of a leaf whose CN says something else, and never that CN', async () => {
      const url = await serveSigned(`/san-${d.name}`, constrained, {
        commonName: MISLEADING_CN,
        dnsNames: [SAN_NAME],
      });
      const page = await openRequest(url);
      expect(await page.attribute('#verdict', 'data-verdict')).toBe('verified');
      expect(await page.text('#merchant-name')).toBe(SAN_NAME);
      expect(await page.text('#verdict-h')).toContain(`Payment request from ${SAN_NAME}`);
      expect(await page.text('#verdict')).toContain(
        `Signed by the holder of a certificate for ${SAN_NAME}, issued by Example Constrained CA under Hushdrop Names E2E Root CA.`,
      );
      // The CN appears nowhere the page names the merchant.
      expect(await page.text('#verdict')).not.toContain(MISLEADING_CN);
      expect(await page.text('#outputs tbody tr')).toContain(PAY_TO);
      await screenshotAndAxe(page, `payment-signer-san-${d.name}`);
      await page.close();
    });

    it('refuses a leaf without SAN whose CN is outside its CA’s name constraints, naming the CA', async () => {
      const cases = [
        { issuer: constrained, ca: 'Example Constrained CA', path: `/cn-sub-ca-${d.name}` },
        { issuer: corpRoot, ca: 'Corp Root CA', path: `/cn-added-root-${d.name}` },
      ];
      for (const { issuer, ca, path } of cases) {
        const page = await openRequest(await serveSigned(path, issuer, { commonName: MISLEADING_CN }));
        expect(await page.attribute('#verdict', 'data-verdict')).toBe('invalid');
        // No signer is named: the heading warns instead of saying whom the request is from.
        expect(await page.count('#merchant-name')).toBe(0);
        expect(await page.text('#verdict-h')).toContain('Do not pay this payment request');
        expect(await page.text('#verdict-h')).not.toContain(MISLEADING_CN);
        expect(await page.text('#verdict')).not.toContain('Signed by');
        expect(await page.text('#reasons')).toBe(
          `The merchant's certificate names "${MISLEADING_CN}", which "${ca}" may not vouch for: its name constraints do not allow that name.`,
        );
        // Nothing invites paying it.
        expect(await page.count('#pay-wallet')).toBe(0);
        expect(await page.text('#not-payable')).toMatch(/invalid/);
        await page.close();
      }
    });
  });
});
