/**
 * Who may send which message. Every context of the extension (background, offscreen document,
 * pages, content scripts) shares one `runtime.onMessage` channel, so a handler must check the
 * sender the browser reports: a content script runs in the web page's process and is only as
 * trustworthy as that page. Pure: the facts come in as plain values.
 */

/** The contexts a message can come from. */
export type SenderKind =
  /** Our content script in a web page's tab. */
  | 'content-script'
  /** One of our own pages (popup, upload page, options, …), in a tab or not. */
  | 'page'
  /** The background: Chromium's service worker, Firefox's background page. */
  | 'background'
  /** The offscreen document that runs uploads (Chromium). */
  | 'offscreen'
  /** Anything else: another extension, no URL, a frame we cannot place. Never allowed. */
  | 'unknown';

/**
 * Who may send a message: a kind of context, or the upload page (one of our pages, in its tab),
 * which runs the uploads it starts and reports them.
 */
export type AllowedSender = SenderKind | 'upload-page';

/** What the browser says about a sender (a subset of runtime.MessageSender). */
export interface SenderFacts {
  id?: string;
  url?: string;
  tab?: unknown;
}

/** Facts about this extension, as the platform layer knows them. */
export interface ExtensionFacts {
  id: string;
  /** `chrome-extension://<id>` or `moz-extension://<uuid>`. */
  origin: string;
  /** Full URL of the background: the service worker's script, or the background page. */
  backgroundUrl?: string;
  /** Full URL of the offscreen document; absent where there is none (Firefox). */
  offscreenUrl?: string;
  /** Full URL of the upload page. */
  uploadPageUrl?: string;
}

/** Chromium: a background service worker and an offscreen document. */
export function chromiumFacts(id: string, origin: string): ExtensionFacts {
  return {
    id,
    origin,
    backgroundUrl: `${origin}/background.js`,
    offscreenUrl: `${origin}/offscreen.html`,
    uploadPageUrl: `${origin}/upload.html`,
  };
}

/** Firefox (MV2): a background page that Firefox generates for the background script; no offscreen document. */
export function firefoxFacts(id: string, origin: string): ExtensionFacts {
  return {
    id,
    origin,
    backgroundUrl: `${origin}/_generated_background_page.html`,
    uploadPageUrl: `${origin}/upload.html`,
  };
}

function parse(url: string | undefined): URL | undefined {
  if (!url) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** Scheme and host: `URL.origin` is "null" for extension schemes outside the browser. */
const originOf = (url: URL) => `${url.protocol}//${url.host}`;

const samePath = (a: URL, b: string | undefined) => {
  const other = parse(b);
  return other !== undefined && originOf(a) === originOf(other) && a.pathname === other.pathname;
};

/** Places a sender among the extension's contexts from facts the browser sets (never the message). */
export function senderKind(sender: SenderFacts, ext: ExtensionFacts): SenderKind {
  if (sender.id !== ext.id) return 'unknown';
  const url = parse(sender.url);
  if (!url) return 'unknown';
  const hasTab = sender.tab !== undefined && sender.tab !== null;
  const extOrigin = parse(ext.origin);
  if (!extOrigin || originOf(url) !== originOf(extOrigin)) {
    // A content script reports the web page's URL, and always its tab.
    return hasTab && (url.protocol === 'http:' || url.protocol === 'https:') ? 'content-script' : 'unknown';
  }
  // Neither the worker nor the offscreen document lives in a tab; one of our pages opened in a tab
  // under the same address is just a page.
  if (!hasTab && samePath(url, ext.backgroundUrl)) return 'background';
  if (!hasTab && samePath(url, ext.offscreenUrl)) return 'offscreen';
  return 'page';
}

/** Whether a message from `sender` may be handled, given who is allowed to send it. */
export function senderAllowed(
  allowed: readonly AllowedSender[],
  sender: SenderFacts | undefined,
  ext: ExtensionFacts,
): boolean {
  if (!sender) return false;
  const kind = senderKind(sender, ext);
  if (kind === 'unknown') return false;
  if (allowed.includes(kind)) return true;
  const url = parse(sender.url);
  const inTab = sender.tab !== undefined && sender.tab !== null;
  return kind === 'page' && allowed.includes('upload-page') && inTab && samePath(url!, ext.uploadPageUrl);
}
