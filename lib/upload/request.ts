/**
 * The upload request, field by field. Rules from the real server (notes/teknik.md §3, §9, §10):
 * booleans are the text `true`/`false` (anything else silently becomes the default, which is
 * `true` for encrypt and saveKey), so encrypt, saveKey and genDeletionKey are always sent.
 */
import { base64 } from '@scure/base';
import { eceCiphertextSize } from '../crypto/ece';
import { ECE_FORMAT_NAME } from '../crypto/link';
import { IV_LENGTH, isAlphabetText } from '../crypto/text';
import { t } from '../i18n';
import { UploadError } from './errors';
import { uploadEndpoint } from './links';
import type { ExpireUnit, FileInfo, UploadOptions, UploadRequest, UploadTarget } from './types';

/** Key and IV sizes in bits that go with our cipher (AES-256, 16-byte IV). */
export const KEY_SIZE_BITS = 256;
export const BLOCK_SIZE_BITS = 128;

/** The seed's expiry words and the enum names the real server binds (`expirationUnit`). */
export const EXPIRATION_UNITS: Record<ExpireUnit, string> = {
  never: 'Never',
  view: 'Views',
  minute: 'Minutes',
  hour: 'Hours',
  day: 'Days',
  month: 'Months',
  year: 'Years',
};

/**
 * The field that tells a Hushdrop server a client-mode upload is in the authenticated format (value
 * `ece1`), so it serves the page that opens such links. Teknik-format uploads do not send it: they
 * are told apart by their `iv`.
 */
export const LINK_FORMAT_FIELD = 'linkFormat';

const bool = (value: boolean) => (value ? 'true' : 'false');

const utf8 = new TextEncoder();

/** `Basic base64(utf8(username:token))`; btoa would throw on non-Latin-1 names. */
export function basicAuthorization(username: string, token: string): string {
  return `Basic ${base64.encode(utf8.encode(`${username}:${token}`))}`;
}

/** The name for the file part: the server takes the public name's extension from it. */
export function partFileName(file: FileInfo): string {
  return file.name.trim() || 'file';
}

function expiryFields(options: UploadOptions): Array<[string, string]> {
  const unit = options.expireUnit ?? 'never';
  const length = options.expireLength ?? 1;
  if (!Number.isSafeInteger(length) || length < 1) {
    throw new UploadError('settings', t('uploadExpiryLength'));
  }
  // The seed's pair, plus the pair real Teknik servers bind (they ignore the seed's names).
  return [
    ['expireUnit', unit],
    ['expireLength', String(length)],
    ['expirationUnit', EXPIRATION_UNITS[unit]],
    ['expirationLength', String(length)],
  ];
}

/**
 * Builds the request for one upload. `iv` is required in client mode for the Teknik format (the IV
 * the body was encrypted with); the authenticated format has its salt in the body. No key or secret
 * is ever part of the request.
 */
export function buildUploadRequest(
  target: UploadTarget,
  options: UploadOptions,
  file: FileInfo,
  iv?: string,
): UploadRequest {
  const url = uploadEndpoint(target);
  const fields: Array<[string, string]> = [];
  const type = file.type.trim();

  switch (options.mode) {
    case 'client': {
      const ece = options.format === 'ece';
      if (!ece && (iv === undefined || iv.length !== IV_LENGTH || !isAlphabetText(iv))) {
        throw new TypeError('Client mode needs the 16-character IV the file was encrypted with.');
      }
      // The server sees only ciphertext: it must not sniff the type, encrypt again or keep a key.
      fields.push(
        ['contentType', type || 'application/octet-stream'],
        ['encrypt', 'false'],
        ['saveKey', 'false'],
      );
      if (ece) fields.push([LINK_FORMAT_FIELD, ECE_FORMAT_NAME]);
      else
        fields.push(['keySize', String(KEY_SIZE_BITS)], ['iv', iv!], ['blockSize', String(BLOCK_SIZE_BITS)]);
      break;
    }
    case 'server':
      if (type) fields.push(['contentType', type]);
      fields.push(
        ['encrypt', 'true'],
        ['saveKey', bool(options.saveKey)],
        ['keySize', String(KEY_SIZE_BITS)],
        ['blockSize', String(BLOCK_SIZE_BITS)],
      );
      break;
    case 'none':
      if (type) fields.push(['contentType', type]);
      fields.push(['encrypt', 'false'], ['saveKey', 'false']);
      break;
    default:
      throw new TypeError(`Unknown encryption mode: ${String((options as { mode: unknown }).mode)}`);
  }
  fields.push(['genDeletionKey', bool(options.genDeletionKey)]);

  const headers: Record<string, string> = {};
  const doNotTrack = options.doNotTrack ?? false;
  // The field has done nothing since 2016-05; the header is what real servers honour, in both
  // variants' eras. (Browsers refuse this header from scripts: the extension adds it with
  // declarativeNetRequest instead, see lib/settings/dnt-rules.ts.)
  if (doNotTrack) headers.DNT = '1';
  if (target.variant === 'legacy') {
    fields.push(...expiryFields(options));
  } else {
    fields.push(['doNotTrack', bool(doNotTrack)]);
    const { username = '', token = '' } = target.credentials ?? {};
    if (username !== '' || token !== '') headers.Authorization = basicAuthorization(username, token);
  }

  return { url, headers, fields, fileField: 'file', fileName: partFileName(file) };
}

/**
 * Bytes of the file part, which the server stores, for a file of `plainSize` bytes: the same in the
 * Teknik format and when the server encrypts or nobody does; header and 17 bytes per 64 KiB record
 * more in the authenticated format. The streamed body's length and the answer's `contentLength`
 * are checked against it.
 */
export function storedSize(options: Pick<UploadOptions, 'mode' | 'format'>, plainSize: number): number {
  return options.mode === 'client' && options.format === 'ece' ? eceCiphertextSize(plainSize) : plainSize;
}

/** The multipart body: the fields in order, then the file part named with the original name. */
export function buildFormData(request: UploadRequest, body: Blob): FormData {
  const form = fieldsForm(request.fields);
  form.append(request.fileField, body, request.fileName);
  return form;
}

/** The fields alone as a form, in order (an upload in parts starts with them: parts.ts). */
export function fieldsForm(fields: ReadonlyArray<readonly [string, string]>): FormData {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return form;
}
