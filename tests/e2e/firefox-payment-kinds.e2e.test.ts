// Today's payment links (tests/e2e/payment-kinds.ts) in Firefox: real clicks, Firefox's own
// right-click menu for the selected invoice, and its permission doorhanger for the LNURL host.
// Apart, for Firefox only: the payment page says that lightning: links cannot be handed to
// Hushdrop the way bitcoin: links can (Firefox lets extensions handle bitcoin:, not lightning:).
import { expect, it } from 'vitest';
import { type FirefoxExtension, type FirefoxPage, launchFirefox } from './firefox-harness';
import { type PaymentBrowser, paymentKindScenarios, type Tab } from './payment-kinds';

const tabOf = (page: FirefoxPage): Tab & { page: FirefoxPage } => ({
  page,
  text: (css) => page.text(css),
  attribute: (css, name) => page.attribute(css, name),
  inputValue: (css) => page.inputValue(css),
  count: (css) => page.count(css),
  waitFor: (css) => page.waitFor(css),
  click: (css) => page.click(css),
  fill: (css, text) => page.fill(css, text),
  close: () => page.close(),
});

let fx: FirefoxExtension;

paymentKindScenarios(async (): Promise<PaymentBrowser> => {
  fx = await launchFirefox();
  const pageOf = (tab: Tab) => (tab as ReturnType<typeof tabOf>).page;
  return {
    openWebPage: async (url) => tabOf(await fx.openUrl(url)),
    openExtensionPage: async (path) => tabOf(await fx.open(path)),
    clickOpensPaymentPage: async (tab, css) => tabOf(await fx.waitForNewPage(() => pageOf(tab).click(css))),
    async checkSelectedText(tab, css) {
      const shop = pageOf(tab);
      await shop.evaluate((selector: string) => {
        window.getSelection()!.selectAllChildren(document.querySelector(selector)!);
      }, css);
      return tabOf(
        await fx.waitForNewPage(async () => {
          await shop.rightClick(css);
          await fx.chooseMenuItem('Check this payment request with Hushdrop');
        }),
      );
    },
    async allowSiteIfAsked() {
      expect(await fx.answerPermissionPrompt(true)).toContain('127.0.0.2');
    },
    async badgeText(url) {
      // Without the "tabs" permission a tab's URL is not ours to read: find the tab by its badge's page.
      const badges: string[] = await fx.extension(async (u: string) => {
        const b = (globalThis as any).browser;
        const tabs: { id: number; url?: string }[] = await b.tabs.query({});
        const texts = await Promise.all(tabs.map((t) => b.browserAction.getBadgeText({ tabId: t.id })));
        return tabs.map((t, i) => (t.url === undefined || t.url === u ? texts[i] : '')) as string[];
      }, url);
      return badges.find((text) => text !== '') ?? '';
    },
    close: () => fx.close(),
  };
});

it('Firefox says that lightning: links reach Hushdrop only from web pages and pasting', async () => {
  const page = await fx.open('payment.html');
  await page.waitFor('#firefox-lightning');
  expect(await page.text('#firefox-lightning')).toMatch(/no extension can take lightning: links/);
  await page.close();
});
