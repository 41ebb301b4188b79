// What an upload's form binds to, all `finishUpload` reads of it. A one-request upload binds it once its body
// is read; an upload in parts binds it at Start and keeps it in its session record, never the form itself
// (whose fields may be 64 KiB of anything, and which every part request would read again).

import { bindExpiry, type ExpiryRequest, parseExpiryRequest } from './expiry';
import { bindUploadParams, type FieldMap, parseUploadParams, type UploadParams } from './fields';

export interface BoundForm {
  params: UploadParams;
  /** What the legacy variant's expiry fields ask for (the current variant has no expiry). */
  expiry: ExpiryRequest;
}

export function bindForm(fields: FieldMap): BoundForm {
  return { params: bindUploadParams(fields), expiry: bindExpiry(fields) };
}

/** A bound form as stored, or null when it is not of that shape. */
export function parseBoundForm(json: unknown): BoundForm | null {
  if (typeof json !== 'object' || json === null) return null;
  const { params, expiry } = json as Record<string, unknown>;
  return parseUploadParams(params) && parseExpiryRequest(expiry) ? (json as BoundForm) : null;
}
