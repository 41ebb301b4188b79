// Today's payment links (tests/e2e/payment-kinds.ts) in Chromium. The "Check this payment
// request" entry is chosen by dispatching the menu's click event in the service worker, as the
// other Chromium right-click tests do: headless Chromium's context menu is native and out of
// reach. The selection is the page's own, read from it.
import type { Page } from 'playwright-core';
import { launchExtension } from './harness';
import { LNURL_HOST, type PaymentBrowser, paymentKindScenarios, type Tab } from './payment-kinds';

declare const chrome: any;

const tabOf = (page: Page): Tab & { page: Page } => ({
  page,
  text: async (css) => (await page.locator(css).first().textContent()) ?? '',
  attribute: (css, name) => page.locator(css).first().getAttribute(name),
  inputValue: (css) => page.locator(css).first().inputValue(),
  count: (css) => page.locator(css).count(),
  waitFor: (css) => page.locator(css).first().waitFor({ timeout: 30_000 }),
  click: (css) => page.locator(css).first().click(),
  fill: (css, text) => page.locator(css).first().fill(text),
  close: () => page.close(),
});

paymentKindScenarios(async (): Promise<PaymentBrowser> => {
  const browser = await launchExtension({ grantHosts: [`http://${LNURL_HOST}/*`] });
  const pageOf = (tab: Tab) => (tab as ReturnType<typeof tabOf>).page;
  return {
    async openWebPage(url) {
      const page = await browser.ctx.newPage();
      await page.goto(url);
      return tabOf(page);
    },
    openExtensionPage: async (path) => tabOf(await browser.open(path)),
    async clickOpensPaymentPage(tab, css) {
      const [page] = await Promise.all([browser.ctx.waitForEvent('page'), pageOf(tab).click(css)]);
      return tabOf(page);
    },
    async checkSelectedText(tab, css) {
      const shop = pageOf(tab);
      const selectionText = await shop.evaluate((selector) => {
        window.getSelection()!.selectAllChildren(document.querySelector(selector)!);
        return window.getSelection()!.toString();
      }, css);
      const [page] = await Promise.all([
        browser.ctx.waitForEvent('page'),
        browser.sw.evaluate(
          async ({ selectionText, pageUrl }) => {
            const [tab] = await chrome.tabs.query({ url: pageUrl });
            chrome.contextMenus.onClicked.dispatch(
              { menuItemId: 'hushdrop-check-payment', selectionText, pageUrl, editable: false, frameId: 0 },
              tab,
            );
          },
          { selectionText, pageUrl: shop.url() },
        ),
      ]);
      return tabOf(page);
    },
    // Granted at launch (grantHosts): Chromium's prompt is native and cannot be answered here.
    allowSiteIfAsked: async () => {},
    badgeText: (url) =>
      browser.sw.evaluate(async (u) => {
        const [tab] = await chrome.tabs.query({ url: u });
        return tab ? chrome.action.getBadgeText({ tabId: tab.id }) : 'no tab';
      }, url),
    close: () => browser.close(),
  };
});
