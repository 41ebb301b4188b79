// Payment requests in both browsers, against the test merchant on 127.0.0.2, a host the manifest
// does not grant: links found on a shop page and the badge, every verdict and error the payment
// page shows, untrusted text shown as text, the Payment / PaymentACK exchange, pasted requests,
// the ?uri= form Firefox's bitcoin: handler opens, the list of requests viewed, and extra trusted
// roots. Firefox asks for the merchant's host on first contact, and the scenario answers its real
// prompt; Chromium's prompt cannot be answered, so there the host is granted at launch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../devkit/wait';
import { addressToScript, describeScript } from '../../lib/payments/addresses';
import {
  HTML_MEMO,
  HTML_MERCHANT,
  type Merchant,
  PAY_TO_SCRIPT,
  PAYMENT_AMOUNT,
  type RequestKind,
  startMerchant,
} from '../merchant/server';
import { fakeTransactionHex } from '../merchant/transactions';
import type { DriverPage } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { screenshotAndAxe, seriousViolations } from './support/axe';
import { linksCounted } from './support/badge';
import { UNGRANTED_HOST as HOST } from './support/hosts';
import { allowPaymentOrigins } from './support/payment-origins';

const PAY_TO = describeScript(PAY_TO_SCRIPT, 'main').address!;
const REFUND = describeScript(Uint8Array.from(Buffer.from(`76a914${'11'.repeat(20)}88ac`, 'hex')), 'main')
  .address!;
const TX_HEX = fakeTransactionHex([{ amount: PAYMENT_AMOUNT, script: PAY_TO_SCRIPT }]);

let merchant: Merchant;
/** The payment links on the merchant's shop page, one of them added after load. */
const SHOP_LINKS = 8;

beforeAll(async () => {
  merchant = await startMerchant({ host: HOST });
});

afterAll(async () => {
  await merchant?.close();
});

const verdictOf = (page: DriverPage) => page.attribute('#verdict', 'data-verdict');
const shown = (page: DriverPage, t: string) =>
  page.evaluate((s) => document.querySelector(s)!.getClientRects().length > 0, t);

forEachBrowser({ allowWhenAsked: [HOST] }, (d) => {
  /** How often the payment page asked for the merchant's host (Firefox: once, on first contact). */
  let asked = 0;

  beforeAll(async () => {
    // The test CA as an extra trusted root, the way the options page stores it (base64 DER).
    await d.setStorage({ paymentRoots: [Buffer.from(merchant.rootDer).toString('base64')] });
    // The merchant runs on loopback: allowed up front (payment-origin.e2e tests that step).
    await allowPaymentOrigins((items) => d.setStorage(items), merchant.origin);
  });

  /**
   * Waits for the payment page to show a verdict or an error. Where it waits for the person's
   * button, presses it; where it asks to contact the merchant's host first, allows it: the page's
   * button, then the browser's prompt.
   */
  async function settle(page: DriverPage): Promise<void> {
    const state = await until(
      async () =>
        (await page.count('#verdict, #error')) > 0
          ? 'shown'
          : (await page.count('#allow')) > 0
            ? 'permission'
            : (await page.count('#fetch-request')) > 0
              ? 'confirm'
              : undefined,
      'a verdict, an error, the fetch button or a permission request',
    );
    if (state === 'shown') return;
    if (state === 'confirm') {
      await page.click('#fetch-request');
      await page.waitFor('#verdict, #error');
      return;
    }
    expect(await page.text('#permission-h')).toContain(`Allow Hushdrop to contact ${HOST}`);
    await page.click('#allow');
    await d.permissionPrompt(HOST, 'allow');
    asked++;
    await page.waitFor('#verdict, #error');
  }

  /** The payment page opened with a request's address, after the person pressed its button. */
  async function openRequest(kind: RequestKind, options: { suffix?: boolean } = {}): Promise<DriverPage> {
    const q = new URLSearchParams({ r: merchant.requestUrl(kind, options), page: merchant.pageUrl });
    const page = await d.open(`payment.html?${q}`);
    await page.waitFor('#fetch-request, #allow');
    if ((await page.count('#fetch-request')) > 0) await page.click('#fetch-request');
    await settle(page);
    return page;
  }

  /** A shop page, its link `id` clicked: the payment page it opened, settled. */
  async function clickOnShop(id: string): Promise<DriverPage> {
    const shop = await d.openUrl(merchant.pageUrl);
    await linksCounted(d, shop, SHOP_LINKS);
    const page = await d.waitForNewPage(() => shop.click(`#${id}`));
    await settle(page);
    await shop.close();
    return page;
  }

  describe('payment links on a shop page', () => {
    it('are counted on the badge, including the link added after load, and only those', async () => {
      // pay-bip72, pay-bip21-r, pay-mime, pay-file, pay-expired, pay-tampered, pay-late, and a plain
      // bitcoin: link (a payment request of its own); not about, external, mail or octet.
      const page = await d.openUrl(merchant.pageUrl);
      await linksCounted(d, page, SHOP_LINKS);
      await page.close();
    });

    it('clicking one opens the payment page with the verified merchant, its outputs and amounts', async () => {
      const shop = await d.openUrl(merchant.pageUrl);
      await linksCounted(d, shop, SHOP_LINKS);
      const page = await d.waitForNewPage(() => shop.click('#pay-bip72'));
      // A click on a page cannot be told from a message a compromised renderer forges, so the
      // payment page shows the request and waits for its own button (or, in Firefox's first
      // contact, the permission question).
      await page.waitFor(d.name === 'firefox' ? '#permission' : '#confirm');
      await settle(page);
      // Firefox asked for the merchant's host here, its first contact; Chromium holds it from launch.
      expect(asked).toBe(d.name === 'firefox' ? 1 : 0);
      expect(await shop.url()).toBe(merchant.pageUrl);
      // Opened with a one-time id only; then the address names the request, for a reload. (Only
      // Chromium tells the address a tab was opened with: Firefox names its navigation timing
      // entry "document" and keeps no earlier address once the page replaced it.)
      if (d.name === 'chromium') {
        const opened = new URL(
          await page.evaluate(
            () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).name,
          ),
        );
        expect([...opened.searchParams.keys()]).toEqual(['open']);
      }
      const url = new URL(await page.url());
      expect(url.pathname).toBe('/payment.html');
      expect(url.searchParams.get('r')).toBe(merchant.requestUrl('sha256'));
      expect(url.searchParams.get('page')).toBe(merchant.pageUrl);

      expect(await verdictOf(page)).toBe('verified');
      expect(await page.text('#merchant-name')).toBe(HOST);
      expect(await page.text('#merchant-issuer')).toBe('Hushdrop Test Merchant CA');
      expect(await page.text('#site-check')).toMatch(`matches the site you came from (${HOST})`);
      expect(await page.text('#http-warning')).toMatch(/plain http/);
      expect(await page.count('#outputs tbody tr')).toBe(1);
      expect(await page.text('#outputs tbody tr')).toContain(PAY_TO);
      expect(await page.text('#outputs tbody tr')).toContain('0.0015 BTC');
      expect(await page.text('#total')).toBe('0.0015 BTC');
      expect(await page.text('#network')).toMatch(/main network/);
      expect(await page.text('#memo')).toMatch(/Payment request for invoice sha256-\d+/);
      expect(await page.text('#expiry')).toMatch(/(14|15) minutes? .*left/);

      // Paying with a wallet: QR code and link of a BIP21 URI with r=, and copy fields.
      const href = await page.attribute('#wallet-link', 'href');
      expect(href).toBe(
        `bitcoin:${PAY_TO}?amount=0.0015&r=${encodeURIComponent(merchant.requestUrl('sha256'))}`,
      );
      expect(await page.count('#pay-wallet svg.qr path')).toBe(1);
      expect(await page.inputValue('#copy-address')).toBe(PAY_TO);
      expect(await page.inputValue('#copy-amount')).toBe('0.0015');
      expect(await page.inputValue('#copy-uri')).toBe(href);

      await screenshotAndAxe(page, 'payment-verified');
      await page.close();
      await shop.close();
    });
  });

  describe('sending a Payment', () => {
    it('asks to confirm without a refund address, then gets the ACK memo; the merchant got merchant_data', async () => {
      const page = await openRequest('sha256');
      expect(await verdictOf(page)).toBe('verified');
      const before = merchant.payments.length;

      await page.fill('#pay-tx', TX_HEX);
      await page.fill('#pay-memo', 'Order 42, thanks');
      await page.click('#pay-send');
      await until(
        async () => (/Without a refund address/.test(await page.text('#pay-confirm')) ? true : undefined),
        'the question about the refund address',
      );
      expect(await page.text('#pay-send')).toBe('Send anyway');
      expect(merchant.payments.length).toBe(before);

      // A wrong-network refund address is caught before anything is sent.
      await page.fill('#pay-refund', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx');
      await until(
        async () => (/test network address/.test(await page.text('#pay-refund-hint')) ? true : undefined),
        'the refund address hint',
      );
      expect(await page.attribute('#pay-refund', 'aria-invalid')).toBe('true');
      await page.fill('#pay-refund', REFUND);
      await page.click('#pay-send');

      await page.waitFor('#ack-memo');
      expect(await page.text('#ack-memo')).toMatch(
        /^Thank you! Payment for invoice sha256-\d+ received \(1 transaction\)\.$/,
      );
      expect(merchant.payments.length).toBe(before + 1);
      const received = merchant.payments.at(-1)!;
      expect(received.contentType).toBe('application/bitcoin-payment');
      const invoice = JSON.parse(new TextDecoder().decode(received.payment.merchantData));
      expect(invoice).toEqual({ invoice: received.invoice });
      expect(received.invoice).toMatch(/^sha256-\d+$/);
      expect(Buffer.from(received.payment.transactions[0]!).toString('hex')).toBe(TX_HEX);
      expect(received.payment.refundTo).toHaveLength(1);
      expect(Buffer.from(received.payment.refundTo[0]!.script)).toEqual(
        Buffer.from(addressToScript(REFUND, 'main')),
      );
      expect(received.payment.refundTo[0]!.amount).toBe(PAYMENT_AMOUNT);
      expect(received.payment.memo).toBe('Order 42, thanks');
      // Paid: no QR code inviting a second payment.
      expect(await page.count('#pay-wallet')).toBe(0);

      // The history shows it as paid, with the merchant's message.
      const row = { css: '#recent tbody tr' };
      await until(
        async () => (/Paid .*Thank you!/.test(await page.text(row)) ? true : undefined),
        'the paid row',
      );
      expect(await page.attribute(row, 'data-verdict')).toBe('verified');

      await screenshotAndAxe(page, 'payment-paid');
      await page.close();
    });

    it('an expired request blocks sending with a clear message', async () => {
      const before = merchant.payments.length;
      const page = await clickOnShop('pay-expired');
      expect(await verdictOf(page)).toBe('verified');
      expect(await page.text('#verdict-h')).toContain('Expired');
      expect(await page.text('#expiry')).toMatch(/^Expired .* ago/);
      expect(await page.text('#expired-block')).toMatch(
        /This payment request expired on .*: sending is blocked\. Ask the merchant for a new one\./,
      );
      expect(await page.attribute('#expired-block', 'role')).toBe('alert');
      // The form is gone (and disabled underneath): nothing can be sent.
      expect(await shown(page, '#pay-send')).toBe(false);
      expect(await page.evaluate(() => document.querySelector('#pay-send')!.matches(':disabled'))).toBe(true);
      // No wallet QR code for a request that must not be paid.
      expect(await page.count('#pay-wallet')).toBe(0);
      expect(merchant.payments.length).toBe(before);

      await screenshotAndAxe(page, 'payment-expired');
      await page.close();
    });
  });

  describe('what the payment page shows for each kind of request', () => {
    it('shows an HTML memo as literal text', async () => {
      const dialogs = await d.dialogs();
      const page = await openRequest('html-memo', { suffix: true });
      await page.waitFor('#memo');
      expect(await verdictOf(page)).toBe('verified');
      expect(await page.text('#memo')).toBe(HTML_MEMO);
      expect(await page.text('#memo')).toContain('<script>');
      expect(await page.count('img[src=x]')).toBe(0);
      expect(await page.count('#memo *:not(bdi)')).toBe(0);
      expect(await page.count('main script, main b')).toBe(0);
      expect(await d.dialogs()).toBe(dialogs);
      await page.screenshot('payment-html-memo');
      await page.close();
    });

    it('unsigned: says so, and names no merchant', async () => {
      const page = await clickOnShop('pay-mime');
      expect(await verdictOf(page)).toBe('unsigned');
      expect(await page.text('#verdict-h')).toMatch(/Unsigned.*Nothing proves who made/);
      expect(await page.count('#merchant-name')).toBe(0);
      expect(await page.text('#warnings')).toMatch(/not signed/);
      // Still payable with a wallet, with the warning above it.
      expect(await page.count('#pay-wallet')).toBe(1);
      await screenshotAndAxe(page, 'payment-unsigned');
      await page.close();
    });

    it('tampered: invalid, with the reason, and paying switched off', async () => {
      const page = await openRequest('tampered');
      expect(await verdictOf(page)).toBe('invalid');
      expect(await page.text('#reasons')).toMatch(/signature does not match/);
      expect(await page.count('#merchant-name')).toBe(0);
      expect(await page.count('#pay-wallet')).toBe(0);
      expect(await page.count('#send-payment')).toBe(0);
      expect(await page.text('#not-payable')).toMatch(/invalid/);
      await screenshotAndAxe(page, 'payment-tampered');
      await page.close();
    });

    it('expired certificate: invalid', async () => {
      const page = await openRequest('expired-cert');
      expect(await verdictOf(page)).toBe('invalid');
      expect(await page.count('#reasons li')).toBeGreaterThan(0);
      await page.close();
    });

    it('SHA-1 and testnet requests: verified, with their warnings', async () => {
      const sha1 = await openRequest('sha1');
      expect(await verdictOf(sha1)).toBe('verified');
      expect(await sha1.text('#warnings')).toMatch(/SHA-1/);
      await sha1.close();
      const testnet = await openRequest('testnet');
      expect(await verdictOf(testnet)).toBe('verified');
      expect(await testnet.text('#network')).toMatch(/test network/);
      expect(await testnet.text('#outputs')).toContain(describeScript(PAY_TO_SCRIPT, 'test').address!);
      await testnet.close();
    });

    it('wrong content type and oversized: a clear error', async () => {
      const page = await openRequest('wrong-type');
      expect(await page.attribute('#error', 'role')).toBe('alert');
      expect(await page.text('#error')).toBe(
        `The merchant's server did not send a payment request (it sent "text/html").`,
      );
      expect(await page.count('#verdict')).toBe(0);
      await screenshotAndAxe(page, 'payment-wrong-type');
      await page.close();

      const big = await openRequest('oversized');
      expect(await big.text('#error')).toMatch(/too large .*at most 50,000 bytes/);
      await big.close();
    });

    it('opens a pasted bitcoin: URI with r=, and a plain address URI without one', async () => {
      const page = await d.open('payment.html');
      await page.waitFor('#recent');
      await page.fill(
        '#request-input',
        `bitcoin:${PAY_TO}?amount=0.0015&r=${encodeURIComponent(merchant.requestUrl('sha256'))}`,
      );
      await page.click('#open');
      await page.waitFor('#verdict');
      expect(await verdictOf(page)).toBe('verified');
      // Without a page, the certificate is compared with the request's own host.
      expect(await page.text('#site-check')).toMatch(/address the request came from/);
      expect(new URL(await page.url()).searchParams.get('uri')).toMatch(/^bitcoin:\?r=/);

      await page.fill('#request-input', `bitcoin:${PAY_TO}?amount=0.001&label=Shop%20%3Cb%3E`);
      await page.click('#open');
      await page.waitFor('#verdict[data-kind="bip21"]');
      expect(await verdictOf(page)).toBe('unsigned');
      expect(await page.text('#label')).toBe('Shop <b>');
      expect(await page.text('#total')).toBe('0.001 BTC (100,000 sat)');
      expect(await page.attribute('#wallet-link', 'href')).toBe(
        `bitcoin:${PAY_TO}?amount=0.001&label=Shop%20%3Cb%3E`,
      );
      await screenshotAndAxe(page, 'payment-plain-address');

      await page.fill('#request-input', 'ftp://example.org/x');
      await page.click('#open');
      await until(
        async () =>
          /not a payment request Hushdrop can read/.test(await page.text('#error')) ? true : undefined,
        'the error',
      );
      await page.close();
    });

    it('asks before contacting a site Hushdrop has no access to', async () => {
      const q = new URLSearchParams({
        r: 'https://shop.example.invalid/pay/1',
        page: 'https://shop.example.invalid/',
      });
      const page = await d.open(`payment.html?${q}`);
      await page.waitFor('#permission');
      expect(await page.text('#permission-h')).toBe('Allow Hushdrop to contact shop.example.invalid?');
      expect(await page.count({ css: 'button', hasText: 'Allow and fetch' })).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await page.close();
    });

    it('the Firefox protocol handler form (?uri=) works too, after the button', async () => {
      const uri = `bitcoin:?r=${encodeURIComponent(merchant.requestUrl('unsigned'))}`;
      const page = await d.open(`payment.html?uri=${encodeURIComponent(uri)}`);
      await page.waitFor('#confirm');
      expect(await page.text('#confirm')).toContain(merchant.requestUrl('unsigned'));
      await screenshotAndAxe(page, 'payment-confirm');
      await page.click('#fetch-request');
      await settle(page);
      expect(await verdictOf(page)).toBe('unsigned');
      await page.close();
    });

    it('opened without a request, lists the requests viewed, newest first, with their verdicts', async () => {
      const page = await d.open('payment.html');
      await page.waitFor('#recent tbody tr');
      const verdicts = await page.evaluate(() =>
        [...document.querySelectorAll('#recent tbody tr')].map((tr) => tr.getAttribute('data-verdict')),
      );
      expect(verdicts).toContain('verified');
      expect(verdicts).toContain('unsigned');
      expect(verdicts).toContain('invalid');
      expect(verdicts[0]).toBe('unsigned'); // the ?uri= one just above
      // The paid row is checked where it is paid ('sending a Payment'): every kind viewed is listed
      // now, so by here it may be past the ten newest this list shows.
      await screenshotAndAxe(page, 'payment-empty');
      await page.close();
    });
  });

  describe('extra trusted roots in the options', () => {
    it('lists the test CA, refuses garbage, removes and adds it again from PEM', async () => {
      const page = await d.open('options.html');
      const entry = { css: '.root-entry', within: '#payment-roots' };
      const status = { css: '[role="status"]', within: '#payment-roots' };
      const statusSays = (re: RegExp) =>
        until(async () => (re.test(await page.text(status)) ? true : undefined), `the status ${re}`);
      await page.waitFor(entry);
      expect(await page.count(entry)).toBe(1);
      expect(await page.text(entry)).toContain('Hushdrop Test Merchant CA');

      await page.fill('#root-pem', 'hello');
      await page.click('#root-add');
      await statusSays(/PEM form/);

      await page.fill('#root-pem', merchant.rootPem);
      await page.click('#root-add');
      await statusSays(/already trusted/);

      await page.click({ css: 'button', hasText: /Remove/, within: '#payment-roots' });
      await until(async () => ((await page.count(entry)) === 0 ? true : undefined), 'the root to go');
      expect(await d.getStorage('paymentRoots')).toEqual([]);

      // Without the root, the same request is no longer verified.
      const untrusted = await openRequest('sha256');
      expect(await verdictOf(untrusted)).toBe('invalid');
      await untrusted.close();

      await page.fill('#root-pem', merchant.rootPem);
      await page.click('#root-add');
      await until(async () => ((await page.count(entry)) === 1 ? true : undefined), 'the root to come back');
      expect(await d.getStorage('paymentRoots')).toEqual([Buffer.from(merchant.rootDer).toString('base64')]);
      await screenshotAndAxe(page, 'options-payment-roots');
      await page.close();

      const trusted = await openRequest('sha256');
      expect(await verdictOf(trusted)).toBe('verified');
      await trusted.close();
    });
  });

  // Last, so its entry does not push the paid one out of the recent list checked above.
  describe('untrusted certificate names', () => {
    it('shows a merchant name carrying HTML as literal text', async () => {
      const dialogs = await d.dialogs();
      const page = await openRequest('html-merchant');
      expect(await verdictOf(page)).toBe('verified');
      const text = await page.text('main');
      expect(text).toContain(HTML_MERCHANT);
      expect(text).toContain('<script>alert("org")</script>');
      expect(await page.count('img[src=x]')).toBe(0);
      expect(await page.count('main script')).toBe(0);
      expect(await d.dialogs()).toBe(dialogs);
      await page.screenshot('payment-html-merchant');
      await page.close();
    });
  });
});
