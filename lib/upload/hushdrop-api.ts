// What a Hushdrop server says beyond the Teknik API, typed once for both sides: the server builds
// these answers and matches these routes (server/api/info.ts, server/api/parts.ts, server/router.ts);
// the extension builds these addresses and reads these answers (server-info.ts, server-kind.ts,
// parts.ts). The types say what the server sends; the client still checks every field, as any
// answer may come from a server that is not ours.

/** `GET <origin>/_hushdrop/info`: "what is this server" (documented in server/README.md). */
export interface InfoAnswer {
  server: 'hushdrop';
  version: string;
  api: 'teknik-upload-v1';
  /** Client-encrypted formats the server stores and its recipient page opens ('teknik', 'ece1'). */
  linkFormats: string[];
  variants: { legacy: LegacyVariantInfo; current: CurrentVariantInfo };
  maxUploadBytes: number | null;
  maxAgeSeconds: number | null;
  accounts: { required: boolean; auth: 'basic' };
  /** Uploads in parts (below): every part but the last has partBytes bytes. Absent on older servers. */
  parts?: { partBytes: number };
}

export interface LegacyVariantInfo {
  base_url: string;
  upload: string;
  uploads: 'open' | 'closed';
  expiry: string[];
}

export interface CurrentVariantInfo {
  api_url: string;
  upload_url: string;
  upload: string;
  uploads: 'open' | 'accounts' | 'closed';
  expiry: string[];
}

/**
 * Uploads in parts live under a variant's upload path P (`…/v1/Upload`, the legacy variant's query
 * kept): `POST P/Parts` starts, `PUT P/Parts/<id>/<index>` sends part `index`, `GET P/Parts/<id>`
 * tells which parts the server holds (a client resuming after a broken connection), `POST P/Parts/<id>`
 * is done, `DELETE P/Parts/<id>` aborts.
 */
export const PARTS_SEGMENT = 'Parts';

/** One request of an upload in parts, as the server routes it (`index` as sent: the server checks it). */
export type PartsStep =
  | { step: 'start' }
  | { step: 'put'; id: string; index: string }
  | { step: 'held'; id: string }
  | { step: 'done'; id: string }
  | { step: 'abort'; id: string };

/** Which step a request is, from its method and the path segments after P; undefined for none. */
export function partsStepOf(method: string, rest: readonly string[]): PartsStep | undefined {
  if (rest[0]?.toLowerCase() !== PARTS_SEGMENT.toLowerCase()) return undefined;
  const [, id, index] = rest;
  if (rest.length === 1 && method === 'POST') return { step: 'start' };
  if (rest.length === 2 && method === 'GET') return { step: 'held', id: id! };
  if (rest.length === 2 && method === 'POST') return { step: 'done', id: id! };
  if (rest.length === 2 && method === 'DELETE') return { step: 'abort', id: id! };
  if (rest.length === 3 && method === 'PUT') return { step: 'put', id: id!, index: index! };
  return undefined;
}

/** `url` with path segments appended; its query is kept. */
function appendPath(url: string, ...segments: string[]): string {
  const parsed = new URL(url);
  parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/${segments.map(encodeURIComponent).join('/')}`;
  return parsed.toString();
}

/**
 * Where Start goes: the upload endpoint (links.ts) with `/Parts` appended to its path, query kept:
 * current `{apiUrl}/v1/Upload/Parts`, legacy `{baseUrl}/v1/Upload/Parts?sub=api`.
 */
export function partsEndpoint(uploadUrl: string): string {
  return appendPath(uploadUrl, PARTS_SEGMENT);
}

/** Where the held parts (GET), Done (POST) and Abort (DELETE) of a session go: `{base}/<id>`. */
export function partsSessionUrl(base: string, id: string): string {
  return appendPath(base, id);
}

/** Where part `index` is PUT: `{base}/<id>/<index>` (decimal, no leading zeros). */
export function partUrl(base: string, id: string, index: number): string {
  return appendPath(base, id, String(index));
}

/** Start's answer (201): the session, and how the server cuts it. */
export interface PartsStartAnswer {
  id: string;
  partBytes: number;
  parts: number;
  /** ISO 8601: the session is swept after this. */
  expiresAt: string;
}

/**
 * `GET P/Parts/<id>`'s answer (200): the parts the server holds whole, as ranges of indices `[first,
 * last]` (both included, ascending, apart), so that a session of thousands of parts answers briefly. A
 * part still arriving is not held. Once Done made the upload, Hushdrop answers every part held and
 * `finished` (Done answers again what it answered) until the session's expiry; 404 once the session is
 * gone (aborted or expired; finished, at a server that keeps no Done answer).
 */
export interface PartsHeldAnswer {
  id: string;
  partBytes: number;
  parts: number;
  held: Array<[number, number]>;
  /** ISO 8601, as in Start's answer. */
  expiresAt: string;
  /** Done made the upload: POST Done again for its answer. */
  finished?: true;
}

/** Ascending part indices as PartsHeldAnswer's ranges. */
export function heldRanges(indices: readonly number[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const index of indices) {
    const last = ranges.at(-1);
    if (last && index === last[1] + 1) last[1] = index;
    else ranges.push([index, index]);
  }
  return ranges;
}
