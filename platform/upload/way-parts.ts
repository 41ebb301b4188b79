// The parts way (lib/upload/plan.ts): an encrypted upload in parts (client mode, a file of
// MEASURED_FROM_BYTES or more, to a server whose info answer listed parts: lib/upload/parts.ts has the
// protocol). Why: the disk way encrypts the whole file, then sends it (in series, 0.50× curl at
// 1 Gbit/s), and Chromium caps a streamed body below the link; in parts, part k is sent while part
// k+1 is encrypted, so the upload runs at about max(encrypt, send), and a dropped connection costs one
// part. A server that answers Start 404/405 after all (its info was older than it), or 429 (too many
// sessions from here), gets a decline, and the plan's next way sends the file as one request.
//
// The files worker writes the ciphertext, cut at the session's part size, into one OPFS scratch file
// per part, which this document makes (and holds, so no sweep takes it) and hands out only while
// fewer than MAX_ON_DISK parts are off the server: the worker waits for the next, so the disk holds a
// few parts, never the whole copy. Each finished part goes as an XHR PUT of its raw bytes (as a File
// with a path where Chromium has one: path-backed-file.ts; this document makes the XHR, as that
// requires), at most MAX_IN_FLIGHT at once; one that fails on the network is sent once more. A
// part's file is removed once the server has it; on failure or cancel every file is removed and the
// session aborted (DELETE), best-effort, before the caller hears of it.
import { STREAM_CHUNK_BYTES } from '../../lib/crypto';
import { type FileCipher, sealedSize } from '../../lib/crypto/file-cipher';
import { t } from '../../lib/i18n';
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
  UploadError,
  xhrExchange,
} from '../../lib/upload';
import { abortedError, atAddress } from '../../lib/upload/errors';
import { serverAddress } from '../../lib/upload/links';
import { Declined, type Sent, type UploadWay, type WayJob } from '../../lib/upload/plan';
import { pathBackedScratchFile } from '../storage/path-backed-file';
import { createScratch, type Scratch } from '../storage/scratch-files';
import { sealIntoFiles } from './encrypt-worker-session';

/** Parts being sent at once: two keep the link busy across one part's answer. */
const MAX_IN_FLIGHT = 2;
/** Part files handed out and not yet on the server: two being sent and one ready, or being written. */
const MAX_ON_DISK = 3;
/** How long Abort may take before it is left to the server's sweeper. */
const ABORT_WITHIN_MS = 10_000;

const PHASES = ['uploading'] as const;

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
 * Uploads the job's file encrypted in parts. Resolves with the result, or Declined when nothing was
 * uploaded and the plan's next way should send it: the server has no parts after all, has too many
 * sessions open from here, or no worker with a sync access handle could start here.
 */
async function sendInParts(job: WayJob): Promise<Sent | Declined> {
  const { cipher, request } = job;
  if (!cipher) throw new TypeError('The parts way sends encrypted files only.');
  const { target, options, file: info, iv, signal, timeoutMs } = request;
  const total = sealedSize(cipher, job.file.size);
  const start = buildPartsStart(target, options, info, total, iv);
  const address = serverAddress(target);
  const located = (err: unknown) => (err instanceof UploadError ? atAddress(err, address) : err);

  let session: PartsSession | Declined;
  try {
    session = readPartsStart(
      await xhrExchange(
        XMLHttpRequest,
        { method: 'POST', url: start.url, headers: start.headers, body: fieldsForm(start.fields) },
        { signal, timeoutMs },
      ),
      total,
    );
  } catch (err) {
    throw located(err);
  }
  if (session instanceof Declined) return session;
  return runSession(job, cipher, session, start.url, start.headers, located);
}

async function runSession(
  job: WayJob,
  cipher: FileCipher,
  session: PartsSession,
  base: string,
  headers: Record<string, string>,
  located: (err: unknown) => unknown,
): Promise<Sent | Declined> {
  const { target, options, iv, signal, timeoutMs } = job.request;
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
  let give: ((index: number, name: string) => void) | undefined;
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
      job.onProgress({ phases: PHASES, phase: 'uploading', done, total: session.total });
  };

  /** Makes part files while fewer than MAX_ON_DISK parts are off the server, and hands them out. */
  const handOut = () => {
    while (handedOut < parts && handedOut - onServer < MAX_ON_DISK && !stop.signal.aborted) {
      const index = handedOut++;
      const made = createScratch('upload').then((scratch) => {
        files.set(index, scratch);
        if (stop.signal.aborted) return;
        give?.(index, scratch.name);
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

  const encrypted = sealIntoFiles({
    file: job.file,
    cipher,
    partBytes: session.partBytes,
    chunkSize: STREAM_CHUNK_BYTES,
    freeSpent: job.freeSpent,
    signal: stop.signal,
    onPartDone: partDone,
    handOut: (handTo) => {
      give = handTo;
      for (const [index, scratch] of files) handTo(index, scratch.name);
    },
    aborted: () => failure ?? abortedError(signal?.reason),
  });
  encrypted.catch(() => {});
  handOut();

  let succeeded = false;
  try {
    const sealed = await Promise.race([encrypted, failed.promise]);
    // No worker with a sync access handle here: nothing was written or sent (the session is aborted).
    if (sealed instanceof Declined) return sealed;
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
    return { result };
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

export const partsWay: UploadWay = { send: sendInParts };
