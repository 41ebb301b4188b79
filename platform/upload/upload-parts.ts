// An encrypted upload in parts (client mode, a file of MEASURED_FROM_BYTES or more, a Hushdrop server
// that takes parts: lib/upload/parts.ts has the protocol). Why: the disk way encrypts the whole file,
// then sends it (in series, 0.50× curl at 1 Gbit/s), and Chromium caps a streamed body below the
// link; in parts, part k is sent while part k+1 is encrypted, so the upload runs at about
// max(encrypt, send), and a dropped connection costs one part.
//
// The encrypt worker writes the ciphertext, cut at the session's part size, into one OPFS scratch
// file per part, which this document makes (and holds, so no sweep takes it) and hands out only
// while fewer than MAX_ON_DISK parts are off the server: the worker waits for the next, so the disk
// holds a few parts, never the whole copy. Each finished part goes as an XHR PUT of its raw bytes
// (as a File with a path where Chromium has one: path-backed-file.ts; this document makes the XHR,
// as that requires), at most MAX_IN_FLIGHT at once; one that fails on the network is sent once
// more. A part's file is removed once the server has it; on failure or cancel every file is removed
// and the session aborted (DELETE), best-effort, before the caller hears of it.
import { STREAM_CHUNK_BYTES } from '../../lib/crypto';
import { t } from '../../lib/i18n';
import type { PhaseProgress } from '../../lib/jobs/progress';
import {
  buildPartsStart,
  checkPartAnswer,
  fieldsForm,
  type PartsSession,
  partSize,
  partsSessionUrl,
  partUrl,
  readPartsStart,
  readUploadAnswer,
  type SendUploadArgs,
  UploadError,
  type UploadResult,
  uploadEndpoint,
  xhrExchange,
} from '../../lib/upload';
import { abortedError, atAddress } from '../../lib/upload/errors';
import { serverAddress } from '../../lib/upload/links';
import { pathBackedScratchFile } from '../storage/path-backed-file';
import { createScratch, type Scratch } from '../storage/scratch-files';
import type { UploadCipher } from './encrypt-worker';
import { encryptWorkerSession } from './worker-session';

/** Parts being sent at once: two keep the link busy across one part's answer. */
const MAX_IN_FLIGHT = 2;
/** Part files handed out and not yet on the server: two being sent and one ready, or being written. */
const MAX_ON_DISK = 3;
/** How long Abort may take before it is left to the server's sweeper. */
const ABORT_WITHIN_MS = 10_000;

const PHASES = ['uploading'] as const;

/** Origins whose server answered Start with 404 or 405 in this document: the one-request way at once. */
const noParts = new Set<string>();

export type PartsCommon = Omit<SendUploadArgs, 'body' | 'transport' | 'onProgress'>;

export interface PartsUpload {
  file: File;
  cipher: UploadCipher;
  /** The ciphertext's size (storedSize). */
  total: number;
  common: PartsCommon;
  onProgress: (p: PhaseProgress) => void;
  freeSpent: boolean;
}

/** A promise that is settled from outside. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * Uploads `file` encrypted with `cipher` in parts. Resolves with the result, or 'no-parts' when
 * nothing was uploaded and the caller should go the one-request way: the server has no parts, or no
 * worker with a sync access handle could start here.
 */
export async function sendInParts(up: PartsUpload): Promise<UploadResult | 'no-parts'> {
  const { target, options, file: info, iv, signal, timeoutMs } = up.common;
  const origin = new URL(uploadEndpoint(target)).origin;
  if (noParts.has(origin)) return 'no-parts';
  const start = buildPartsStart(target, options, info, up.total, iv);
  const address = serverAddress(target);
  const located = (err: unknown) => (err instanceof UploadError ? atAddress(err, address) : err);

  let session: PartsSession | 'no-parts' | 'one-request';
  try {
    session = readPartsStart(
      await xhrExchange(
        XMLHttpRequest,
        { method: 'POST', url: start.url, headers: start.headers, body: fieldsForm(start.fields) },
        { signal, timeoutMs },
      ),
      up.total,
    );
  } catch (err) {
    throw located(err);
  }
  if (session === 'no-parts') {
    noParts.add(origin);
    return 'no-parts';
  }
  if (session === 'one-request') return 'no-parts';
  return runSession(up, session, start.url, start.headers, located);
}

async function runSession(
  up: PartsUpload,
  session: PartsSession,
  base: string,
  headers: Record<string, string>,
  located: (err: unknown) => unknown,
): Promise<UploadResult | 'no-parts'> {
  const { target, options, iv, signal, timeoutMs } = up.common;
  const { parts } = session;
  // Stops the worker and every request: the caller's cancel, or this upload's first failure.
  const stop = new AbortController();
  const onCancel = () => stop.abort(signal?.reason);
  signal?.addEventListener('abort', onCancel, { once: true });

  const files = new Map<number, Scratch>();
  const making = new Set<Promise<unknown>>();
  const ready: number[] = [];
  const sending = new Map<number, number>();
  let handedOut = 0;
  let onServer = 0;
  let onServerBytes = 0;
  let inFlight = 0;
  let post: ((command: { type: 'part-file'; index: number; name: string }) => void) | undefined;
  const failed = deferred<never>();
  const allSent = deferred<void>();
  let failure: unknown;
  const fail = (err: unknown) => {
    if (failure !== undefined) return;
    failure = err;
    stop.abort(err);
    failed.reject(err);
  };

  const report = () => {
    let done = onServerBytes;
    for (const bytes of sending.values()) done += bytes;
    if (!stop.signal.aborted)
      up.onProgress({ phases: PHASES, phase: 'uploading', done, total: session.total });
  };

  /** Makes part files while fewer than MAX_ON_DISK parts are off the server, and hands them out. */
  const handOut = () => {
    while (handedOut < parts && handedOut - onServer < MAX_ON_DISK && !stop.signal.aborted) {
      const index = handedOut++;
      const made = createScratch('upload').then((scratch) => {
        files.set(index, scratch);
        if (stop.signal.aborted) return;
        post?.({ type: 'part-file', index, name: scratch.name });
      }, fail);
      making.add(made);
      void made.finally(() => making.delete(made));
    }
  };

  const sendPart = async (index: number) => {
    const scratch = files.get(index)!;
    const size = partSize(session, index);
    const body = (await pathBackedScratchFile(scratch.name, size)) ?? (await scratch.handle.getFile());
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await xhrExchange(
          XMLHttpRequest,
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
        return size;
      } catch (err) {
        sending.delete(index);
        // Sending an index again replaces it: a broken connection costs this part once.
        const lost = err instanceof UploadError && (err.kind === 'network' || err.kind === 'timeout');
        if (lost && attempt === 0 && !stop.signal.aborted) continue;
        throw located(err);
      }
    }
  };

  const pump = () => {
    while (inFlight < MAX_IN_FLIGHT && ready.length > 0 && !stop.signal.aborted) {
      const index = ready.shift()!;
      inFlight++;
      sendPart(index).then(async (size) => {
        inFlight--;
        sending.delete(index);
        onServer++;
        onServerBytes += size;
        report();
        const scratch = files.get(index);
        files.delete(index);
        await scratch?.remove();
        if (onServer === parts) allSent.resolve();
        handOut();
        pump();
      }, fail);
    }
  };

  const partDone = (index: number, size: number) => {
    const expected = partSize(session, index);
    if (size !== expected) return fail(new Error(t('partsPartWrongSize', index + 1, size, expected)));
    ready.push(index);
    pump();
  };

  const encrypted = encryptWorkerSession<'done' | 'unsupported'>(
    {
      type: 'parts',
      file: up.file,
      cipher: up.cipher,
      partBytes: session.partBytes,
      chunkSize: STREAM_CHUNK_BYTES,
      freeSpent: up.freeSpent,
    },
    stop.signal,
    {
      report(r) {
        if (stop.signal.aborted) return { error: failure ?? abortedError(signal?.reason) };
        if (r.type === 'part-done') partDone(r.index, r.size);
        else if (r.type === 'done' || r.type === 'unsupported') return { value: r.type };
        else if (r.type === 'error') {
          const err = new Error(t('encryptFailed', r.message));
          err.name = r.name === 'QuotaExceededError' ? r.name : 'EncryptError';
          return { error: err };
        }
        return undefined;
      },
      failed: (heard, message) =>
        heard ? { error: new Error(t('encryptWorkerFailed', message)) } : { value: 'unsupported' },
      aborted: () => failure ?? abortedError(signal?.reason),
      started: (more) => {
        post = more;
        for (const [index, scratch] of files) more({ type: 'part-file', index, name: scratch.name });
      },
    },
  );
  encrypted.catch(() => {});
  handOut();

  let succeeded = false;
  try {
    const how = await Promise.race([encrypted, failed.promise]);
    // No worker with a sync access handle here: nothing was written or sent.
    if (how !== 'done') return 'no-parts';
    await Promise.race([allSent.promise, failed.promise]);
    const answer = await xhrExchange(
      XMLHttpRequest,
      { method: 'POST', url: partsSessionUrl(base, session.id), headers, body: null },
      { signal: stop.signal, timeoutMs },
    ).catch((err) => {
      throw located(err);
    });
    const result = readUploadAnswer(target, options, iv, answer);
    succeeded = true;
    return result;
  } catch (err) {
    fail(err);
    if (signal?.aborted) throw abortedError(signal.reason);
    throw err;
  } finally {
    signal?.removeEventListener('abort', onCancel);
    if (!succeeded) {
      stop.abort(failure);
      // The worker lets go of the part it was writing before its file can be removed.
      await encrypted.catch(() => {});
      await abortSession(partsSessionUrl(base, session.id), headers);
    }
    await Promise.allSettled([...making]);
    await Promise.all([...files.values()].map((scratch) => scratch.remove()));
  }
}

/** Abort: the server removes what the session stored. Best-effort: its sweeper ends it otherwise. */
async function abortSession(url: string, headers: Record<string, string>): Promise<void> {
  await fetch(url, {
    method: 'DELETE',
    headers,
    credentials: 'omit',
    referrerPolicy: 'no-referrer',
    signal: AbortSignal.timeout(ABORT_WITHIN_MS),
  }).catch(() => {});
}
