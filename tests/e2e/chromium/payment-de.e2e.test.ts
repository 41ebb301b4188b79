// The payment page in a German browser: a verified request from the test merchant, read in
// German, in the light and the dark colour scheme, with axe finding nothing serious in either.
// Chromium only: the browser is started in German with --lang and a locale; the Firefox driver
// starts Firefox in English.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Merchant, startMerchant } from '../../merchant/server';
import { seriousViolations } from '../support/axe';
import { allowPaymentOrigins } from '../support/payment-origins';
import { type ExtensionBrowser, launchExtension, screenshot } from './harness';

declare const chrome: any;

const de: Record<string, { message: string }> = JSON.parse(
  readFileSync('public/_locales/de/messages.json', 'utf8'),
);
/** A German message with its substitutions filled in. */
const german = (key: string, ...subs: string[]) =>
  de[key]!.message.replace(/\$([1-9])/g, (_, n: string) => subs[Number(n) - 1] ?? '');

let browser: ExtensionBrowser;
let merchant: Merchant;

beforeAll(async () => {
  merchant = await startMerchant();
  browser = await launchExtension({ lang: 'de' });
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

const text = async (page: Page, selector: string) => (await page.locator(selector).textContent())?.trim();

describe('the payment page in German', () => {
  it('shows a verified request in German, light and dark, and axe finds nothing serious', async () => {
    const q = new URLSearchParams({ r: merchant.requestUrl('sha256'), page: merchant.pageUrl });
    const page = await browser.open(`payment.html?${q}`);
    // The browser speaks German to the page: its language and its messages.
    expect(await page.evaluate(() => [document.documentElement.lang, chrome.i18n.getUILanguage()])).toEqual([
      'de',
      'de',
    ]);
    expect(await text(page, 'h1')).toBe(german('payHeading'));
    await page.getByRole('button', { name: german('payFetchButton') }).click();
    await page.locator('#verdict').waitFor({ timeout: 30_000 });

    expect(await page.locator('#verdict').getAttribute('data-verdict')).toBe('verified');
    expect(await text(page, '#verdict-h .badge')).toBe(german('payVerdictVerified'));
    expect(await text(page, '#verdict-h')).toContain(german('payVerifiedHeading', '127.0.0.1'));
    expect(await text(page, '#site-check')).toBe(`✓ ${german('paySiteMatchesPage', '127.0.0.1')}`);
    expect(await text(page, '#details-h')).toBe(german('payDetailsHeading'));
    // Amounts with the decimal comma, every digit kept; the copy field keeps the wallet's form.
    expect(await text(page, '#total')).toBe('0,0015 BTC');
    expect(await page.locator('#copy-amount').inputValue()).toBe('0.0015');
    expect(await text(page, '#network')).toBe(german('payNetworkMain'));
    // "Noch 14 Minuten 59 Sekunden (bis 23.11.2026, 03:41)."
    expect(await text(page, '#expiry')).toMatch(
      /^Noch 1[45] Minuten?( \d+ Sekunden?)? \(bis \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}\)\.$/,
    );
    expect(await text(page, '#send-h')).toBe(german('paySendHeading'));
    expect(await text(page, '#wallet-h')).toBe(german('payWalletHeading'));
    expect(await page.title()).toBe(german('payPageTitle'));

    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(
        colorScheme === 'dark',
      );
      await screenshot(page, `payment-de-${colorScheme}`);
      expect(await seriousViolations(page), colorScheme).toEqual([]);
    }
    await page.close();
  });
});
