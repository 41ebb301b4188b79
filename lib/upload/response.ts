/**
 * Reading the server's answer. Success is HTTP 200 with `{"result":{…}}`; the real server also
 * refuses with HTTP 200 and `{"error":{"message":…}}`; other failures are HTTP error statuses
 * with HTML or JSON bodies (notes/teknik.md §4, §8). Server text is untrusted: it is kept as
 * plain text in `serverMessage` and HTML is never interpreted.
 */

import { t } from '../i18n';
import { MESSAGES, UploadError } from './errors';
import type { UploadResult, Variant } from './types';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

function count(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** The message of `{"error":{"message":…}}` (or `{"error":"…"}`), if the body has one. */
function errorMessage(json: unknown): string | undefined {
  if (!isObject(json)) return undefined;
  const { error } = json;
  if (typeof error === 'string') return text(error.trim());
  return isObject(error)
    ? text(typeof error.message === 'string' ? error.message.trim() : undefined)
    : undefined;
}

/** Server text made fit to quote inside a sentence: tags dropped, spaces collapsed, cut short. */
function quotable(serverText: string, max = 200): string {
  const plain = serverText
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,;:!?])/g, '$1')
    .trim();
  const short = plain.length > max ? `${plain.slice(0, max - 1).trimEnd()}…` : plain;
  return /[.!?…]$/.test(short) ? short : `${short}.`;
}

function isPlainText(contentType: string | null): boolean {
  return contentType !== null && /^text\/plain\b/i.test(contentType.trim());
}

/** The server's own words in an error answer: a JSON error message, or a short plain-text body. */
function serverWords(contentType: string | null, body: string): string | undefined {
  const fromJson = errorMessage(parseJson(body));
  if (fromJson !== undefined) return fromJson;
  if (isPlainText(contentType)) return text(body.trim().slice(0, 500));
  return undefined;
}

function httpError(status: number, contentType: string | null, body: string): UploadError {
  const serverMessage = serverWords(contentType, body);
  const details = { status, serverMessage };
  if (status === 413) return new UploadError('too-large', MESSAGES.tooLarge, details);
  if (status === 401 || status === 403)
    return new UploadError('unauthorized', MESSAGES.unauthorized, details);
  let message: string;
  if (status === 404 || status === 405) {
    message = t('uploadNoService', String(status));
  } else if (status === 429) {
    // The server's limit on uploads per account or address; its own words say how long to wait.
    message = t('uploadRateLimited');
  } else if (status >= 500) {
    message = t('uploadServerProblem', String(status));
  } else {
    message = t('uploadNotAccepted', String(status));
  }
  return new UploadError('http', message, details);
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** The public name is the last path segment of the file's URL, if the server left it out. */
function nameFromUrl(url: string): string | undefined {
  const segment = new URL(url).pathname.split('/').pop();
  try {
    return text(decodeURIComponent(segment ?? ''));
  } catch {
    return text(segment);
  }
}

function readResult(variant: Variant, status: number, json: unknown): UploadResult {
  const badResponse = () => new UploadError('bad-response', MESSAGES.badResponse, { status });
  if (!isObject(json) || !isObject(json.result)) throw badResponse();
  const r = json.result;
  const url = text(r.url);
  if (url === undefined || !isHttpUrl(url)) throw badResponse();
  const fileName = text(r.fileName) ?? nameFromUrl(url);
  if (fileName === undefined) throw badResponse();

  const result: UploadResult = {
    url,
    fileName,
    contentType: text(r.contentType) ?? 'application/octet-stream',
    contentLength: count(r.contentLength) ?? 0,
    keySize: count(r.keySize) ?? 0,
    blockSize: count(r.blockSize) ?? 0,
  };
  // Null and empty members are left out: an unrequested deletionKey arrives as "".
  const key = text(r.key);
  if (key !== undefined) result.key = key;
  const iv = text(r.iv);
  if (iv !== undefined) result.iv = iv;
  if (variant === 'legacy') {
    const maxDownloads = count(r.maxDownloads);
    if (maxDownloads !== undefined) result.maxDownloads = maxDownloads;
    const expirationDate = text(r.expirationDate);
    if (expirationDate !== undefined) result.expirationDate = expirationDate;
  }
  const deletionKey = text(r.deletionKey);
  if (deletionKey !== undefined) result.deletionKey = deletionKey;
  return result;
}

/**
 * Throws the UploadError a refusal amounts to (an HTTP error status, or a success status carrying
 * the server's own refusal); otherwise returns the body read as JSON (undefined if it is not).
 * Shared by every answer of the upload endpoints: one request's, and an upload in parts' (parts.ts).
 */
export function refusalChecked(status: number, contentType: string | null, body: string): unknown {
  if (status < 200 || status > 299) throw httpError(status, contentType, body);
  const json = parseJson(body);
  const refusal = errorMessage(json);
  if (refusal !== undefined) {
    throw new UploadError('rejected', t('uploadRefused', quotable(refusal)), {
      status,
      serverMessage: refusal,
    });
  }
  if (isObject(json) && json.error !== undefined && json.error !== null && json.result == null) {
    throw new UploadError('rejected', t('uploadRefusedNoReason'), { status });
  }
  return json;
}

/** Turns the server's answer into an UploadResult, or throws the UploadError it amounts to. */
export function parseUploadResponse(
  variant: Variant,
  status: number,
  contentType: string | null,
  body: string,
): UploadResult {
  return readResult(variant, status, refusalChecked(status, contentType, body));
}
