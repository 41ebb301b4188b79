// Finds BIP70 payment-request links on the page (also ones added later), marks them, and opens
// them in Hushdrop's payment page instead of leaving the browser. Pages without such links pay
// one selector query at load and a cheap check per batch of added nodes. Only a click by the
// person counts: the page's own scripted clicks are left to the page.
import { type PaymentLink, paymentLinkOf } from '../lib/payments/uri';
import { sendMessage } from '../platform/messages';

const CANDIDATES = 'a[href^="bitcoin:" i], a[type], a[href*=".bitcoinpaymentrequest" i]';

export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  runAt: 'document_idle',
  main() {
    const found = new WeakMap<HTMLAnchorElement, PaymentLink>();
    let count = 0;
    let reported = 0;

    const consider = (a: HTMLAnchorElement) => {
      if (found.has(a)) return;
      const link = paymentLinkOf({
        href: a.getAttribute('href') ?? '',
        type: a.type,
        baseUrl: document.baseURI,
      });
      if (!link) return;
      found.set(a, link);
      count++;
      a.dataset.hushdrop = 'payment-request';
      if (!a.title) a.title = 'Opens in Hushdrop: payment request';
    };
    const scan = (root: ParentNode) => {
      for (const a of root.querySelectorAll<HTMLAnchorElement>(CANDIDATES)) consider(a);
    };
    const report = () => {
      if (count === reported) return;
      reported = count;
      sendMessage('paymentLinksFound', count).catch(() => {});
    };

    scan(document);
    report();

    // Capture phase, so that for a person's click the page's own handlers and the navigation to
    // bitcoin: never run. A scripted click (untrusted) is not ours: the page could navigate by
    // itself anyway, so it behaves exactly as it would without Hushdrop. The link is read at click
    // time, so the request opened is the one the link names now.
    document.addEventListener(
      'click',
      (e) => {
        if (!e.isTrusted) return;
        const a = (e.target as Element | null)?.closest?.('a');
        if (!(a instanceof HTMLAnchorElement) || !found.has(a)) return;
        const link = paymentLinkOf({
          href: a.getAttribute('href') ?? '',
          type: a.type,
          baseUrl: document.baseURI,
        });
        if (!link) return;
        e.preventDefault();
        e.stopImmediatePropagation();
        sendMessage('openPayment', { requestUrl: link.requestUrl }).catch(() => {});
      },
      true,
    );

    new MutationObserver((records) => {
      for (const r of records)
        for (const node of r.addedNodes) {
          if (node.nodeType !== Node.ELEMENT_NODE) continue;
          const el = node as Element;
          if (el.matches(CANDIDATES)) consider(el as HTMLAnchorElement);
          else if (el.firstElementChild) scan(el);
        }
      report();
    }).observe(document.documentElement, { childList: true, subtree: true });
  },
});
