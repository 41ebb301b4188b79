// Which route a request takes. Both variants' paths (ASP.NET routes matched case-insensitively; file names
// and keys keep their case), plus the server's own paths under RESERVED_PREFIX, which no upload name can
// ever take (names begin with a letter or digit).
//   POST /v1/Upload?sub=api        legacy upload        GET /<name>?sub=u, /u/<name>               download
//   POST /api/v1/Upload            current upload       GET /<name>/<key>?sub=u, /u/<name>/<key>    delete
//   POST /u/Action/DownloadData    stored bytes by name GET /_hushdrop/info, /_hushdrop/health, /_hushdrop/metrics
// Uploads in parts, under either variant's upload path P (…/v1/Upload/Parts, legacy with ?sub=api kept):
//   POST P  start     PUT P/<id>/<index>  one part     GET P/<id>  parts held     POST P/<id>  done
//   DELETE P/<id>  abort

import { partsStepOf } from '../lib/upload/hushdrop-api';
import type { Variant } from './uploads/record';

/** Paths of the server itself (info, health, the recipient page's files); never an upload's. */
export const RESERVED_PREFIX = '/_hushdrop/';

export type Route =
  | { kind: 'upload'; variant: Variant }
  | { kind: 'parts-start'; variant: Variant }
  | { kind: 'parts-put'; variant: Variant; id: string; index: string }
  | { kind: 'parts-held'; variant: Variant; id: string }
  | { kind: 'parts-done'; variant: Variant; id: string }
  | { kind: 'parts-abort'; variant: Variant; id: string }
  | { kind: 'download'; fileName: string }
  | { kind: 'delete'; fileName: string; deletionKey: string }
  | { kind: 'download-data' }
  | { kind: 'index' }
  | { kind: 'info' }
  | { kind: 'health' }
  /** Prometheus text, when the config gives a token. */
  | { kind: 'metrics' }
  /** Another path under RESERVED_PREFIX (the recipient page's, when mounted); `path` is after the prefix. */
  | { kind: 'reserved'; path: string }
  | { kind: 'none' };

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export function route(method: string, rawUrl: string): Route {
  let url: URL;
  try {
    url = new URL(rawUrl, 'http://hushdrop.invalid');
  } catch {
    return { kind: 'none' };
  }
  const isGet = method === 'GET' || method === 'HEAD';
  if (url.pathname.startsWith(RESERVED_PREFIX)) {
    const path = url.pathname.slice(RESERVED_PREFIX.length);
    if (isGet && path === 'info') return { kind: 'info' };
    if (isGet && path === 'health') return { kind: 'health' };
    if (isGet && path === 'metrics') return { kind: 'metrics' };
    return { kind: 'reserved', path };
  }
  const sub = url.searchParams.get('sub')?.toLowerCase();
  const segments = url.pathname
    .split('/')
    .filter((s) => s !== '')
    .map(decodeSegment);
  if (segments.some((s) => s === null)) return { kind: 'none' };
  const parts = segments as string[];
  const lower = parts.map((s) => s.toLowerCase());

  const fileRoute = (rest: string[]): Route => {
    if (method === 'POST' && rest.map((s) => s.toLowerCase()).join('/') === 'action/downloaddata')
      return { kind: 'download-data' };
    if (!isGet) return { kind: 'none' };
    if (rest.length === 1) return { kind: 'download', fileName: rest[0]! };
    if (rest.length === 2 && method === 'GET')
      return { kind: 'delete', fileName: rest[0]!, deletionKey: rest[1]! };
    return { kind: 'none' };
  };

  // After the upload path's segments: `Parts`, then the session id and the part's index as sent
  // (lib/upload/hushdrop-api.ts, where the client builds the same addresses).
  const partsRoute = (variant: Variant, rest: string[]): Route => {
    const step = partsStepOf(method, rest);
    if (!step) return { kind: 'none' };
    if (step.step === 'start') return { kind: 'parts-start', variant };
    if (step.step === 'put') return { kind: 'parts-put', variant, id: step.id, index: step.index };
    return { kind: `parts-${step.step}`, variant, id: step.id };
  };

  if (sub === 'api') {
    if (lower.length > 2 && lower[0] === 'v1' && lower[1] === 'upload')
      return partsRoute('legacy', parts.slice(2));
    const isUpload = method === 'POST' && lower.length === 2 && lower[0] === 'v1' && lower[1] === 'upload';
    return isUpload ? { kind: 'upload', variant: 'legacy' } : { kind: 'none' };
  }
  if (sub === 'u') return fileRoute(parts);
  if (method === 'POST' && lower.length === 3 && lower.join('/') === 'api/v1/upload') {
    return { kind: 'upload', variant: 'current' };
  }
  if (lower.length > 3 && lower.slice(0, 3).join('/') === 'api/v1/upload')
    return partsRoute('current', parts.slice(3));
  if (lower[0] === 'u') return fileRoute(parts.slice(1));
  if (isGet && parts.length === 0) return { kind: 'index' };
  return { kind: 'none' };
}

/**
 * How the access log names a route: its kind only. Not the upload's name either: for an upload the server
 * keeps the key of, or one not encrypted at all, the name is all it takes to download it.
 */
export function describeRoute(target: Route): string {
  if (target.kind === 'upload' || target.kind.startsWith('parts-'))
    return `${target.kind}-${(target as { variant: Variant }).variant}`;
  return target.kind;
}
