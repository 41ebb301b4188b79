/**
 * An upload in parts, the client's side of the protocol (Hushdrop servers only; Teknik servers take
 * one POST): Start with the upload's form minus the file, PUT each part's raw bytes, then Done,
 * whose answer is a one-request upload's (response.ts reads it); Abort on failure or cancel.
 * Why parts: part k is sent while part k+1 is encrypted, which a single request cannot do
 * (platform/upload/way-parts.ts runs it). Every answer is untrusted: Start's is checked here
 * field by field before anything is sent. The addresses and the Start answer's shape are typed once
 * for the server and this client in hushdrop-api.ts.
 */
import { formatBytes, t } from '../i18n';
import { UploadError } from './errors';
import { type PartsStartAnswer, partsEndpoint } from './hushdrop-api';
import { Declined } from './plan';
import { buildUploadRequest } from './request';
import { refusalChecked } from './response';
import type { FileInfo, TransportResponse, UploadOptions, UploadTarget } from './types';

const MIB = 1024 * 1024;
/** The smallest part the protocol allows (S3's smallest part). */
export const MIN_PART_BYTES = 5 * MIB;
/**
 * The largest part this client takes: a few parts wait on disk at once, so a server asking for
 * parts of gigabytes would make the copy on disk as large as the file again.
 */
export const MAX_PART_BYTES = 512 * MIB;
/** An id of at least 128 random bits in [A-Za-z0-9] has 22 characters at least; more than 128 is not sane. */
export const SESSION_ID = /^[A-Za-z0-9]{22,128}$/;

/** Start's request: the parts base, the upload's headers, its fields (no file part) and two more. */
export interface PartsStartRequest {
  url: string;
  headers: Record<string, string>;
  fields: Array<[string, string]>;
}

/**
 * Start's form: the same fields (from the same code) as a one-request upload of this variant and
 * mode, plus `partsTotal` (the bytes that will be sent) and `fileName` (which a one-request upload
 * carries as its file part's name). `iv` as for buildUploadRequest.
 */
export function buildPartsStart(
  target: UploadTarget,
  options: UploadOptions,
  file: FileInfo,
  partsTotal: number,
  iv?: string,
): PartsStartRequest {
  if (!Number.isSafeInteger(partsTotal) || partsTotal < 1)
    throw new RangeError('An upload in parts sends at least one byte.');
  const request = buildUploadRequest(target, options, file, iv);
  return {
    url: partsEndpoint(request.url),
    headers: request.headers,
    fields: [...request.fields, ['partsTotal', String(partsTotal)], ['fileName', request.fileName]],
  };
}

/** A session the server started, as checked: every part but the last has `partBytes` bytes. */
export interface PartsSession {
  id: string;
  partBytes: number;
  parts: number;
  /** The bytes all parts hold together (Start's partsTotal). */
  total: number;
}

/** Bytes of part `index` of `session`. */
export function partSize(
  session: Pick<PartsSession, 'partBytes' | 'parts' | 'total'>,
  index: number,
): number {
  return index < session.parts - 1
    ? session.partBytes
    : session.total - session.partBytes * (session.parts - 1);
}

/** An untrusted value, short, for a sentence (shown as text). */
const shown = (value: unknown) => (JSON.stringify(value) ?? String(value)).slice(0, 40);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function unusableStart(status: number, sentence: string): UploadError {
  return new UploadError('bad-response', sentence, { status });
}

/**
 * Start's answer: the session, or Declined when this upload should go as one request: 'no parts'
 * for a server without parts (404 or 405: Teknik, an older Hushdrop), 'parts busy' for one with too
 * many sessions open from here (429). Any other refusal is the UploadError a one-request upload's
 * would be (the same reading); a 201 whose session this client cannot use safely is refused with a
 * sentence that says why.
 */
export function readPartsStart(answer: TransportResponse, partsTotal: number): PartsSession | Declined {
  const { status, contentType, body } = answer;
  if (status === 404 || status === 405) return new Declined('no parts', `Start answered ${status}`);
  // Too many sessions open from here (several large files at once), or the upload limit: this file
  // goes as one request, which either fits or meets the same limit with its own sentence.
  if (status === 429) return new Declined('parts busy', 'Start answered 429');
  const json = refusalChecked(status, contentType, body);
  if (status !== 201 || !isObject(json))
    throw unusableStart(status, t('partsStartUnreadable', String(status)));
  // Read as untrusted: each field is checked below, whatever the type says a Hushdrop server sends.
  const { id, partBytes, parts } = json as Partial<Record<keyof PartsStartAnswer, unknown>>;
  if (typeof id !== 'string' || !SESSION_ID.test(id)) throw unusableStart(status, t('partsBadSessionId'));
  if (
    typeof partBytes !== 'number' ||
    !Number.isSafeInteger(partBytes) ||
    partBytes < MIN_PART_BYTES ||
    partBytes > MAX_PART_BYTES
  )
    throw unusableStart(
      status,
      t('partsBadPartSize', shown(partBytes), formatBytes(MIN_PART_BYTES), formatBytes(MAX_PART_BYTES)),
    );
  const expected = Math.ceil(partsTotal / partBytes);
  if (parts !== expected)
    throw unusableStart(status, t('partsBadCount', shown(parts), partsTotal, partBytes, expected));
  return { id, partBytes, parts: expected, total: partsTotal };
}

/**
 * Checks a part's answer (204). A refusal is read as any other (413, 401 and 429 say what they
 * always say); anything else names the part, with the server's own words kept as serverMessage.
 */
export function checkPartAnswer(answer: TransportResponse, index: number, parts: number): void {
  if (answer.status === 204) return;
  try {
    refusalChecked(answer.status, answer.contentType, answer.body);
  } catch (err) {
    if (!(err instanceof UploadError) || err.kind !== 'http') throw err;
    throw new UploadError('http', t('partsPartRefused', index + 1, parts, String(answer.status)), {
      status: err.status,
      serverMessage: err.serverMessage,
    });
  }
  throw new UploadError('bad-response', t('partsPartRefused', index + 1, parts, String(answer.status)), {
    status: answer.status,
  });
}
