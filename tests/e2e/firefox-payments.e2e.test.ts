// Payment requests in real headless Firefox, against the test merchant on 127.0.0.2 (a host the
// manifest does not grant, so Firefox's permission prompt is answered on the way): links found on
// a shop page, the verdicts, the Payment / PaymentACK exchange, and the bitcoin: protocol handler.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeScript } from '../../lib/payments/addresses';
import { HTML_MEMO, type Merchant, PAY_TO_SCRIPT, PAYMENT_AMOUNT, startMerchant } from '../merchant/server';
import { fakeTransactionHex } from '../merchant/transactions';
import { type FirefoxExtension, type FirefoxPage, launchFirefox, until } from './firefox-harness';
import { UNGRANTED_HOST as HOST } from './harness';

const PAY_TO = describeScript(PAY_TO_SCRIPT, 'main').address!;
const REFUND = describeScript(Uint8Array.from(Buffer.from(`76a914${'11'.repeat(20)}88ac`, 'hex')), 'main')
  .address!;
const TX_HEX = fakeTransactionHex([{ amount: PAYMENT_AMOUNT, script: PAY_TO_SCRIPT }]);

let fx: FirefoxExtension;
let merchant: Merchant;
let granted = false;

beforeAll(async () => {
  merchant = await startMerchant({ host: HOST });
  fx = await launchFirefox();
  // The test CA as an extra trusted root, the way the options page stores it (base64 DER).
  const root = Buffer.from(merchant.rootDer).toString('base64');
  await fx.extension(
    (r: string) => (globalThis as any).browser.storage.local.set({ paymentRoots: [r] }),
    root,
  );
});

afterAll(async () => {
  await fx?.close();
  await merchant?.close();
});

const verdictOf = (page: FirefoxPage) => page.attribute('#verdict', 'data-verdict');

/** Waits for the page to show a verdict or an error, allowing the merchant's host on first use. */
async function settle(page: FirefoxPage): Promise<void> {
  const state = await until(
    async () =>
      (await page.count('#verdict, #error')) > 0
        ? 'shown'
        : (await page.count('#allow')) > 0
          ? 'permission'
          : undefined,
    'a verdict, an error or a permission request',
  );
  if (state === 'permission') {
    expect(await page.text('#permission-h')).toContain(`Allow Hushdrop to contact ${HOST}`);
    await page.click('#allow');
    if (!granted) expect(await fx.answerPermissionPrompt(true)).toContain(HOST);
    granted = true;
    await page.waitFor('#verdict, #error');
  }
}

/** The payment page, with a request link typed in and opened, as a person would. */
async function openTyped(link: string): Promise<FirefoxPage> {
  const page = await fx.open('payment.html');
  await page.fill('#request-input', link);
  await page.click('#open');
  if (!granted) {
    // The click asks Firefox for the merchant's host; answer the prompt it shows.
    expect(await fx.answerPermissionPrompt(true)).toContain(HOST);
    granted = true;
  }
  await settle(page);
  return page;
}

describe('a shop page', () => {
  it('has its payment links marked, and one click opens the verified request', async () => {
    const shop = await fx.openUrl(merchant.pageUrl);
    const marked = 'a[data-hushdrop="payment-request"]';
    await until(async () => ((await shop.count(marked)) === 8 ? true : undefined), 'eight marked links');
    // A plain bitcoin: link is read too, since it is a payment request of its own.
    expect(await shop.attribute('#plain-bip21', 'data-hushdrop')).toBe('payment-request');
    expect(await shop.attribute('#about', 'data-hushdrop')).toBeNull();
    // Every tab's badge (without the "tabs" permission a tab's URL is not ours to query): the shop's says 7.
    const badges = () =>
      fx.extension(async () => {
        const b = (globalThis as any).browser;
        const tabs: { id: number }[] = await b.tabs.query({});
        return Promise.all(tabs.map((t) => b.browserAction.getBadgeText({ tabId: t.id }))) as Promise<
          string[]
        >;
      });
    await until(async () => ((await badges()).includes('8') ? true : undefined), 'the badge to count 8');

    const page = await fx.waitForNewPage(() => shop.click('#pay-bip72'));
    await settle(page);
    expect(await verdictOf(page)).toBe('verified');
    expect(await page.text('#merchant-name')).toBe(HOST);
    expect(await page.text('#merchant-issuer')).toBe('Hushdrop Test Merchant CA');
    expect(await page.text('#site-check')).toMatch(/matches the site you came from \(127\.0\.0\.2\)/);
    expect(await page.text('#total')).toBe('0.0015 BTC');
    expect(await page.text('#outputs')).toContain(PAY_TO);
    expect(await page.attribute('#wallet-link', 'href')).toBe(
      `bitcoin:${PAY_TO}?amount=0.0015&r=${encodeURIComponent(merchant.requestUrl('sha256'))}`,
    );
    await page.screenshot('payment-verified');
    await page.close();
    await shop.close();
  });
});

describe('verdicts', () => {
  it('tampered: invalid, with the reason, and paying switched off', async () => {
    const page = await openTyped(merchant.requestUrl('tampered'));
    expect(await verdictOf(page)).toBe('invalid');
    expect(await page.text('#reasons')).toMatch(/signature does not match/);
    expect(await page.count('#send-payment')).toBe(0);
    await page.close();
  });

  it('unsigned: says so, and names no merchant', async () => {
    const page = await openTyped(merchant.requestUrl('unsigned'));
    expect(await verdictOf(page)).toBe('unsigned');
    expect(await page.count('#merchant-name')).toBe(0);
    await page.close();
  });

  it('an HTML memo is shown as text', async () => {
    const page = await openTyped(merchant.requestUrl('html-memo'));
    expect(await page.text('#memo')).toBe(HTML_MEMO);
    expect(await page.count('#memo *:not(bdi)')).toBe(0);
    await page.close();
  });

  it('expired: sending is blocked', async () => {
    const page = await openTyped(merchant.requestUrl('expired'));
    expect(await page.text('#expired-block')).toMatch(/sending is blocked/);
    expect(await page.evaluate(() => document.querySelector('#pay-send')!.matches(':disabled'))).toBe(true);
    expect(await page.evaluate(() => document.querySelector('#pay-send')!.getClientRects().length)).toBe(0);
    await page.close();
  });
});

describe('sending a Payment', () => {
  it('sends the transaction and a refund address, and shows the merchant’s ACK', async () => {
    const page = await openTyped(merchant.requestUrl('sha256'));
    expect(await verdictOf(page)).toBe('verified');
    const before = merchant.payments.length;
    await page.fill('#pay-tx', TX_HEX);
    await page.fill('#pay-refund', REFUND);
    await page.click('#pay-send');
    await page.waitFor('#ack-memo');
    expect(await page.text('#ack-memo')).toMatch(/^Thank you! Payment for invoice sha256-\d+ received/);
    expect(merchant.payments.length).toBe(before + 1);
    const received = merchant.payments.at(-1)!;
    expect(received.contentType).toBe('application/bitcoin-payment');
    expect(Buffer.from(received.payment.transactions[0]!).toString('hex')).toBe(TX_HEX);
    await page.screenshot('payment-paid');
    await page.close();
  });
});

describe('the bitcoin: protocol handler', () => {
  it('a bitcoin: link the content script leaves alone opens the payment page after Firefox asks which application to use', async () => {
    const shop = await fx.openUrl(merchant.pageUrl);
    // A person's click goes to the content script now (plain links are read on the page); a
    // scripted click is left to the page, so the navigation reaches Firefox's own handler, as a
    // bitcoin: link opened from anywhere else does.
    await shop.evaluate(() => (document.getElementById('plain-bip21') as HTMLAnchorElement).click());
    expect(await fx.answerLinkHandlerDialog()).toMatch(/open the bitcoin link with Hushdrop/);
    await shop.waitFor('#verdict[data-kind="bip21"]');
    expect(await shop.url()).toContain('/payment.html?uri=bitcoin');
    expect(await shop.text('#total')).toBe('0.0015 BTC (150,000 sat)');
    expect(await shop.attribute('#wallet-link', 'href')).toBe(`bitcoin:${PAY_TO}?amount=0.0015`);
    await shop.close();
  });
});
