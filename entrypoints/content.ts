// Finds payment links on the page (also ones added later): bitcoin: URIs of every form,
// lightning: and lnurlp: links, BIP70 payment requests. Counts them on the toolbar badge, and
// opens a link the person clicks in Hushdrop's payment page instead of leaving the browser.
// It leaves no mark a page can read (no attribute, title, element, event or global): a page that
// could see one would know the person uses Hushdrop and bitcoin. The badge, outside the page,
// is the only sign that links were found. The page decides what is in its DOM, so the work it
// can cause is bounded:
// a precise selector (ordinary links never reach script), at most LINKS_EXAMINED_CAP links
// examined, added links handled in one batch per MUTATION_BATCH_MS, at most REPORTS_CAP badge
// messages. Only a click by the person counts: the page's own scripted clicks are left to the page.
// Links are only classified here (lib/payments/forms.ts), never parsed: parsing every link of a page
// once doubled this script's cost (bench row f); the payment page reads the one clicked.
import { paymentLinkOf } from '../lib/payments/forms';
import {
  LINKS_EXAMINED_CAP,
  MUTATION_BATCH_MS,
  PAYMENT_LINK_SELECTOR,
  REPORTS_CAP,
} from '../lib/payments/page-links';
import { sendMessage } from '../platform/messaging/send';

/** Above this many queued mutation records, one scan of the whole page is cheaper than replaying them. */
const RESCAN_AFTER_RECORDS = 1000;

const anchorOf = (a: HTMLAnchorElement) => ({
  href: a.getAttribute('href') ?? '',
  type: a.type,
  baseUrl: document.baseURI,
});
const linkOf = (a: HTMLAnchorElement) => paymentLinkOf(anchorOf(a));

export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  runAt: 'document_idle',
  main() {
    const seen = new WeakSet<Element>();
    let examined = 0;
    let found = 0;
    let capped = false;
    let reports = 0;
    let reported = { found: 0, capped: false };

    const consider = (a: HTMLAnchorElement) => {
      if (capped || seen.has(a)) return;
      if (examined >= LINKS_EXAMINED_CAP) {
        capped = true;
        return;
      }
      seen.add(a);
      examined++;
      if (linkOf(a)) found++;
    };
    const scan = (root: ParentNode) => {
      for (const a of root.querySelectorAll<HTMLAnchorElement>(PAYMENT_LINK_SELECTOR)) {
        if (capped) return;
        consider(a);
      }
    };
    const report = () => {
      if (found === reported.found && capped === reported.capped) return;
      if (reports >= REPORTS_CAP) return;
      reports++;
      reported = { found, capped };
      sendMessage('paymentLinksFound', reported).catch(() => {});
    };

    scan(document);
    report();

    // Capture phase, so that for a person's click the page's own handlers and the navigation to
    // bitcoin: never run. A scripted click (untrusted) is not ours: the page could navigate by
    // itself anyway, so it behaves exactly as it would without Hushdrop. The link is read at click
    // time, so a link past the cap or added a moment ago works too.
    document.addEventListener(
      'click',
      (e) => {
        if (!e.isTrusted) return;
        const a = (e.target as Element | null)?.closest?.('a');
        const link = a instanceof HTMLAnchorElement ? linkOf(a) : undefined;
        if (!link) return;
        e.preventDefault();
        e.stopImmediatePropagation();
        const what = link.form === 'bip70' ? { requestUrl: link.text } : { text: link.text };
        sendMessage('openPayment', what).catch(() => {});
      },
      true,
    );

    // Links the page adds: records are queued and handled in one batch, and no longer watched
    // once the cap is reached.
    let queued: MutationRecord[] = [];
    let rescan = false;
    let scheduled = false;
    const flush = () => {
      scheduled = false;
      const records = queued;
      queued = [];
      if (rescan) scan(document);
      else
        for (const r of records)
          for (const node of r.addedNodes) {
            if (capped) break;
            if (node.nodeType !== Node.ELEMENT_NODE) continue;
            const el = node as Element;
            if (el.matches(PAYMENT_LINK_SELECTOR)) consider(el as HTMLAnchorElement);
            else if (el.firstElementChild) scan(el);
          }
      rescan = false;
      if (capped) observer.disconnect();
      report();
    };
    const observer = new MutationObserver((records) => {
      if (!rescan && queued.length + records.length > RESCAN_AFTER_RECORDS) {
        rescan = true;
        queued = [];
      }
      if (!rescan) for (const r of records) queued.push(r);
      if (!scheduled) {
        scheduled = true;
        setTimeout(flush, MUTATION_BATCH_MS);
      }
    });
    if (!capped) observer.observe(document.documentElement, { childList: true, subtree: true });
  },
});
