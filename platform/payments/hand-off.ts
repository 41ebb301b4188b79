// The hand-off from a click on a payment link (or the menu entry on selected text) to the payment
// page. The background leaves the request in session storage under a random id, and the page
// takes it once. Session storage is out of reach of web pages and content scripts, and nothing in
// the page's address can claim to be such a hand-off.
// The page fetches a request or looks up an LNURL on its own only for the menu entry: a menu click
// happens in the browser's own UI, where no page can reach. A link click arrives as a message from
// our content script, which acts only on trusted clicks, but a compromised page renderer can send
// the same message with no click at all, and nothing in it can prove a gesture. So a page's click
// is shown like any other way in (?r= or ?uri=: typed, pasted, Firefox's bitcoin: handler, another
// extension opening the page): the request's address, waiting for the person's button.
import { storage } from '@wxt-dev/storage';
import { browser } from 'wxt/browser';
import { MAX_REQUEST_TEXT } from '../../lib/payments/forms';
import { sourceOf } from '../../lib/payments/page-input';
import { type ReadPayment, readPayment } from '../../lib/payments/read';

/** A clicked BIP70 request (`requestUrl`), or request text (a link's href, selected text). */
export type ClickedPayment = ({ requestUrl: string } | { text: string }) & {
  /** The web page the link was on, as the browser reported the sender. */
  pageUrl?: string;
};

/** Who handed the request over: the browser's menu (the person, surely) or a web page's message. */
export type HandOffFrom = 'menu' | 'page';

interface Stored {
  what: { requestUrl: string } | { text: string };
  pageUrl?: string;
  from: HandOffFrom;
  at: number;
}

const PREFIX = 'clickedPayment:';
/** A hand-off no page took by then (its tab was closed while loading) is dropped. */
const KEEP_MS = 10 * 60_000;

const isHttp = (text: string | undefined) => {
  try {
    return text !== undefined && /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
};

/** The parser's reading of text, or undefined for text of no payment form. */
function readOrNothing(text: string): ReadPayment | undefined {
  try {
    return readPayment(text);
  } catch {
    return undefined;
  }
}

async function dropStale(now: number): Promise<void> {
  const all = await browser.storage.session.get(null);
  const stale = Object.entries(all)
    .filter(([key, value]) => key.startsWith(PREFIX) && !((value as Stored)?.at > now - KEEP_MS))
    .map(([key]) => key);
  if (stale.length) await browser.storage.session.remove(stale);
}

/**
 * The request as handed over, if it is one: a web address, or text of bounded length. This is the
 * re-check where a page's message enters the extension, by the parser the payment page reads it
 * with again (lib/payments/read.ts): a page's link was classified by our content script, so text
 * the parser refuses did not come from it. Text the person selected goes on as it is, and the
 * payment page says why it cannot be read.
 */
function requestOf(
  click: { requestUrl?: unknown; text?: unknown },
  from: HandOffFrom,
): Stored['what'] | undefined {
  if (typeof click.requestUrl === 'string') {
    const read = readOrNothing(click.requestUrl);
    return read?.form === 'bip70' ? { requestUrl: read.url } : undefined;
  }
  if (typeof click.text !== 'string' || click.text.length > MAX_REQUEST_TEXT) return undefined;
  const text = click.text.trim();
  if (text === '') return undefined;
  return from === 'page' ? linkRequestOf(text) : { text };
}

/** A page's link as the payment page opens it: a bitcoin: link naming a BIP70 request, as that request. */
function linkRequestOf(text: string): Stored['what'] | undefined {
  const read = readOrNothing(text);
  if (!read) return undefined;
  try {
    const source = sourceOf(read);
    if (source.kind === 'request') return { requestUrl: source.requestUrl };
  } catch {
    // An r= that is no web address: the page shows the link and says why.
  }
  return { text };
}

/**
 * Background: keeps a clicked request for the payment page; returns the page's address to open,
 * or undefined when what was clicked is no request (not a web address, no text, too long).
 */
export async function handOffClickedPayment(
  click: ClickedPayment,
  from: HandOffFrom,
): Promise<string | undefined> {
  const what = requestOf(click as { requestUrl?: unknown; text?: unknown }, from);
  if (!what) return undefined;
  const now = Date.now();
  await dropStale(now).catch(() => {});
  const id = crypto.randomUUID();
  const stored: Stored = { what, from, at: now };
  if (isHttp(click.pageUrl)) stored.pageUrl = click.pageUrl;
  await storage.setItem<Stored>(`session:${PREFIX}${id}`, stored);
  return `${browser.runtime.getURL('/payment.html')}?${new URLSearchParams({ open: id })}`;
}

/**
 * Payment page: takes (and removes) the hand-off with this id; undefined when there is none.
 * `fromMenu` says whether it may be fetched at once.
 */
export async function takeClickedPayment(
  id: string,
): Promise<(ClickedPayment & { fromMenu: boolean }) | undefined> {
  if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
  const key = `session:${PREFIX}${id}` as const;
  const stored = await storage.getItem<Stored>(key);
  if (!stored) return undefined;
  await storage.removeItem(key);
  const fromMenu = stored.from === 'menu';
  return stored.pageUrl
    ? { ...stored.what, pageUrl: stored.pageUrl, fromMenu }
    : { ...stored.what, fromMenu };
}
