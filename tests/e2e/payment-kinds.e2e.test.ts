// Payment requests as pages carry them today, in both browsers: bitcoin: links (BIP 21, and BIP 321
// with an invoice and an offer alongside), lightning: invoices and offers (BOLT 12), selected invoice
// text through "Check this payment request", a Lightning Address whose invoice is then checked for
// payment (LUD-21), and the refusals: a forged invoice signature, an expired invoice, an LNURL
// service answering a mismatched invoice or with a callback elsewhere.
// Every request comes from the local LNURL service on 127.0.0.2, a host the manifest does not
// grant: Firefox asks for it when the person looks an address up; Chromium's prompt cannot be
// answered, so there it is granted at launch.
import { bech32, hex } from '@scure/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../devkit/wait';
import { makeInvoice, TEST_NODE_KEY } from '../lnurl/invoices';
import { type LnurlService, startLnurlService } from '../lnurl/server';
import { makeOffer } from '../payments/offers';
import type { Driver, DriverPage } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { linksCounted } from './support/badge';
import { UNGRANTED_HOST as HOST } from './support/hosts';
import { allowPaymentOrigins } from './support/payment-origins';

const P2WPKH = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const TEA = '0.0015 BTC (150,000 sat)';
/** The payment links on the tea shop's page (all but About). */
const SHOP_LINKS = 8;
/** A key that is not the test node's: what a forger signs with. */
const FORGER_SECRET = hex.decode('22'.repeat(32));

let service: LnurlService;
let invoice: string;
let selected: string;
let forged: string;
let expired: string;
let both: string;
let offers: string;
/** A BOLT 12 offer priced in euros, and one in bitcoin that rides in a bitcoin: link. */
let offer: string;
let btcOffer: string;

beforeAll(async () => {
  service = await startLnurlService({ host: HOST });
  const now = Math.floor(Date.now() / 1000);
  invoice = makeInvoice({
    amountMsat: 150_000_000n,
    description: 'A pot of tea',
    timestamp: now,
    expiry: 3600,
  });
  selected = makeInvoice({
    amountMsat: 21_000n,
    description: 'Selected tea',
    timestamp: now,
    nameNode: true,
  });
  // Names the test node in its n field, but is signed by another key.
  forged = makeInvoice(
    {
      amountMsat: 5_000_000n,
      description: 'Forged tea',
      timestamp: now,
      expiry: 3600,
      extra: [[19, bech32.toWords(hex.decode(TEST_NODE_KEY))]],
    },
    FORGER_SECRET,
  );
  expired = makeInvoice({
    amountMsat: 5_000_000n,
    description: 'Yesterday’s tea',
    timestamp: now - 2 * 86_400,
    expiry: 3600,
    nameNode: true,
  });
  both = `bitcoin:${P2WPKH}?amount=0.0015&lightning=${invoice}`;
  offer = makeOffer({
    currency: 'EUR',
    amount: 450n,
    description: 'A pot of tea <b>',
    issuer: 'tea.example Tea shop',
    quantityMax: 3n,
    absoluteExpiry: BigInt(now + 86_400),
  });
  btcOffer = makeOffer({ amount: 150_000_000n, description: 'Tea by offer' });
  offers = `bitcoin:${P2WPKH}?amount=0.0015&label=Tea%20%3Cb%3Eshop%3C%2Fb%3E&message=Order%2042&lno=${btcOffer}&pj=${encodeURIComponent(`https://${HOST}/payjoin`)}`;
  service.setPage(`<!doctype html><html lang="en"><title>Tea shop</title>
<h1>Pay for your tea</h1>
<ul>
  <li><a id="onchain" href="bitcoin:${P2WPKH}?amount=0.0015&amp;label=Tea%20shop">Pay on-chain</a></li>
  <li><a id="invoice" href="lightning:${invoice}">Pay with Lightning</a></li>
  <li><a id="both" href="${both.replace('&', '&amp;')}">Pay either way</a></li>
  <li><a id="offers" href="${offers.replaceAll('&', '&amp;')}">Pay with an offer</a></li>
  <li><a id="offer" href="lightning:${offer}">Pay with a Lightning offer</a></li>
  <li><a id="forged" href="lightning:${forged}">Pay (forged)</a></li>
  <li><a id="expired" href="lightning:${expired}">Pay (expired)</a></li>
  <li><a id="address" href="lightning:${service.address('alice')}">Tip alice</a></li>
  <li><a id="about" href="/about">About</a></li>
</ul>
<p>Or copy this invoice: <span id="selected">${selected}</span></p>`);
});

afterAll(async () => {
  await service?.close();
});

/**
 * Waits until the payment page shows `done`. Where it waits for the person first, answers as they
 * would: its look-up button (the host allowed already), or its question and then the browser's.
 */
async function settle(d: Driver, page: DriverPage, done = '#verdict, #error'): Promise<void> {
  const state = await until(async () => {
    if ((await page.count(done)) > 0) return 'shown';
    if ((await page.count('#allow')) > 0) return 'permission';
    return (await page.count('#fetch-request')) > 0 ? 'confirm' : undefined;
  }, `${done}, a look-up button or a permission request`);
  if (state === 'shown') return;
  if (state === 'confirm') await page.click('#fetch-request');
  else {
    await page.click('#allow');
    await d.permissionPrompt(HOST, 'allow');
  }
  await page.waitFor(done);
}

/** The hand-off to a wallet: the link (also as QR code) and what it copies. */
async function expectHandOff(page: DriverPage, href: string): Promise<void> {
  expect(await page.attribute('#wallet-link', 'href')).toBe(href);
  expect(await page.count('#pay-wallet svg.qr path')).toBe(1);
  expect(await page.inputValue('#copy-uri')).toBe(href);
}

forEachBrowser({ allowWhenAsked: [HOST] }, (d) => {
  // The service runs on loopback: allowed up front (payment-origin.e2e tests that step).
  beforeAll(() => allowPaymentOrigins((items) => d.setStorage(items), service.origin));

  /** The shop page, link `id` clicked by a person: the payment page it opened. */
  async function clickOnShop(id: string, done = '#verdict, #error'): Promise<DriverPage> {
    const shop = await d.openUrl(service.pageUrl);
    await linksCounted(d, shop, SHOP_LINKS);
    const page = await d.waitForNewPage(() => shop.click(`#${id}`));
    await settle(d, page, done);
    await shop.close();
    return page;
  }

  describe('payment links on a shop page', () => {
    it('are counted on the badge: bitcoin:, lightning: and a Lightning Address, not the About link', async () => {
      const shop = await d.openUrl(service.pageUrl);
      await linksCounted(d, shop, SHOP_LINKS);
      await shop.close();
    });

    it('a bitcoin: link: the address checked, the amount exact, unsigned, handed to a wallet', async () => {
      const page = await clickOnShop('onchain');
      expect(await page.attribute('#verdict', 'data-verdict')).toBe('unsigned');
      expect(await page.attribute('#verdict', 'data-kind')).toBe('bip21');
      expect(await page.text('#total')).toBe(TEA);
      expect(await page.text('#payee')).toBe(P2WPKH);
      expect(await page.text('#network')).toMatch(/main network/);
      expect(await page.text('#label')).toBe('Tea shop');
      await expectHandOff(page, `bitcoin:${P2WPKH}?amount=0.0015&label=Tea%20shop`);
      expect(await page.inputValue('#copy-address')).toBe(P2WPKH);
      expect(await page.inputValue('#copy-amount')).toBe('0.0015');
      await page.close();
    });

    it('a lightning: link: verified by its node, which the page says is not the shop', async () => {
      const page = await clickOnShop('invoice');
      expect(await page.attribute('#verdict', 'data-verdict')).toBe('verified');
      expect(await page.attribute('#verdict', 'data-kind')).toBe('bolt11');
      expect(await page.text('#total')).toBe(TEA);
      expect(await page.text('#node-key')).toBe(TEST_NODE_KEY);
      expect(await page.text('#node-caution')).toMatch(/not which shop/);
      expect(await page.text('#memo')).toBe('A pot of tea');
      expect(await page.text('#expiry')).toMatch(/^(1 hour|[1-5]?\d minutes?)\b.*left/);
      await expectHandOff(page, `lightning:${invoice}`);
      expect(await page.inputValue('#copy-invoice')).toBe(invoice);
      await page.close();
    });

    it('a BIP 321 link with both: the address and the invoice, the amounts agreeing', async () => {
      const page = await clickOnShop('both');
      // The on-chain address is signed by nobody, so the link as a whole is unsigned.
      expect(await page.attribute('#verdict', 'data-verdict')).toBe('unsigned');
      expect(await page.text('#total')).toBe(TEA);
      expect(await page.text('#onchain-address')).toBe(P2WPKH);
      expect(await page.text('.lightning-invoice')).toContain(TEST_NODE_KEY);
      expect(await page.count('#warnings')).toBe(0);
      await expectHandOff(page, both);
      await page.close();
    });

    it('a BIP 321 link with an offer and payjoin: the offer read, payjoin shown, not acted on; its label as text', async () => {
      const page = await clickOnShop('offers');
      expect(await page.attribute('#verdict', 'data-verdict')).toBe('unsigned');
      expect(await page.text('#label')).toBe('Tea <b>shop</b>');
      expect(await page.count('#label b')).toBe(0);
      expect(await page.text('#memo')).toBe('Order 42');
      const read = await page.text('.lightning-offer');
      expect(read).toContain(TEA);
      expect(read).toContain(TEST_NODE_KEY);
      expect(read).toContain('Tea by offer');
      const present = await page.text('#present-only');
      expect(present).not.toContain('lno1');
      expect(present).toContain(`https://${HOST}/payjoin`);
      expect(present).toMatch(/Shown, not checked: your wallet decides/);
      expect(await page.count('#warnings')).toBe(0);
      await expectHandOff(page, offers);
      await page.close();
    });

    it('a lightning: offer (BOLT 12): its figures, an amount in euros named so, unsigned, handed to a wallet', async () => {
      const page = await clickOnShop('offer');
      expect(await page.attribute('#verdict', 'data-verdict')).toBe('unsigned');
      expect(await page.attribute('#verdict', 'data-kind')).toBe('bolt12');
      expect(await page.text('#kind')).toBe('Lightning offer (BOLT 12)');
      expect(await page.text('#total')).toBe('4.50 EUR per item');
      expect(await page.text('#offer-currency')).toMatch(/another currency \(EUR\), not in bitcoin/);
      expect(await page.text('#memo')).toBe('A pot of tea <b>');
      expect(await page.count('#memo b')).toBe(0);
      expect(await page.text('#offer-issuer')).toBe('tea.example Tea shop');
      expect(await page.text('#payee')).toBe(TEST_NODE_KEY);
      expect(await page.text('#offer-quantity')).toBe('Up to 3 items in one invoice');
      expect(await page.text('#network')).toMatch(/main network/);
      expect(await page.text('#expiry')).toMatch(/^(1 day|2[0-4] hours?|23 hours [0-9]+ minutes?)\b.*left/);
      expect(await page.text('#offer-caution')).toMatch(/not which shop runs it/);
      await expectHandOff(page, `lightning:${offer}`);
      expect(await page.inputValue('#copy-offer')).toBe(offer);
      await page.close();
    });

    it('selected invoice text, through "Check this payment request"', async () => {
      const shop = await d.openUrl(service.pageUrl);
      await shop.waitFor('#selected');
      await shop.evaluate((css) => {
        getSelection()!.selectAllChildren(document.querySelector(css)!);
      }, '#selected');
      const page = await d.waitForNewPage(() => d.contextMenu(shop, '#selected', 'check-payment'));
      await settle(d, page);
      expect(await page.attribute('#verdict', 'data-verdict')).toBe('verified');
      expect(await page.text('#total')).toBe('0.00000021 BTC (21 sat)');
      expect(await page.text('#verdict')).toMatch(/The invoice names this node/);
      expect(await page.text('#memo')).toBe('Selected tea');
      expect(await page.text('#found-on')).toBe(service.pageUrl);
      await expectHandOff(page, `lightning:${selected}`);
      await page.close();
      await shop.close();
    });
  });

  describe('invoices that must not be paid', () => {
    it('a forged signature: not verified, the reason shown, nothing to pay', async () => {
      const page = await clickOnShop('forged');
      expect(await page.attribute('#verdict', 'data-verdict')).toBe('invalid');
      expect(await page.count('#node-key')).toBe(0);
      expect(await page.text('#reasons')).toMatch(/signature was not made by the node it names/);
      expect(await page.text('#not-payable')).toMatch(/invalid/);
      expect(await page.count('#pay-wallet')).toBe(0);
      await page.close();
    });

    it('an expired invoice: says so, and offers no hand-off', async () => {
      const page = await clickOnShop('expired');
      expect(await page.attribute('#verdict', 'class')).toContain('verdict-expired');
      expect(await page.text('#verdict-h')).toMatch(/Expired/);
      expect(await page.text('#warnings')).toMatch(/expired on .*do not pay it/);
      expect(await page.text('#memo')).toBe('Yesterday’s tea');
      expect(await page.count('#pay-wallet')).toBe(0);
      await page.close();
    });
  });

  describe('a Lightning Address against the local LNURL service', () => {
    it('looked up on the click, then an invoice for the amount chosen, checked and handed off', async () => {
      const page = await clickOnShop('address', '#lnurl-amount, #error');
      expect(await page.attribute('#verdict', 'data-kind')).toBe('lnurl');
      expect(await page.attribute('#verdict', 'data-verdict')).toBe('unsigned');
      expect(await page.text('#total')).toBe('between 0.00000001 BTC (1 sat) and 0.01 BTC (1,000,000 sat)');
      expect(await page.text('#memo')).toBe('Tea for alice <script>alert(1)</script>');
      expect(await page.count('#memo script, main script')).toBe(0);
      expect(await page.count('#pay-wallet')).toBe(0);

      const before = service.invoiceRequests.length;
      await page.fill('#lnurl-sat', '21');
      await page.click('#lnurl-get');
      await page.waitFor('#pay-wallet');
      expect(service.invoiceRequests.slice(before)).toEqual([{ name: 'alice', amountMsat: 21_000n }]);
      expect(await page.attribute('#verdict', 'data-verdict')).toBe('verified');
      expect(await page.text('#total')).toBe('0.00000021 BTC (21 sat)');
      expect(await page.text('#node-key')).toBe(TEST_NODE_KEY);
      const href = await page.attribute('#wallet-link', 'href');
      expect(href).toMatch(/^lightning:lnbc210n1/);

      // LUD-21: asked only on the click, on the service's own origin; "paid" only with the proof.
      const verifyBefore = service.verifyRequests.length;
      expect(await page.text('#lnurl-verify')).toMatch(/Hushdrop asks 127\.0\.0\.2:\d+ only when you press/);
      await page.click('#lnurl-verify-ask');
      await page.waitFor('#lnurl-paid[data-state="unpaid"]');
      expect(await page.text('#lnurl-paid')).toBe('Not paid yet, the service says.');
      expect(service.verifyRequests.length).toBe(verifyBefore + 1);
      service.settle(href!);
      await page.click('#lnurl-verify-ask');
      await page.waitFor('#lnurl-paid[data-state="paid"]');
      expect(await page.text('#lnurl-paid')).toMatch(
        /^Paid, the service says, and it showed the invoice’s secret/,
      );
      expect(service.verifyRequests.length).toBe(verifyBefore + 2);
      await page.close();
    });

    /** The payment page with a pasted request, looked up: its amount form or an error. */
    async function lookUp(text: string): Promise<DriverPage> {
      const page = await d.open('payment.html');
      await page.waitFor('#recent');
      await page.fill('#request-input', text);
      // The person's Open is their act: where the service's host is not allowed yet, the browser
      // asks at once (Firefox; Chromium holds it from launch), without the page's own question.
      const allowed = await page.evaluate(
        (origin) =>
          ((globalThis as any).browser ?? (globalThis as any).chrome).permissions.contains({
            origins: [origin],
          }),
        `http://${HOST}/*`,
      );
      await page.click('#open');
      if (!allowed) await d.permissionPrompt(HOST, 'allow');
      await settle(d, page, '#lnurl-amount, #error');
      return page;
    }

    it('a service answering a mismatched invoice: refused with the reason, nothing to pay', async () => {
      const page = await lookUp(service.address('mallory-hash'));
      await page.fill('#lnurl-sat', '21');
      await page.click('#lnurl-get');
      await page.waitFor('#verdict[data-verdict="invalid"]');
      expect(await page.text('#reasons')).toMatch(
        /description hash is not the hash of what the service showed you/,
      );
      expect(await page.count('#pay-wallet')).toBe(0);
      expect(await page.text('#not-payable')).toMatch(/invalid/);
      await page.close();
    });

    it('an amount outside the service’s limits is refused before anything is asked', async () => {
      const page = await lookUp(service.lnurl('alice'));
      const before = service.invoiceRequests.length;
      await page.fill('#lnurl-sat', '1000001');
      await page.click('#lnurl-get');
      await page.waitFor('#lnurl-error');
      expect(await page.text('#lnurl-error')).toMatch(
        /between the smallest and the largest the service accepts/,
      );
      expect(service.invoiceRequests.length).toBe(before);
      expect(await page.count('#pay-wallet')).toBe(0);
      await page.close();
    });

    it('a service whose invoices come from another origin: refused before any invoice is asked for', async () => {
      const before = service.invoiceRequests.length;
      const page = await lookUp(service.address('elsewhere'));
      expect(await page.count('#lnurl-amount')).toBe(0);
      expect(await page.text('#error')).toMatch(
        /another site, localhost:\d+\. Hushdrop asks only the site you chose/,
      );
      expect(service.invoiceRequests.length).toBe(before);
      await page.close();
    });

    it('terms larger than the page reads: a clear error, and no amount form', async () => {
      const page = await lookUp(service.address('huge'));
      expect(await page.count('#lnurl-amount')).toBe(0);
      expect(await page.text('#error')).toMatch(/too large/);
      await page.close();
    });
  });

  it('says where lightning: links cannot reach Hushdrop as a protocol handler (Firefox)', async () => {
    const page = await d.open('payment.html');
    await page.waitFor('#recent');
    // Firefox lets an extension handle bitcoin: links, not lightning: ones; Chromium has no such handler.
    expect(await page.count('#firefox-lightning')).toBe(d.name === 'firefox' ? 1 : 0);
    if (d.name === 'firefox')
      expect(await page.text('#firefox-lightning')).toMatch(/no extension can take lightning: links/);
    await page.close();
  });
});
