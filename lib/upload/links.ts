import { makeEceLink, makeLink } from '../crypto/link';
import { t } from '../i18n';
import { UploadError } from './errors';
import type { UploadResult, UploadTarget } from './types';

function parseHttpUrl(address: string): URL | undefined {
  try {
    const url = new URL(address.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** `base` + `/segment/…` (each segment percent-encoded) + optional `?sub=…`; undefined if base is not http(s). */
function tryJoin(base: string, segments: string[], sub?: string): string | undefined {
  const url = parseHttpUrl(base);
  if (!url) return undefined;
  url.hash = '';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${segments.map(encodeURIComponent).join('/')}`;
  if (sub !== undefined) url.searchParams.set('sub', sub);
  return url.toString();
}

/** The address an upload goes to, as the settings name it: the base address (legacy) or the API address. */
export function serverAddress(target: UploadTarget): string {
  return target.variant === 'legacy' ? target.addresses.baseUrl : target.addresses.apiUrl;
}

/** Where to POST: legacy `{baseUrl}/v1/Upload?sub=api`, current `{apiUrl}/v1/Upload`. */
export function uploadEndpoint(target: UploadTarget): string {
  const legacy = target.variant === 'legacy';
  const base = serverAddress(target);
  // A fresh install has no server until the welcome page (or the settings) set one up.
  if (base.trim() === '') throw new UploadError('settings', t('uploadNoServer'));
  const url = tryJoin(base, ['v1', 'Upload'], legacy ? 'api' : undefined);
  if (url) return url;
  throw new UploadError('settings', t(legacy ? 'uploadBaseNotWeb' : 'uploadApiNotWeb', base));
}

/**
 * The link that deletes the upload: legacy `{baseUrl}/<fileName>/<deletionKey>?sub=u`, current
 * `{uploadUrl}/<fileName>/<deletionKey>`. Undefined when the server gave no deletion key. If
 * the configured address is unusable, falls back to the file's own address (which is
 * `{uploadUrl}/<fileName>` on a Teknik server), so a finished upload never loses its link.
 */
export function deletionLink(target: UploadTarget, result: UploadResult): string | undefined {
  if (!result.deletionKey) return undefined;
  const segments = [result.fileName, result.deletionKey];
  const configured =
    target.variant === 'legacy'
      ? tryJoin(target.addresses.baseUrl, segments, 'u')
      : tryJoin(target.addresses.uploadUrl, segments);
  if (configured) return configured;
  const own = parseHttpUrl(result.url);
  if (!own) return undefined;
  own.hash = '';
  own.pathname = `${own.pathname.replace(/\/+$/, '')}/${encodeURIComponent(result.deletionKey)}`;
  return own.toString();
}

/**
 * The link to share. Client mode: `result.url#clientKey` for a Teknik key, `result.url#ece1.<secret>`
 * for the authenticated format's secret (neither ever went to the server).
 * Server and none modes: the server's URL as given — it already ends in `#key` when the server
 * made a key and did not keep it. When the server kept the key it serves the file decrypted, so a
 * `#key` it appended anyway (Teknik did until 2018) is dropped: it would only mislead an opener
 * into decrypting twice.
 */
export function shareLink(
  result: UploadResult,
  clientKey?: string | Uint8Array,
  serverKeptKey = false,
): string {
  if (clientKey instanceof Uint8Array) return makeEceLink(result.url, clientKey);
  if (clientKey !== undefined) return makeLink(result.url, clientKey);
  return serverKeptKey ? result.url.split('#')[0]! : result.url;
}
