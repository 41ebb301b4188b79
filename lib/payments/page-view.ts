import type { NameSource } from './bip353/source';
import type { LoadedRequest } from './load';
import type { FetchedSource, LnurlSource, OfflineSource, RequestSource } from './page-input';
import type { CheckedRequest } from './request';

/**
 * What the payment page shows, as states and the events that move between them. The page runs
 * the effects (fetching, permission prompts, the history) and reports each outcome here; a late
 * outcome of something the person has since replaced (a slow fetch, then another link) is
 * dropped, so the page never shows a request it is no longer asked about.
 *
 * `Entry` is the history's record of a viewed request (kept by the platform).
 */
export type PageView<Entry = unknown> =
  | { state: 'empty' }
  /** Opened with a request's address: nothing is fetched until the person asks. */
  | { state: 'confirm'; source: FetchedSource }
  /** The server needs the person's permission first. */
  | { state: 'permission'; source: FetchedSource }
  /** The server is on this machine or a private network: nothing is fetched until the person allows it. */
  | { state: 'private'; source: FetchedSource }
  | { state: 'loading'; source: FetchedSource }
  | { state: 'failed'; message: string; retry: boolean; source?: FetchedSource }
  /** A BIP70 request, fetched and judged. */
  | { state: 'loaded'; source: RequestSource; loaded: LoadedRequest; entry?: Entry; historyError?: string }
  /** Any other request: judged from its text, an LNURL service's terms or invoice, or a looked-up name. */
  | {
      state: 'checked';
      source: CheckedSource;
      checked: CheckedRequest;
      entry?: Entry;
      historyError?: string;
    };

/** What a judged request came from. */
export type CheckedSource = OfflineSource | LnurlSource | NameSource;

interface Recorded<Entry> {
  entry?: Entry;
  historyError?: string;
}

export type PageEvent<Entry = unknown> =
  /** A request's address alone (typed, ?r=, ?uri=): offered, fetched on the person's word. */
  | { type: 'offered'; source: FetchedSource; allowed: boolean }
  /** The server is not allowed (yet): asking is up to the person. */
  | { type: 'permission-needed'; source: FetchedSource }
  /** The server is private and not allowed for payments (yet). */
  | { type: 'private-needed'; source: FetchedSource }
  | { type: 'fetching'; source: FetchedSource }
  | ({ type: 'fetched'; source: RequestSource; loaded: LoadedRequest } & Recorded<Entry>)
  /**
   * A request judged: offline text at once; an LNURL once looked up, and again with its
   * invoice (which replaces the terms shown for the same source).
   */
  | ({ type: 'checked'; source: CheckedSource; checked: CheckedRequest } & Recorded<Entry>)
  /** `source` is the request it was about, if any; a failure of a replaced request is dropped. */
  | { type: 'failed'; message: string; retry: boolean; source?: FetchedSource }
  /** The request shown was paid: its history entry now says so. */
  | { type: 'paid'; entry: Entry };

/** Whether an outcome still belongs to what the page is doing. */
function current(view: PageView<unknown>, source: FetchedSource | OfflineSource): boolean {
  if (source.kind === 'offline') return true;
  if (view.state === 'loading') return view.source === source;
  // An LNURL's invoice arrives while its terms are shown.
  return source.kind === 'lnurl' && view.state === 'checked' && view.source === source;
}

function recorded<Entry, V extends object>(view: V, event: Recorded<Entry>): V & Recorded<Entry> {
  const out: V & Recorded<Entry> = { ...view };
  if (event.entry !== undefined) out.entry = event.entry;
  if (event.historyError !== undefined) out.historyError = event.historyError;
  return out;
}

export function pageReducer<Entry>(view: PageView<Entry>, event: PageEvent<Entry>): PageView<Entry> {
  switch (event.type) {
    case 'offered':
      return { state: event.allowed ? 'confirm' : 'permission', source: event.source };
    case 'permission-needed':
      return { state: 'permission', source: event.source };
    case 'private-needed':
      return { state: 'private', source: event.source };
    case 'fetching':
      return { state: 'loading', source: event.source };
    case 'fetched':
      if (!current(view, event.source)) return view;
      return recorded({ state: 'loaded', source: event.source, loaded: event.loaded }, event);
    case 'checked':
      if (!current(view, event.source)) return view;
      return recorded({ state: 'checked', source: event.source, checked: event.checked }, event);
    case 'failed': {
      if (event.source && !current(view, event.source)) return view;
      const failed: PageView<Entry> = { state: 'failed', message: event.message, retry: event.retry };
      if (event.source) failed.source = event.source;
      return failed;
    }
    case 'paid':
      return view.state === 'loaded' ? { ...view, entry: event.entry } : view;
  }
}
