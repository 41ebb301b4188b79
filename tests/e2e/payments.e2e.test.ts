import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { seriousViolations } from './checks';
import { type ExtensionBrowser, launchExtension, screenshot, UNGRANTED_HOST } from './harness';

declare const chrome: any;

const PAY_TO = describeScript(PAY_TO_SCRIPT, 'main').address!;
const REFUND = describeScript(Uint8Array.from(Buffer.from(`76a914${'11'.repeat(20)}88ac`, 'hex')), 'main')
  .address!;
const TX_HEX = fakeTransactionHex([{ amount: PAYMENT_AMOUNT, script: PAY_TO_SCRIPT }]);

let browser: ExtensionBrowser;
let merchant: Merchant;

beforeAll(async () => {
  merchant = await startMerchant({ host: UNGRANTED_HOST });
  browser = await launchExtension({ grantHosts: [`http://${UNGRANTED_HOST}/*`] });
  // The test CA as an extra trusted root, the way the options page stores it (base64 DER).
  const root = Buffer.from(merchant.rootDer).toString('base64');
  await browser.sw.evaluate((r) => chrome.storage.local.set({ paymentRoots: [r] }), root);
});

afterAll(async () => {
  await browser?.close();
  await merchant?.close();
});

async function badgeOf(url: string): Promise<string> {
  return browser.sw.evaluate(async (u) => {
    const [tab] = await chrome.tabs.query({ url: u });
    return tab ? chrome.action.getBadgeText({ tabId: tab.id }) : 'no tab';
  }, url);
}

/**
 * Opened with a request's address, the payment page shows it and fetches when asked: this is the
 * page for one of the merchant's request kinds, after the person pressed the button.
 */
async function fetchOnPage(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Fetch payment request' }).click();
  await page.locator('#verdict, #error').first().waitFor({ timeout: 30_000 });
}
async function openRequest(kind: RequestKind): Promise<Page> {
  const q = new URLSearchParams({ r: merchant.requestUrl(kind), page: merchant.pageUrl });
  const page = await browser.open(`payment.html?${q}`);
  await fetchOnPage(page);
  return page;
}

const verdictOf = (page: Page) => page.locator('#verdict').getAttribute('data-verdict');

describe('payment links on a shop page', () => {
  it('are marked, and the badge counts them, including the link added after load', async () => {
    const page = await browser.ctx.newPage();
    await page.goto(merchant.pageUrl);
    const marked = page.locator('a[data-hushdrop="payment-request"]');
    await expect.poll(() => marked.count(), { timeout: 10_000 }).toBe(8);
    expect((await marked.evaluateAll((links) => links.map((a) => a.id))).sort()).toEqual(
      [
        'pay-bip72',
        'pay-bip21-r',
        'pay-mime',
        'pay-file',
        'pay-expired',
        'pay-tampered',
        'pay-late',
        // A plain bitcoin: link is read too, since it is a payment request of its own.
        'plain-bip21',
      ].sort(),
    );
    for (const id of ['about', 'external', 'mail', 'octet']) {
      expect(await page.locator(`#${id}`).getAttribute('data-hushdrop')).toBeNull();
    }
    await expect.poll(() => badgeOf(merchant.pageUrl), { timeout: 10_000 }).toBe('8');
    await page.close();
  });

  it('clicking one opens the payment page with the verified merchant, its outputs and amounts', async () => {
    const shop = await browser.ctx.newPage();
    await shop.goto(merchant.pageUrl);
    await shop.locator('#pay-bip72[data-hushdrop]').waitFor();
    const [page] = await Promise.all([browser.ctx.waitForEvent('page'), shop.click('#pay-bip72')]);
    // The person's click is enough: fetched at once, without the button.
    await page.locator('#verdict').waitFor({ timeout: 30_000 });
    expect(await page.locator('#confirm').count()).toBe(0);
    expect(shop.url()).toBe(merchant.pageUrl);
    // Opened with a one-time id only; then the address names the request, for a reload.
    const opened = new URL(
      await page.evaluate(
        () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).name,
      ),
    );
    expect([...opened.searchParams.keys()]).toEqual(['open']);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/payment.html');
    expect(url.searchParams.get('r')).toBe(merchant.requestUrl('sha256'));
    expect(url.searchParams.get('page')).toBe(merchant.pageUrl);

    expect(await verdictOf(page)).toBe('verified');
    expect(await page.locator('#merchant-name').textContent()).toBe(UNGRANTED_HOST);
    expect(await page.locator('#merchant-issuer').textContent()).toBe('Hushdrop Test Merchant CA');
    expect(await page.locator('#site-check').textContent()).toMatch(
      `matches the site you came from (${UNGRANTED_HOST})`,
    );
    expect(await page.locator('#http-warning').textContent()).toMatch(/plain http/);
    const rows = page.locator('#outputs tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(PAY_TO);
    expect(await rows.first().textContent()).toContain('0.0015 BTC');
    expect(await page.locator('#total').textContent()).toBe('0.0015 BTC');
    expect(await page.locator('#network').textContent()).toMatch(/main network/);
    expect(await page.locator('#memo').textContent()).toMatch(/Payment request for invoice sha256-\d+/);
    expect(await page.locator('#expiry').textContent()).toMatch(/(14|15) minutes? .*left/);

    // Paying with a wallet: QR code and link of a BIP21 URI with r=, and copy fields.
    const href = await page.locator('#wallet-link').getAttribute('href');
    expect(href).toBe(
      `bitcoin:${PAY_TO}?amount=0.0015&r=${encodeURIComponent(merchant.requestUrl('sha256'))}`,
    );
    expect(await page.locator('#pay-wallet svg.qr path').count()).toBe(1);
    expect(await page.locator('#copy-address').inputValue()).toBe(PAY_TO);
    expect(await page.locator('#copy-amount').inputValue()).toBe('0.0015');
    expect(await page.locator('#copy-uri').inputValue()).toBe(href);

    await screenshot(page, 'payment-verified');
    expect(await seriousViolations(page)).toEqual([]);
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
    await expect.poll(() => page.locator('#pay-confirm').textContent()).toMatch(/Without a refund address/);
    expect(await page.locator('#pay-send').textContent()).toBe('Send anyway');
    expect(merchant.payments.length).toBe(before);

    // A wrong-network refund address is caught before anything is sent.
    await page.fill('#pay-refund', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx');
    expect(await page.locator('#pay-refund-hint').textContent()).toMatch(/test network address/);
    expect(await page.locator('#pay-refund').getAttribute('aria-invalid')).toBe('true');
    await page.fill('#pay-refund', REFUND);
    await page.click('#pay-send');

    await page.locator('#ack-memo').waitFor({ timeout: 30_000 });
    expect(await page.locator('#ack-memo').textContent()).toMatch(
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
    expect(await page.locator('#pay-wallet').count()).toBe(0);

    // The history shows it as paid, with the merchant's message.
    const row = page.locator('#recent tbody tr').first();
    await expect.poll(() => row.textContent()).toMatch(/Paid .*Thank you!/);
    expect(await row.getAttribute('data-verdict')).toBe('verified');

    await screenshot(page, 'payment-paid');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('an expired request blocks sending with a clear message', async () => {
    const shop = await browser.ctx.newPage();
    await shop.goto(merchant.pageUrl);
    await shop.locator('#pay-expired[data-hushdrop]').waitFor();
    const [page] = await Promise.all([browser.ctx.waitForEvent('page'), shop.click('#pay-expired')]);
    await page.locator('#verdict').waitFor({ timeout: 30_000 });
    await shop.close();
    const before = merchant.payments.length;

    expect(await verdictOf(page)).toBe('verified');
    expect(await page.locator('#verdict-h').textContent()).toContain('Expired');
    expect(await page.locator('#expiry').textContent()).toMatch(/^Expired .* ago/);
    expect(await page.locator('#expired-block').textContent()).toMatch(
      /This payment request expired on .*: sending is blocked\. Ask the merchant for a new one\./,
    );
    expect(await page.locator('#expired-block').getAttribute('role')).toBe('alert');
    // The form is gone (and disabled underneath): nothing can be sent.
    expect(await page.locator('#pay-send').isVisible()).toBe(false);
    expect(await page.locator('#pay-send').isDisabled()).toBe(true);
    // No wallet QR code for a request that must not be paid.
    expect(await page.locator('#pay-wallet').count()).toBe(0);
    expect(merchant.payments.length).toBe(before);

    await screenshot(page, 'payment-expired');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});

describe('what the payment page shows for each kind of request', () => {
  it('shows an HTML memo as literal text', async () => {
    const page = await browser.ctx.newPage();
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs++;
      dialog.dismiss().catch(() => {});
    });
    const q = new URLSearchParams({
      r: merchant.requestUrl('html-memo', { suffix: true }),
      page: merchant.pageUrl,
    });
    await page.goto(browser.url(`payment.html?${q}`));
    await fetchOnPage(page);
    await page.locator('#memo').waitFor({ timeout: 30_000 });
    expect(await verdictOf(page)).toBe('verified');
    expect(await page.locator('#memo').textContent()).toBe(HTML_MEMO);
    expect(await page.locator('#memo').textContent()).toContain('<script>');
    expect(await page.locator('img[src=x]').count()).toBe(0);
    expect(await page.locator('#memo *:not(bdi)').count()).toBe(0);
    expect(await page.locator('main script, main b').count()).toBe(0);
    expect(dialogs).toBe(0);
    await screenshot(page, 'payment-html-memo');
    await page.close();
  });

  it('unsigned: says so, and names no merchant', async () => {
    const shop = await browser.ctx.newPage();
    await shop.goto(merchant.pageUrl);
    await shop.locator('#pay-mime[data-hushdrop]').waitFor();
    const [page] = await Promise.all([browser.ctx.waitForEvent('page'), shop.click('#pay-mime')]);
    await page.locator('#verdict').waitFor({ timeout: 30_000 });
    await shop.close();
    expect(await verdictOf(page)).toBe('unsigned');
    expect(await page.locator('#verdict-h').textContent()).toMatch(/Unsigned.*Nothing proves who made/);
    expect(await page.locator('#merchant-name').count()).toBe(0);
    expect(await page.locator('#warnings').textContent()).toMatch(/not signed/);
    // Still payable with a wallet, with the warning above it.
    expect(await page.locator('#pay-wallet').count()).toBe(1);
    await screenshot(page, 'payment-unsigned');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('tampered: invalid, with the reason, and paying switched off', async () => {
    const page = await openRequest('tampered');
    expect(await verdictOf(page)).toBe('invalid');
    expect(await page.locator('#reasons').textContent()).toMatch(/signature does not match/);
    expect(await page.locator('#merchant-name').count()).toBe(0);
    expect(await page.locator('#pay-wallet').count()).toBe(0);
    expect(await page.locator('#send-payment').count()).toBe(0);
    expect(await page.locator('#not-payable').textContent()).toMatch(/invalid/);
    await screenshot(page, 'payment-tampered');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('expired certificate: invalid', async () => {
    const page = await openRequest('expired-cert');
    expect(await verdictOf(page)).toBe('invalid');
    expect(await page.locator('#reasons li').count()).toBeGreaterThan(0);
    await page.close();
  });

  it('SHA-1 and testnet requests: verified, with their warnings', async () => {
    const sha1 = await openRequest('sha1');
    expect(await verdictOf(sha1)).toBe('verified');
    expect(await sha1.locator('#warnings').textContent()).toMatch(/SHA-1/);
    await sha1.close();
    const testnet = await openRequest('testnet');
    expect(await verdictOf(testnet)).toBe('verified');
    expect(await testnet.locator('#network').textContent()).toMatch(/test network/);
    const testAddress = describeScript(PAY_TO_SCRIPT, 'test').address!;
    expect(await testnet.locator('#outputs').textContent()).toContain(testAddress);
    await testnet.close();
  });

  it('wrong content type and oversized: a clear error', async () => {
    const page = await openRequest('wrong-type');
    const error = page.locator('#error');
    expect(await error.getAttribute('role')).toBe('alert');
    expect(await error.textContent()).toBe(
      `The merchant's server did not send a payment request (it sent "text/html").`,
    );
    expect(await page.locator('#verdict').count()).toBe(0);
    await screenshot(page, 'payment-wrong-type');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();

    const big = await openRequest('oversized');
    expect(await big.locator('#error').textContent()).toMatch(/too large .*at most 50,000 bytes/);
    await big.close();
  });

  it('opens a pasted bitcoin: URI with r=, and a plain address URI without one', async () => {
    const page = await browser.open('payment.html');
    await page.locator('#recent').waitFor();
    await page.fill(
      '#request-input',
      `bitcoin:${PAY_TO}?amount=0.0015&r=${encodeURIComponent(merchant.requestUrl('sha256'))}`,
    );
    await page.click('#open');
    await page.locator('#verdict').waitFor({ timeout: 30_000 });
    expect(await verdictOf(page)).toBe('verified');
    // Without a page, the certificate is compared with the request's own host.
    expect(await page.locator('#site-check').textContent()).toMatch(/address the request came from/);
    expect(new URL(page.url()).searchParams.get('uri')).toMatch(/^bitcoin:\?r=/);

    await page.fill('#request-input', `bitcoin:${PAY_TO}?amount=0.001&label=Shop%20%3Cb%3E`);
    await page.click('#open');
    await page.locator('#verdict[data-kind="bip21"]').waitFor();
    expect(await verdictOf(page)).toBe('unsigned');
    expect(await page.locator('#label').textContent()).toBe('Shop <b>');
    expect(await page.locator('#total').textContent()).toBe('0.001 BTC (100,000 sat)');
    expect(await page.locator('#wallet-link').getAttribute('href')).toBe(
      `bitcoin:${PAY_TO}?amount=0.001&label=Shop%20%3Cb%3E`,
    );
    await screenshot(page, 'payment-plain-address');
    expect(await seriousViolations(page)).toEqual([]);

    await page.fill('#request-input', 'ftp://example.org/x');
    await page.click('#open');
    expect(await page.locator('#error').textContent()).toMatch(/not a payment request Hushdrop can read/);
    await page.close();
  });

  it('asks before contacting a site Hushdrop has no access to', async () => {
    const q = new URLSearchParams({
      r: 'https://shop.example.invalid/pay/1',
      page: 'https://shop.example.invalid/',
    });
    const page = await browser.open(`payment.html?${q}`);
    await page.locator('#permission').waitFor();
    expect(await page.locator('#permission-h').textContent()).toBe(
      'Allow Hushdrop to contact shop.example.invalid?',
    );
    expect(await page.getByRole('button', { name: 'Allow and fetch' }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('the Firefox protocol handler form (?uri=) works too, after the button', async () => {
    const uri = `bitcoin:?r=${encodeURIComponent(merchant.requestUrl('unsigned'))}`;
    const page = await browser.open(`payment.html?uri=${encodeURIComponent(uri)}`);
    await page.locator('#confirm').waitFor();
    expect(await page.locator('#confirm').textContent()).toContain(merchant.requestUrl('unsigned'));
    await screenshot(page, 'payment-confirm');
    expect(await seriousViolations(page)).toEqual([]);
    await fetchOnPage(page);
    expect(await verdictOf(page)).toBe('unsigned');
    await page.close();
  });

  it('opened without a request, lists the requests viewed, newest first, with their verdicts', async () => {
    const page = await browser.open('payment.html');
    const rows = page.locator('#recent tbody tr');
    await rows.first().waitFor();
    const verdicts = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-verdict')));
    expect(verdicts).toContain('verified');
    expect(verdicts).toContain('unsigned');
    expect(verdicts).toContain('invalid');
    expect(verdicts[0]).toBe('unsigned'); // the ?uri= one just above
    expect(await page.locator('#recent').textContent()).toMatch(/Paid /);
    await screenshot(page, 'payment-empty');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});

describe('extra trusted roots in the options', () => {
  it('lists the test CA, refuses garbage, removes and adds it again from PEM', async () => {
    const page = await browser.open('options.html');
    const section = page.locator('#payment-roots');
    await section.locator('.root-entry').first().waitFor();
    expect(await section.locator('.root-entry').count()).toBe(1);
    expect(await section.locator('.root-entry').textContent()).toContain('Hushdrop Test Merchant CA');

    await page.fill('#root-pem', 'hello');
    await page.click('#root-add');
    await expect.poll(() => section.locator('[role="status"]').textContent()).toMatch(/PEM form/);

    await page.fill('#root-pem', merchant.rootPem);
    await page.click('#root-add');
    await expect.poll(() => section.locator('[role="status"]').textContent()).toMatch(/already trusted/);

    await section.getByRole('button', { name: /Remove/ }).click();
    await expect.poll(() => section.locator('.root-entry').count()).toBe(0);
    const stored = () => browser.sw.evaluate(() => chrome.storage.local.get('paymentRoots'));
    expect((await stored()).paymentRoots).toEqual([]);

    // Without the root, the same request is no longer verified.
    const untrusted = await openRequest('sha256');
    expect(await verdictOf(untrusted)).toBe('invalid');
    await untrusted.close();

    await page.fill('#root-pem', merchant.rootPem);
    await page.click('#root-add');
    await expect.poll(() => section.locator('.root-entry').count()).toBe(1);
    expect((await stored()).paymentRoots).toEqual([Buffer.from(merchant.rootDer).toString('base64')]);
    await screenshot(page, 'options-payment-roots');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();

    const trusted = await openRequest('sha256');
    expect(await verdictOf(trusted)).toBe('verified');
    await trusted.close();
  });
});

describe('the extension CSP', () => {
  // Playwright's evaluate runs outside the page's CSP for its own task, so the decoding must be
  // driven by the page itself (it decodes after a real click on its button), and the CSP checked
  // from a timer callback, which runs on the page's own path.
  const evalFromTimer = () =>
    new Promise<string>((resolve) =>
      setTimeout(() => {
        try {
          resolve(String(Function('return "eval allowed"')()));
        } catch (err) {
          resolve(String((err as Error).name));
        }
      }),
    );

  it('forbids eval in the payment page, which decoded and verified the request itself, and in the worker', async () => {
    const page = await openRequest('sha256');
    expect(await verdictOf(page)).toBe('verified');
    expect(await page.evaluate(evalFromTimer)).toBe('EvalError');
    expect(await browser.sw.evaluate(evalFromTimer)).toBe('EvalError');
    await page.close();
  });
});

// Last, so its entry does not push the paid one out of the recent list checked above.
describe('untrusted certificate names', () => {
  it('shows a merchant name carrying HTML as literal text', async () => {
    const page = await browser.ctx.newPage();
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs++;
      dialog.dismiss().catch(() => {});
    });
    const q = new URLSearchParams({ r: merchant.requestUrl('html-merchant'), page: merchant.pageUrl });
    await page.goto(browser.url(`payment.html?${q}`));
    await fetchOnPage(page);
    expect(await verdictOf(page)).toBe('verified');
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain(HTML_MERCHANT);
    expect(text).toContain('<script>alert("org")</script>');
    expect(await page.locator('img[src=x]').count()).toBe(0);
    expect(await page.locator('main script').count()).toBe(0);
    expect(dialogs).toBe(0);
    await screenshot(page, 'payment-html-merchant');
    await page.close();
  });
});
