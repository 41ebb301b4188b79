// Asking a server what it is: a Hushdrop server answers `GET /_hushdrop/info` (server/README.md,
// typed in lib/upload/hushdrop-api.ts). For the address a person typed on the welcome page
// (lib/upload/server-info.ts reads the answer); and for a server in use, whose answer (or its lack)
// goes into the server's capability record, which plans its uploads (lib/upload/capabilities.ts):
// at Test connection (the welcome page runs it too), and before an upload that could go in parts
// when the record has no answer yet, or an old one.
import { readAtMost } from '../../lib/read-at-most';
import { type Capabilities, type Mode, type UploadTarget, uploadEndpoint } from '../../lib/upload';
import { asksInfoFirst } from '../../lib/upload/plan';
import { readServerInfo, type ServerInfo } from '../../lib/upload/server-info';
import {
  readServerKind,
  type ServerKind,
  serverInfoUrls,
  UNKNOWN_SERVER,
} from '../../lib/upload/server-kind';
import { loadCapabilities, remember } from '../storage/capabilities';

/** An info answer is a few hundred bytes; a larger one is not read. */
const INFO_MAX_BYTES = 64 * 1024;
/** A server that has not answered by then is taken as not answering. */
const INFO_TIMEOUT_MS = 10_000;

/**
 * GET one info address: `undefined` when nothing answered (no answer, a redirect: it could take the
 * question to another origin), `null` when something answered but not with a JSON info answer of at
 * most INFO_MAX_BYTES, or the parsed JSON (untrusted: the caller reads it).
 */
export async function fetchInfoJson(url: string, signal?: AbortSignal): Promise<unknown> {
  const timeout = AbortSignal.timeout(INFO_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(url, {
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      redirect: 'error',
      cache: 'no-store',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
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

/** The origin whose record an upload to `target` plans with; undefined when its address is not a URL. */
export function uploadOrigin(target: UploadTarget): string | undefined {
  try {
    return new URL(uploadEndpoint(target)).origin;
  } catch {
    return undefined;
  }
}

/**
 * What the server of `target` says it is, and remembered in its record; undefined when nothing
 * answered at any of its info addresses (a server down, a timeout), which is not remembered: a
 * Teknik server answers (404), and is remembered as having no info answer.
 */
export async function learnServerKind(
  target: UploadTarget,
  signal?: AbortSignal,
): Promise<ServerKind | undefined> {
  const remembered = async (kind: ServerKind) => {
    const origin = uploadOrigin(target);
    if (origin) await remember(origin, { kind: 'info', answer: kind });
    return kind;
  };
  let answered = false;
  for (const url of serverInfoUrls(target.addresses, target.variant)) {
    const json = await fetchInfoJson(url, signal);
    signal?.throwIfAborted();
    if (json === undefined) continue;
    answered = true;
    const kind = json === null ? UNKNOWN_SERVER : readServerKind(json);
    if (kind.hushdrop) return remembered(kind);
  }
  return answered ? remembered(UNKNOWN_SERVER) : undefined;
}

/**
 * Everything known, for planning one upload of `size` bytes in `mode` to `target`: the server's info
 * asked first when the plan could want it (lib/upload/plan.ts asksInfoFirst).
 */
export async function knownCapabilities(
  target: UploadTarget,
  { mode, size, signal }: { mode: Mode; size: number; signal?: AbortSignal },
): Promise<Capabilities> {
  const caps = await loadCapabilities();
  const origin = uploadOrigin(target);
  if (!origin || !asksInfoFirst({ mode, size, server: caps.servers[origin] }, Date.now())) return caps;
  return (await learnServerKind(target, signal)) ? loadCapabilities() : caps;
}
