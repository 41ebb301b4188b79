// Asking the one address a person typed what server it is: a Hushdrop server answers
// `GET /_hushdrop/info` (server/README.md); lib/upload/server-info.ts reads the answer.
import { readAtMost } from '../../lib/read-at-most';
import { readServerInfo, type ServerInfo } from '../../lib/upload/server-info';
import { serverInfoUrls } from '../../lib/upload/server-kind';

/** An info answer is a few hundred bytes; a larger one is not read. */
const INFO_MAX_BYTES = 64 * 1024;
/** A server that has not answered by then is taken as not answering. */
const INFO_TIMEOUT_MS = 10_000;

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
    try {
      const res = await fetch(url, {
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        // A redirect could take the question to another origin than the one typed.
        redirect: 'error',
        cache: 'no-store',
        signal: AbortSignal.timeout(INFO_TIMEOUT_MS),
      });
      answered ??= url;
      if (!res.ok || !res.headers.get('content-type')?.includes('application/json')) {
        await res.body?.cancel().catch(() => {});
        continue;
      }
      const body = await readAtMost(res, INFO_MAX_BYTES);
      if (!body) continue;
      const info = readServerInfo(JSON.parse(new TextDecoder().decode(body)), address);
      if (info) return { kind: 'hushdrop', url, info };
    } catch {
      // no answer, a redirect, or not JSON: ask the next address
    }
  }
  return answered ? { kind: 'other', url: answered } : { kind: 'silent', url: urls[0] ?? address };
}
