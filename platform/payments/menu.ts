// "Check this payment request" on selected text: an invoice or URI pasted into a page, handed to
// the payment page like a clicked link. A menu click is the person's own act, made in the
// browser's menu where pages cannot reach.
import { browser } from 'wxt/browser';
import { t } from '../../lib/i18n';
import { handOffClickedPayment } from './hand-off';

export const CHECK_PAYMENT_MENU = 'hushdrop-check-payment';

/** Adds the entry; call after the other menus are made (their creation clears all entries). */
export function createPaymentMenu(): void {
  browser.contextMenus.create({
    id: CHECK_PAYMENT_MENU,
    title: t('menuCheckPayment'),
    contexts: ['selection'],
  });
}

/** Opens the payment page with the selected text, next to the tab it was selected in. */
export async function onPaymentMenuClick(
  info: { selectionText?: string; pageUrl?: string },
  tab?: { index?: number },
): Promise<void> {
  const url = await handOffClickedPayment(
    {
      text: info.selectionText ?? '',
      ...(info.pageUrl ? { pageUrl: info.pageUrl } : {}),
    },
    'menu',
  );
  if (!url) return;
  await browser.tabs.create({ url, ...(tab?.index !== undefined ? { index: tab.index + 1 } : {}) });
}
