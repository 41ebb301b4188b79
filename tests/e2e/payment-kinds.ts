// Payment requests as pages carry them today — bitcoin: links, lightning: invoices, a BIP 321 link
// with both, selected invoice text, a Lightning Address — as scenarios written once over a small
// browser interface (PaymentBrowser). tests/e2e/payment-kinds.e2e.test.ts runs them in Chromium,
// firefox-payment-kinds.e2e.test.ts in Firefox. Every request comes from the local LNURL service
// on 127.0.0.2, a host the manifest does not grant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeInvoice, TEST_NODE_KEY } from '../lnurl/invoices';
import { type LnurlService, startLnurlService } from '../lnurl/server';

/** One tab, as the scenarios use it (CSS selectors only). */
export interface Tab {
  text(css: string): Promise<string>;
  attribute(css: string, name: string): Promise<string | null>;
  /** A form field's current value. */
  inputValue(css: string): Promise<string>;
  count(css: string): Promise<number>;
  waitFor(css: string): Promise<void>;
  click(css: string): Promise<void>;
  fill(css: string, text: string): Promise<void>;
  close(): Promise<void>;
}

export interface PaymentBrowser {
  /** A web page, with Hushdrop's content script in it. */
  openWebPage(url: string): Promise<Tab>;
  /** An extension page (e.g. "payment.html"). */
  openExtensionPage(path: string): Promise<Tab>;
  /** A person's click on a link that opens the payment page in a new tab: that tab. */
  clickOpensPaymentPage(tab: Tab, css: string): Promise<Tab>;
  /** Selects an element's text and picks "Check this payment request" in its menu: the new tab. */
  checkSelectedText(tab: Tab, css: string): Promise<Tab>;
  /** Says yes if the browser is asking for access to a site now (Chromium: granted at launch). */
  allowSiteIfAsked(): Promise<void>;
  /** The toolbar badge of the tab showing `url`. */
  badgeText(url: string): Promise<string>;
  close(): Promise<void>;
}

export const LNURL_HOST = '127.0.0.2';
const P2WPKH = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const TEA = '0.0015 BTC (150,000 sat)';

/** Waits until the payment page shows a verdict or an error, allowing its server when it asks. */
async function settle(browser: PaymentBrowser, tab: Tab, done = '#verdict, #error'): Promise<void> {
  await tab.waitFor(`${done}, #allow`);
  if ((await tab.count('#allow')) > 0 && (await tab.count(done)) === 0) {
    await tab.click('#allow');
    await browser.allowSiteIfAsked();
    await tab.waitFor(done);
  }
}

/** The hand-off to a wallet: the link (also as QR code) and what it copies. */
async function expectHandOff(tab: Tab, href: string): Promise<void> {
  expect(await tab.attribute('#wallet-link', 'href')).toBe(href);
  expect(await tab.count('#pay-wallet svg.qr path')).toBe(1);
  expect(await tab.inputValue('#copy-uri')).toBe(href);
}

export function paymentKindScenarios(launch: () => Promise<PaymentBrowser>): void {
  let browser: PaymentBrowser;
  let service: LnurlService;
  let invoice: string;
  let selected: string;
  let both: string;
  let address: string;

  beforeAll(async () => {
    service = await startLnurlService({ host: LNURL_HOST });
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
    both = `bitcoin:${P2WPKH}?amount=0.0015&lightning=${invoice}`;
    address = service.address('alice');
    service.setPage(`<!doctype html><html lang="en"><title>Tea shop</title>
<h1>Pay for your tea</h1>
<ul>
  <li><a id="onchain" href="bitcoin:${P2WPKH}?amount=0.0015&amp;label=Tea%20shop">Pay on-chain</a></li>
  <li><a id="invoice" href="lightning:${invoice}">Pay with Lightning</a></li>
  <li><a id="both" href="${both.replace('&', '&amp;')}">Pay either way</a></li>
  <li><a id="address" href="lightning:${address}">Tip alice</a></li>
  <li><a id="about" href="/about">About</a></li>
</ul>
<p>Or copy this invoice: <span id="selected">${selected}</span></p>`);
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  describe('payment links on a shop page', () => {
    it('are marked and counted on the badge: bitcoin:, lightning: and a Lightning Address', async () => {
      const shop = await browser.openWebPage(service.pageUrl);
      await expect.poll(() => shop.count('a[data-hushdrop]'), { timeout: 15_000 }).toBe(4);
      expect(await shop.attribute('#about', 'data-hushdrop')).toBeNull();
      await expect.poll(() => browser.badgeText(service.pageUrl), { timeout: 15_000 }).toBe('4');
      await shop.close();
    });

    it('a bitcoin: link: the address checked, the amount exact, unsigned, handed to a wallet', async () => {
      const shop = await browser.openWebPage(service.pageUrl);
      const page = await browser.clickOpensPaymentPage(shop, '#onchain');
      await settle(browser, page);
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
      await shop.close();
    });

    it('a lightning: link: verified by its node, which the page says is not the shop', async () => {
      const shop = await browser.openWebPage(service.pageUrl);
      const page = await browser.clickOpensPaymentPage(shop, '#invoice');
      await settle(browser, page);
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
      await shop.close();
    });

    it('a BIP 321 link with both: the address and the invoice, the amounts agreeing', async () => {
      const shop = await browser.openWebPage(service.pageUrl);
      const page = await browser.clickOpensPaymentPage(shop, '#both');
      await settle(browser, page);
      // The on-chain address is signed by nobody, so the link as a whole is unsigned.
      expect(await page.attribute('#verdict', 'data-verdict')).toBe('unsigned');
      expect(await page.text('#total')).toBe(TEA);
      expect(await page.text('#onchain-address')).toBe(P2WPKH);
      expect(await page.text('.lightning-invoice')).toContain(TEST_NODE_KEY);
      expect(await page.count('#warnings')).toBe(0);
      await expectHandOff(page, both);
      await page.close();
      await shop.close();
    });

    it('selected invoice text, through "Check this payment request"', async () => {
      const shop = await browser.openWebPage(service.pageUrl);
      const page = await browser.checkSelectedText(shop, '#selected');
      await settle(browser, page);
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

  describe('a Lightning Address against the local LNURL service', () => {
    it('looked up on the click, then an invoice for the amount chosen, checked and handed off', async () => {
      const shop = await browser.openWebPage(service.pageUrl);
      const page = await browser.clickOpensPaymentPage(shop, '#address');
      await settle(browser, page, '#lnurl-amount, #error');
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
      expect(await page.attribute('#wallet-link', 'href')).toMatch(/^lightning:lnbc210n1/);
      await page.close();
      await shop.close();
    });

    it('a service answering a mismatched invoice: refused with the reason, nothing to pay', async () => {
      const page = await browser.openExtensionPage('payment.html');
      await page.waitFor('#recent');
      await page.fill('#request-input', service.address('mallory-hash'));
      await page.click('#open');
      await settle(browser, page, '#lnurl-amount, #error');
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
  });
}
