import { fetchPaymentRequest } from './fetch';
import { httpUrl } from './forms';
import type { FetchLike } from './http';
import type { RootStore } from './roots';
import { evaluatePaymentRequest, type PaymentRequestEvaluation } from './verify';

/** A BIP70 request fetched and judged, with what the page needs to say where it came from. */
export interface LoadedRequest {
  /** Where the request came from in the end (after redirects). */
  requestUrl: string;
  pageUrl?: string;
  /** The host the certificate is compared with, and whether it is the page's or the link's. */
  site: { host: string; from: 'page' | 'request' };
  /** Transport warnings (plain http, redirects). */
  fetchWarnings: string[];
  evaluation: PaymentRequestEvaluation;
  evaluatedAt: Date;
}

export interface LoadOptions {
  fetch: FetchLike;
  roots: RootStore;
  now: Date;
  signal?: AbortSignal;
}

function siteOf(pageUrl: string | undefined, requestUrl: string): LoadedRequest['site'] {
  const page = pageUrl ? httpUrl(pageUrl) : undefined;
  if (page) return { host: page.hostname, from: 'page' };
  return { host: new URL(requestUrl).hostname, from: 'request' };
}

/**
 * Fetches (Accept header, 50,000-byte cap, Content-Type check) and evaluates a request; the
 * certificate is compared with the page the link was on, or else with the request's own host.
 */
export async function loadPaymentRequest(
  requestUrl: string,
  pageUrl: string | undefined,
  options: LoadOptions,
): Promise<LoadedRequest> {
  const fetched = await fetchPaymentRequest(requestUrl, {
    fetch: options.fetch,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const site = siteOf(pageUrl, fetched.url);
  const evaluation = await evaluatePaymentRequest(fetched.bytes, {
    roots: options.roots,
    now: options.now,
    pageHost: site.host,
  });
  const loaded: LoadedRequest = {
    requestUrl: fetched.url,
    site,
    fetchWarnings: fetched.warnings,
    evaluation,
    evaluatedAt: options.now,
  };
  if (pageUrl) loaded.pageUrl = pageUrl;
  return loaded;
}
