import type { LoadedRequest } from './load';
import type { AddressSource, RequestSource } from './page-input';

/**
 * What the payment page shows, as states and the events that move between them. The page runs
 * the effects (fetching, permission prompts, the history) and reports each outcome here; a
 * late outcome of something the person has since replaced (a slow fetch, then another link) is
 * dropped, so the page never shows a request it is no longer asked about.
 *
 * `Entry` is the history's record of a viewed request (kept by the platform).
 */
export type PageView<Entry = unknown> =
  | { state: 'empty' }
  /** Opened with a request's address: nothing is fetched until the person asks. */
  | { state: 'confirm'; source: RequestSource }
  /** The request's site needs the person's permission first. */
  | { state: 'permission'; source: RequestSource }
  | { state: 'loading'; source: RequestSource }
  | { state: 'failed'; message: string; retry: boolean; source?: RequestSource }
  /** A plain `bitcoin:` address: nothing to fetch. */
  | { state: 'address'; source: AddressSource }
  | { state: 'loaded'; source: RequestSource; loaded: LoadedRequest; entry?: Entry; historyError?: string };

export type PageEvent<Entry = unknown> =
  /** A request's address alone (typed, ?r=, ?uri=): offered, fetched on the person's word. */
  | { type: 'offered'; source: RequestSource; allowed: boolean }
  /** The site is not allowed (yet): asking is up to the person. */
  | { type: 'permission-needed'; source: RequestSource }
  | { type: 'fetching'; source: RequestSource }
  | { type: 'fetched'; source: RequestSource; loaded: LoadedRequest; entry?: Entry; historyError?: string }
  /** `source` is the request it was about, if any; a failure of a replaced request is dropped. */
  | { type: 'failed'; message: string; retry: boolean; source?: RequestSource }
  | { type: 'address'; source: AddressSource }
  /** The request shown was paid: its history entry now says so. */
  | { type: 'paid'; entry: Entry };

/** Whether an outcome still belongs to what the page shows. */
const current = (view: PageView<unknown>, source: RequestSource) =>
  view.state === 'loading' && view.source === source;

export function pageReducer<Entry>(view: PageView<Entry>, event: PageEvent<Entry>): PageView<Entry> {
  switch (event.type) {
    case 'offered':
      return { state: event.allowed ? 'confirm' : 'permission', source: event.source };
    case 'permission-needed':
      return { state: 'permission', source: event.source };
    case 'fetching':
      return { state: 'loading', source: event.source };
    case 'fetched': {
      if (!current(view, event.source)) return view;
      const loaded: PageView<Entry> = { state: 'loaded', source: event.source, loaded: event.loaded };
      if (event.entry !== undefined) loaded.entry = event.entry;
      if (event.historyError !== undefined) loaded.historyError = event.historyError;
      return loaded;
    }
    case 'failed': {
      if (event.source && !current(view, event.source)) return view;
      const failed: PageView<Entry> = { state: 'failed', message: event.message, retry: event.retry };
      if (event.source) failed.source = event.source;
      return failed;
    }
    case 'address':
      return { state: 'address', source: event.source };
    case 'paid':
      return view.state === 'loaded' ? { ...view, entry: event.entry } : view;
  }
}
