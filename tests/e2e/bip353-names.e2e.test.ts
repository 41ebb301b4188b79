// BIP 353 names in both browsers: a name's zone is signed at test time under a test root
// (tests/dnssec/zones.ts) and served by a local DNS-over-HTTPS resolver (tests/dnssec/doh-server.ts)
// on 127.0.0.2, a host the manifest does not grant. The options page is set up as a person does it:
// the resolver's address, and the test root's DS record as an extra trust anchor. Then ₿alice@shop.test
// typed on the payment page is looked up (the browser asks for the resolver's host, as for a payment
// site) and shown as verified, handed to a wallet; the same name with one byte of its TXT record's
// signature changed (the resolver still claiming it authentic, AD set) is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../devkit/wait';
import { type DohServer, startDohServer } from '../dnssec/doh-server';
import { type Rec, signTree, T, txtOwner, withBadSignature, Zone } from '../dnssec/zones';
import type { DriverPage } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { screenshotAndAxe } from './support/axe';
import { UNGRANTED_HOST as HOST } from './support/hosts';
import { allowPaymentOrigins } from './support/payment-origins';

const ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const URI = `bitcoin:${ADDRESS}?amount=0.0015&label=Tea%20shop`;
const NAME = '₿alice@shop.test';

let root: Zone;
let records: Rec[];
let doh: DohServer;

beforeAll(async () => {
  root = new Zone('.', { algorithm: 8 });
  const tld = new Zone('test.', { algorithm: 13 });
  const shop = new Zone('shop.test.', { algorithm: 15 });
  shop.txt(txtOwner('alice', 'shop.test'), URI).txt(txtOwner('alice', 'shop.test'), 'not a payment');
  const now = Date.now();
  records = signTree([root, tld, shop], {
    inception: new Date(now - 3_600_000),
    expiration: new Date(now + 86_400_000),
  });
  doh = await startDohServer(records, { host: HOST });
}, 60_000);

afterAll(async () => {
  await doh?.close();
});

forEachBrowser({ allowWhenAsked: [HOST] }, (d) => {
  // The resolver runs on loopback: allowed up front (payment-origin.e2e tests that step).
  beforeAll(() => allowPaymentOrigins((items) => d.setStorage(items), doh.origin));

  /**
   * The payment page with `text` typed and opened: where the resolver's host is not allowed yet,
   * the page asks (its address is on this machine, so the page's card comes before the browser's
   * question), and the person allows it. Returns the page showing its verdict.
   */
  async function lookUp(text: string): Promise<DriverPage> {
    const page = await d.open('payment.html');
    await page.waitFor('#recent');
    await page.fill('#request-input', text);
    await page.click('#open');
    const state = await until(async () => {
      if ((await page.count('#verdict, #error')) > 0) return 'shown';
      return (await page.count('#allow')) > 0 ? 'permission' : undefined;
    }, 'a verdict or the permission card');
    if (state === 'permission') {
      expect(await page.text('#permission')).toContain(doh.url);
      await page.click('#allow');
      await d.permissionPrompt(HOST, 'allow');
    }
    await page.waitFor('#verdict, #error');
    return page;
  }

  describe('BIP 353 names', () => {
    it('the options take the resolver and the test root as an extra trust anchor', async () => {
      const page = await d.open('options.html');
      await page.waitFor('#names-resolver');
      expect(await page.inputValue('#names-resolver')).toBe('https://cloudflare-dns.com/dns-query');
      await page.fill('#names-resolver', doh.url);
      await page.click('#names-resolver-save');
      await until(
        async () => (await page.text('#names-resolver-status')).includes(doh.url) || undefined,
        'the resolver saved',
      );
      await page.fill('#names-anchor', 'not a DS record');
      await page.click('#names-anchor-add');
      await until(
        async () => /is not a DS record/.test(await page.text('#names-anchor-status')) || undefined,
        'the refusal',
      );
      await page.fill('#names-anchor', root.anchorLine());
      await page.click('#names-anchor-add');
      await page.waitFor('.anchor-entry');
      expect(await page.text('.anchor-entry')).toContain(root.anchorLine());
      expect(await page.text('#names-root')).toMatch(/DNS root’s 2 keys, from Debian dns-root-data/);
      await screenshotAndAxe(page, `bip353-options-${d.name}`);
      await page.close();
    });

    it('₿alice@shop.test is looked up through the resolver and shown as verified', async () => {
      doh.setRecords(records);
      doh.asked.length = 0;
      const page = await lookUp(NAME);
      expect(await page.attribute('#verdict', 'data-verdict')).toBe('verified');
      expect(await page.attribute('#verdict', 'data-kind')).toBe('bip353');
      expect(await page.text('#verdict-h')).toContain(`Payment instructions of ${NAME}`);
      expect(await page.text('#bip353-name')).toBe(NAME);
      expect(await page.text('#verdict')).toMatch(/checked the DNSSEC signatures on its TXT record itself/);
      expect(await page.text('#kind')).toBe('BIP 353 name');
      expect(await page.text('#payee')).toBe(ADDRESS);
      expect(await page.text('#total')).toBe('0.0015 BTC (150,000 sat)');
      expect(await page.text('#label')).toBe('Tea shop');
      expect(await page.text('#name-zones')).toBe('. → test → shop.test');
      expect(await page.text('#name-resolver')).toBe(doh.url);
      // Handed to a wallet as the record's own URI (BIP 353: copy the URI, not the name).
      expect(await page.attribute('#wallet-link', 'href')).toBe(URI);
      expect(doh.asked[0]).toBe(`alice.user._bitcoin-payment.shop.test. ${T.TXT}`);
      await screenshotAndAxe(page, `bip353-verified-${d.name}`);
      await page.close();
    });

    it('the same name with one signature byte changed is refused, whatever the resolver says', async () => {
      doh.setRecords(withBadSignature(records, txtOwner('alice', 'shop.test'), T.TXT));
      const page = await lookUp(NAME);
      expect(await page.attribute('#verdict', 'data-verdict')).toBe('invalid');
      expect(await page.attribute('#verdict', 'data-kind')).toBe('bip353');
      expect(await page.text('#reasons')).toMatch(
        /DNSSEC signature on the TXT records of alice\.user\._bitcoin-payment\.shop\.test does not match them/,
      );
      expect(await page.count('#bip353-name')).toBe(0);
      expect(await page.count('#pay-wallet')).toBe(0);
      expect(await page.text('#not-payable')).toMatch(/invalid/);
      await page.close();
      doh.setRecords(records);
    });
  });
});
