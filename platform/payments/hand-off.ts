// The hand-off from a click on a payment link (or the menu entry on selected text) to the payment
// page. The page fetches a request or looks up an LNURL on its own only when it came this way: the background, having checked that the message came from
// our content script (and only a person's click makes the script send it), leaves the request in
// session storage under a random id, and the page takes it once. Session storage is out of reach
// of web pages and content scripts, and nothing in the page's address can claim to be such a
// hand-off. Any other way in (?r= or ?uri=: typed, pasted, Firefox's bitcoin: handler, another
// extension opening the page) shows the request's address and waits for the person's button.
import { storage } from '@wxt-dev/storage';
import { browser } from 'wxt/browser';
import { MAX_REQUEST_TEXT } from '../../lib/payments/forms';

/** A clicked BIP70 request (`requestUrl`), or request text (a link's href, selected text). */
export type ClickedPayment = ({ requestUrl: string } | { text: string }) & {
  /** The web page the link was on, as the browser reported the sender. */
  pageUrl?: string;
};

interface Stored {
  what: { requestUrl: string } | { text: string };
  pageUrl?: string;
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

async function dropStale(now: number): Promise<void> {
  const all = await browser.storage.session.get(null);
  const stale = Object.entries(all)
    .filter(([key, value]) => key.startsWith(PREFIX) && !((value as Stored)?.at > now - KEEP_MS))
    .map(([key]) => key);
  if (stale.length) await browser.storage.session.remove(stale);
}

/** The request as handed over, if it is one: a web address, or text of bounded length. */
function requestOf(click: { requestUrl?: unknown; text?: unknown }): Stored['what'] | undefined {
  if (typeof click.requestUrl === 'string')
    return isHttp(click.requestUrl) ? { requestUrl: click.requestUrl } : undefined;
  if (typeof click.text === 'string' && click.text.trim() !== '' && click.text.length <= MAX_REQUEST_TEXT)
    return { text: click.text.trim() };
  return undefined;
}

/**
 * Background: keeps a clicked request for the payment page; returns the page's address to open,
 * or undefined when what was clicked is no request (not a web address, no text, too long).
 */
export async function handOffClickedPayment(click: ClickedPayment): Promise<string | undefined> {
  const what = requestOf(click as { requestUrl?: unknown; text?: unknown });
  if (!what) return undefined;
  const now = Date.now();
  await dropStale(now).catch(() => {});
  const id = crypto.randomUUID();
  const stored: Stored = { what, at: now };
  if (isHttp(click.pageUrl)) stored.pageUrl = click.pageUrl;
  await storage.setItem<Stored>(`session:${PREFIX}${id}`, stored);
  return `${browser.runtime.getURL('/payment.html')}?${new URLSearchParams({ open: id })}`;
}

/** Payment page: takes (and removes) the hand-off with this id; undefined when there is none. */
export async function takeClickedPayment(id: string): Promise<ClickedPayment | undefined> {
  if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
  const key = `session:${PREFIX}${id}` as const;
  const stored = await storage.getItem<Stored>(key);
  if (!stored) return undefined;
  await storage.removeItem(key);
  return stored.pageUrl ? { ...stored.what, pageUrl: stored.pageUrl } : { ...stored.what };
}
