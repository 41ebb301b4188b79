// Chromium only: the extension's content security policy, seen from code that runs on the page's
// own path. Playwright's evaluate runs outside the page's CSP for its own task, but a timer it
// sets fires as the page's; Marionette's scripts run in a sandbox with their own principal, where
// the page's CSP does not apply, so Firefox offers no honest way to check it. Chromium also has the
// service worker to check; Firefox's background is a page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Merchant, startMerchant } from '../../merchant/server';
import { allowPaymentOrigins } from '../support/payment-origins';
import { type ExtensionBrowser, launchExtension } from './harness';

declare const chrome: any;

let browser: ExtensionBrowser;
let merchant: Merchant;

beforeAll(async () => {
  merchant = await startMerchant();
  browser = await launchExtension();
  // The test CA as an extra trusted root, the way the options page stores it (base64 DER).
  const root = Buffer.from(merchant.rootDer).toString('base64');
  await browser.sw.evaluate((r) => chrome.storage.local.set({ paymentRoots: [r] }), root);
  // The merchant runs on loopback: allowed up front, as the person would on the page.
  await allowPaymentOrigins(
    (items) => browser.sw.evaluate((i) => chrome.storage.local.set(i), items),
    merchant.origin,
  );
});

afterAll(async () => {
  await browser?.close();
  await merchant?.close();
});

describe('the extension CSP', () => {
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
    // The decoding is driven by the page itself: it decodes after a real click on its button.
    const q = new URLSearchParams({ r: merchant.requestUrl('sha256'), page: merchant.pageUrl });
    const page = await browser.open(`payment.html?${q}`);
    await page.getByRole('button', { name: 'Fetch payment request' }).click();
    await page.locator('#verdict').waitFor({ timeout: 30_000 });
    expect(await page.locator('#verdict').getAttribute('data-verdict')).toBe('verified');
    expect(await page.evaluate(evalFromTimer)).toBe('EvalError');
    expect(await browser.sw.evaluate(evalFromTimer)).toBe('EvalError');
    await page.close();
  });
});
