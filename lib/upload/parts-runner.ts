/**
 * Runs one upload in parts (the protocol is parts.ts): Start, then each part PUT as soon as its source
 * has made it, at most MAX_IN_FLIGHT at once, then Done, whose answer is the upload's; on a failure or
 * a Cancel, Abort (DELETE), so the server keeps nothing. A part whose connection broke off does not
 * fail the upload: it waits for the network, then sends only what the server does not hold
 * (held-parts.ts). A session started in an earlier life of the page (before a reload: resume-record.ts)
 * is resumed the same way: the parts the server holds are made (the source reads on past them) but not
 * sent again. Browser-neutral: where a part's bytes come from (a part file a worker wrote, in the
 * extension; a slice of the sealed stream held in memory, in the server's upload page) is the
 * PartsSource, and the requests go through an injected exchange (XMLHttpRequest for progress in both;
 * fetch in Node's tests).
 */
import { deferred } from '../deferred';
import type { PhaseProgress } from '../jobs/progress';
import { type Sleep, sleep } from './backoff';
import { readUploadAnswer } from './client';
import { abortedError, atAddress, UploadError } from './errors';
import {
  doneLostError,
  isLost,
  isSessionGone,
  Reconnect,
  readHeldParts,
  sessionGoneError,
} from './held-parts';
import { partsSessionUrl, partUrl } from './hushdrop-api';
import { serverAddress } from './links';
import { buildPartsStart, checkPartAnswer, type PartsSession, partSize, readPartsStart } from './parts';
import { Declined } from './plan';
import { fieldsForm } from './request';
import type {
  FileInfo,
  TransportOptions,
  TransportResponse,
  UploadOptions,
  UploadResult,
  UploadTarget,
} from './types';

/** Parts being made ready or sent at once: two keep the link busy across one part's answer. */
export const MAX_IN_FLIGHT = 2;
/** How long Abort may take before it is left to the server's sweeper. */
export const ABORT_WITHIN_MS = 10_000;

/** One request of the protocol: Start's form, a part's bytes (`B`), or nothing (held parts, Done, Abort). */
export interface PartsRequest<B> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body: FormData | B | null;
}

/** Sends one request; rejects with an UploadError as the transports do (transport.ts). */
export type PartsExchange<B> = (
  req: PartsRequest<B>,
  options: TransportOptions,
) => Promise<TransportResponse>;

/** Where the parts' bytes come from, for one session. */
export interface PartsSource<B> {
  /** Part `index` (asked for in order, 0 first), once it is made; rejects when it cannot be. */
  part(index: number): Promise<B>;
  /** Part `index` is on the server: what held it may go, and the source may make the next. */
  sent(index: number): void | Promise<void>;
  /**
   * Settles once the source has made every part; with Declined when it could not start at all (nothing
   * was made or sent: the plan's next way sends the file). Rejects when making a part failed.
   */
  made: Promise<unknown>;
  /** Lets go of everything the source holds; called once the upload has ended, whichever way. */
  close(): Promise<void>;
}

export interface PartsUpload<B> {
  target: UploadTarget;
  options: UploadOptions;
  file: FileInfo;
  /** Client mode, Teknik format: the IV the parts were encrypted with. */
  iv?: string;
  /** Bytes all parts hold together (Start's partsTotal). */
  total: number;
  exchange: PartsExchange<B>;
  /** The source of this session's parts; `stop` is aborted when the upload fails or is cancelled. */
  open(session: PartsSession, stop: AbortSignal): PartsSource<B>;
  /** Bytes the server has taken so far, of `total`. */
  onProgress?(done: number, total: number): void;
  /**
   * The session is started (or found again, when resumed), before any part is sent: what a resume after
   * a reload needs can be kept now. A rejection fails the upload, and the session is aborted.
   */
  onSession?(session: PartsSession): void | Promise<void>;
  /** true while the connection is down and the upload waits to resume; false once the server answers. */
  onWaiting?(waiting: boolean): void;
  /** How the waiting between tries waits (tests pass their own clock). */
  sleep?: Sleep;
  /** The caller's Cancel. */
  signal?: AbortSignal;
  /** The longest wait with no progress on one request (transport.ts). */
  timeoutMs?: number;
}

/**
 * The reports of an upload in parts as its job's one phase, 'uploading': the bytes on the server, and
 * whether it waits for the network (which the bar says instead of its phase).
 */
export function uploadingReports(
  report: (p: PhaseProgress) => void,
): Required<Pick<PartsUpload<unknown>, 'onProgress' | 'onWaiting'>> {
  let last = { done: 0, total: 0 };
  let waiting = false;
  const tell = () => report({ phases: ['uploading'], phase: 'uploading', ...last, waiting });
  return {
    onProgress(done, total) {
      last = { done, total };
      tell();
    },
    onWaiting(now) {
      waiting = now;
      tell();
    },
  };
}

/** The upload's errors with its server's address named in them. */
const locatedAt = (target: UploadTarget) => (err: unknown) =>
  err instanceof UploadError ? atAddress(err, serverAddress(target)) : err;

/**
 * Uploads in parts. Resolves with the result, or Declined when nothing was uploaded and the file
 * should go another way: the server answered Start 404/405 ('no parts') or 429 ('parts busy'), or the
 * source could not start. Rejects with the upload's UploadError (its address named), after the
 * session was aborted and the source closed.
 */
export async function uploadInParts<B>(u: PartsUpload<B>): Promise<{ result: UploadResult } | Declined> {
  const { target, options, file, iv, total, exchange, signal, timeoutMs } = u;
  const start = buildPartsStart(target, options, file, total, iv);
  const located = locatedAt(target);
  let session: PartsSession | Declined;
  try {
    session = readPartsStart(
      await exchange(
        { method: 'POST', url: start.url, headers: start.headers, body: fieldsForm(start.fields) },
        { signal, timeoutMs },
      ),
      total,
    );
  } catch (err) {
    throw located(err);
  }
  if (session instanceof Declined) return session;
  return runSession(u, session, start.url, start.headers, located, new Set());
}

/**
 * Resumes `session`, which an earlier upload of the same bytes (the same cipher, the same file) started:
 * asks which parts the server holds, then sends only the others, and Done. Declined ('session gone')
 * when the server no longer holds the session (it expired, or ended): nothing of it is kept, and the
 * file goes as a new upload, which counts again. Rejects as uploadInParts does.
 */
export async function resumeInParts<B>(
  u: PartsUpload<B>,
  session: PartsSession,
): Promise<{ result: UploadResult } | Declined> {
  const { target, total, exchange, signal, timeoutMs } = u;
  if (total !== session.total) throw new RangeError('A resumed session holds the bytes it was started with.');
  const { base, headers, sessionUrl } = sessionAddress(u, session);
  const located = locatedAt(target);
  const ask = async () =>
    readHeldParts(
      await exchange({ method: 'GET', url: sessionUrl, headers, body: null }, { signal, timeoutMs }),
      session,
    );
  let held: ReadonlySet<number>;
  try {
    // A network still down after the reload is waited for, as a break mid-upload is.
    held = await ask().catch((err) => {
      if (!isLost(err) || signal?.aborted) throw err;
      const waiting = (now: boolean) => u.onWaiting?.(now);
      return new Reconnect(ask, u.sleep ?? sleep, signal ?? new AbortController().signal, waiting).held();
    });
  } catch (err) {
    if (err instanceof UploadError && err.kind === 'session-gone')
      return new Declined('session gone', err.serverMessage ?? '');
    // As any failure of an upload in parts: the server keeps nothing of it.
    await abortSession(exchange, sessionUrl, headers);
    if (signal?.aborted) throw abortedError(signal.reason);
    throw located(err);
  }
  return runSession(u, session, base, headers, located, held);
}

type SessionOf = Pick<PartsUpload<unknown>, 'target' | 'options' | 'file' | 'iv'>;

/**
 * Where the requests of a session started earlier go, and their headers: the ones Start would use now,
 * so that nothing kept from before is ever requested.
 */
function sessionAddress(u: SessionOf, session: PartsSession) {
  const { url: base, headers } = buildPartsStart(u.target, u.options, u.file, session.total, u.iv);
  return { base, headers, sessionUrl: partsSessionUrl(base, session.id) };
}

/** Aborts a session started earlier (an interrupted upload the person forgets). Best-effort, as any Abort. */
export async function abortInParts<B>(
  u: SessionOf & Pick<PartsUpload<B>, 'exchange'>,
  session: PartsSession,
): Promise<void> {
  const { headers, sessionUrl } = sessionAddress(u, session);
  await abortSession(u.exchange, sessionUrl, headers);
}

async function runSession<B>(
  u: PartsUpload<B>,
  session: PartsSession,
  base: string,
  headers: Record<string, string>,
  located: (err: unknown) => unknown,
  /** Parts the server held when the session was resumed: made, but not sent again. */
  heldBefore: ReadonlySet<number>,
): Promise<{ result: UploadResult } | Declined> {
  const { exchange, signal, timeoutMs } = u;
  const { parts } = session;
  // Stops the source and every request: the caller's Cancel, or this upload's first failure.
  const stop = new AbortController();
  const onCancel = () => stop.abort(signal?.reason);
  signal?.addEventListener('abort', onCancel, { once: true });
  if (signal?.aborted) onCancel();

  const failed = deferred<never>();
  const allSent = deferred<void>();
  let failure: unknown;
  const fail = (err: unknown) => {
    if (failure !== undefined) return;
    failure = err;
    stop.abort(err);
    failed.reject(err);
  };
  const source = u.open(session, stop.signal);
  const sessionUrl = partsSessionUrl(base, session.id);
  const reconnect = new Reconnect(
    async () =>
      readHeldParts(
        await exchange(
          { method: 'GET', url: sessionUrl, headers, body: null },
          { signal: stop.signal, timeoutMs },
        ),
        session,
      ),
    u.sleep ?? sleep,
    stop.signal,
    (waiting) => {
      if (!stop.signal.aborted) u.onWaiting?.(waiting);
    },
  );
  /** Waits until the server answers again: the parts it holds. */
  const held = () =>
    reconnect.held().catch((err) => {
      throw located(err);
    });

  // Progress: parts on the server, and what the parts being sent have sent so far.
  const sending = new Map<number, number>();
  let onServerBytes = 0;
  const report = () => {
    let done = onServerBytes;
    for (const bytes of sending.values()) done += bytes;
    if (!stop.signal.aborted) u.onProgress?.(done, session.total);
  };

  const sendPart = async (index: number, body: B) => {
    for (;;) {
      try {
        const answer = await exchange(
          {
            method: 'PUT',
            url: partUrl(base, session.id, index),
            headers: { ...headers, 'Content-Type': 'application/octet-stream' },
            body,
          },
          {
            signal: stop.signal,
            timeoutMs,
            onProgress: (loaded) => {
              sending.set(index, loaded);
              report();
            },
          },
        );
        checkPartAnswer(answer, index, parts);
        reconnect.flowing();
        return;
      } catch (err) {
        sending.delete(index);
        report();
        if (stop.signal.aborted) throw located(err);
        if (isSessionGone(err)) throw sessionGoneError(err as UploadError);
        if (!isLost(err)) throw located(err);
      }
      // The server may have taken the part before the connection broke: then it is not sent again.
      if ((await held()).has(index)) return;
    }
  };

  let next = 0;
  let onServer = 0;
  let inFlight = 0;
  const pump = () => {
    while (inFlight < MAX_IN_FLIGHT && next < parts && !stop.signal.aborted) {
      const index = next++;
      inFlight++;
      (async () => {
        const body = await source.part(index);
        if (!heldBefore.has(index)) await sendPart(index, body);
        sending.delete(index);
        onServerBytes += partSize(session, index);
        onServer++;
        report();
        await source.sent(index);
        inFlight--;
        if (onServer === parts) allSent.resolve();
        pump();
      })().catch(fail);
    }
  };

  const made = source.made.then((outcome) => {
    // The source could not start: nothing was made, so nothing was sent (the session is aborted).
    if (outcome instanceof Declined) fail(outcome);
    return outcome;
  }, fail);
  // Nothing is sent before the caller has kept what it needs of the session.
  (async () => u.onSession?.(session))().then(pump, fail);

  /**
   * Done. If its answer is lost, Done again once the server answers that it still holds the session.
   * Hushdrop keeps a finished session's Done answer until the session expires (its held parts then say
   * `finished`), so the Done again gets the upload's own answer. A server that keeps none (Teknik's, an
   * older Hushdrop, or ours once the session expired) answers 404 instead: the upload was probably made
   * but its link never arrived ('session-gone', with a sentence that says so).
   */
  const finish = async () => {
    let lost = false;
    for (;;) {
      try {
        const answer = await exchange(
          { method: 'POST', url: sessionUrl, headers, body: null },
          { signal: stop.signal, timeoutMs },
        );
        if (lost && answer.status === 404) throw doneLostError({ status: 404 });
        return answer;
      } catch (err) {
        if (stop.signal.aborted || !isLost(err)) throw located(err);
      }
      lost = true;
      await held().catch((err) => {
        throw err instanceof UploadError && err.kind === 'session-gone' ? doneLostError(err) : err;
      });
    }
  };

  let succeeded = false;
  try {
    await Promise.race([allSent.promise, failed.promise]);
    const result = readUploadAnswer(u.target, u.options, u.iv, await finish());
    succeeded = true;
    return { result };
  } catch (err) {
    if (err instanceof Declined) return err;
    fail(err);
    if (signal?.aborted) throw abortedError(signal.reason);
    throw err;
  } finally {
    signal?.removeEventListener('abort', onCancel);
    if (!succeeded) {
      stop.abort(failure);
      await made.catch(() => {});
      await abortSession(exchange, sessionUrl, headers);
    }
    await source.close();
  }
}

/** Abort: the server removes what the session stored. Best-effort: its sweeper ends it otherwise. */
async function abortSession<B>(
  exchange: PartsExchange<B>,
  url: string,
  headers: Record<string, string>,
): Promise<void> {
  await exchange({ method: 'DELETE', url, headers, body: null }, { timeoutMs: ABORT_WITHIN_MS }).catch(
    () => {},
  );
}
