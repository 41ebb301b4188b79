/**
 * A page being left (a reload, a closed tab) breaks off its requests, and that must not end an upload
 * in parts: no Abort, and what it needs to resume kept (resume-record.ts), so that the page can resume
 * it after the reload. Both upload pages, the server's home page and the extension's, send through
 * this.
 */
import { t } from '../i18n';
import { UploadError } from './errors';
import type { PartsExchange } from './parts-runner';

/**
 * Whether the page of `target` (its window) is being left: from `pagehide` until a `pageshow`. A global
 * with no events (Node, where the runner is tested) is never left.
 */
export function watchLeaving(target: Partial<Pick<EventTarget, 'addEventListener'>>): () => boolean {
  let leaving = false;
  target.addEventListener?.('pagehide', () => {
    leaving = true;
  });
  target.addEventListener?.('pageshow', () => {
    leaving = false;
  });
  return () => leaving;
}

/**
 * `exchange`, with the requests of a page being left broken off as a lost connection is: nothing more
 * is sent, and a request the browser stopped itself, not the upload's Cancel (Firefox stops them as
 * soon as a reload begins, before the page is hidden), is lost, not cancelled. The upload then waits
 * for the network, and the page goes before it sends Abort.
 */
export function brokenOffByLeaving<B>(exchange: PartsExchange<B>, leaving: () => boolean): PartsExchange<B> {
  const lost = (cause?: unknown) => new UploadError('network', t('uploadNetwork'), { cause });
  return async (req, options) => {
    if (leaving()) throw lost();
    try {
      return await exchange(req, options);
    } catch (err) {
      if (err instanceof UploadError && err.kind === 'aborted' && !options.signal?.aborted) throw lost(err);
      throw err;
    }
  };
}
