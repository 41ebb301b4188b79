import { browser } from 'wxt/browser';

/** The payment page for a request URL (`r`), and the page it was found on. */
export function paymentPageUrl(requestUrl: string, pageUrl?: string): string {
  const q = new URLSearchParams({ r: requestUrl });
  if (pageUrl) q.set('page', pageUrl);
  return `${browser.runtime.getURL('/payment.html')}?${q}`;
}
