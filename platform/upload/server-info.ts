// Asking the one address a person typed what server it is: a Hushdrop server answers
// `GET /_hushdrop/info` (server/README.md); lib/upload/server-info.ts reads the answer.
import { readAtMost } from '../../lib/read-at-most';
import { readServerInfo, type ServerInfo } from '../../lib/upload/server-info';
import { serverInfoUrls } from '../../lib/upload/server-kind';

/** An info answer is a few hundred bytes; a larger one is not read. */
const INFO_MAX_BYTES = 64 * 1024;
/** A server that has not answered by then is taken as not answering. */
const INFO_TIMEOUT_MS = 10_000;

/**
 * GET one info address: `undefined` when nothing answered (no answer, a redirect: it could take the
 * question to another origin), `null` when something answered but not with a JSON info answer of at
 * most INFO_MAX_BYTES, or the parsed JSON (untrusted: the caller reads it).
 */
export async function fetchInfoJson(url: string): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      redirect: 'error',
      cache: 'no-store',
      signal: AbortSignal.timeout(INFO_TIMEOUT_MS),
    });
  } catch {
    return undefined;
  }
  try {
    if (!res.ok || !res.headers.get('content-type')?.includes('application/json')) {
      await res.body?.cancel().catch(() => {});
      return null;
    }
    const body = await readAtMost(res, INFO_MAX_BYTES);
    return body ? (JSON.parse(new TextDecoder().decode(body)) as unknown) : null;
  } catch {
    return null;
  }
}

export type InfoOutcome =
  /** A Hushdrop server answered (`url` is where). */
  | { kind: 'hushdrop'; url: string; info: ServerInfo }
  /** Something answered, but not as a Hushdrop server (a plain Teknik server, a web site). */
  | { kind: 'other'; url: string }
  /** Nothing answered at any of the addresses asked (`url` is the first). */
  | { kind: 'silent'; url: string };

/** Asks under the typed path first, then at the origin's root (a server mounted under a path). */
export async function askServerInfo(typed: string): Promise<InfoOutcome> {
  const address = typed.trim().replace(/\/+$/, '');
  const urls = serverInfoUrls({ baseUrl: address, apiUrl: address, uploadUrl: address }, 'legacy');
  let answered: string | undefined;
  for (const url of urls) {
    const json = await fetchInfoJson(url);
    if (json === undefined) continue;
    answered ??= url;
    const info = json === null ? null : readServerInfo(json, address);
    if (info) return { kind: 'hushdrop', url, info };
  }
  return answered ? { kind: 'other', url: answered } : { kind: 'silent', url: urls[0] ?? address };
}
