// The parts way (lib/upload/plan.ts): an encrypted upload in parts (client mode, a file of
// MEASURED_FROM_BYTES or more, to a server whose info answer listed parts: lib/upload/parts.ts has the
// protocol). Why: the disk way encrypts the whole file, then sends it (in series, 0.50× curl at
// 1 Gbit/s), and Chromium caps a streamed body below the link; in parts, part k is sent while part
// k+1 is encrypted, so the upload runs at about max(encrypt, send), and a dropped connection costs at
// most the parts in flight: the upload waits for the network and sends only what the server lacks. A server that answers Start 404/405 after all (its info was older than it), or 429 (too many
// sessions from here), gets a decline, and the plan's next way sends the file as one request.
//
// The files worker writes the ciphertext, cut at the session's part size, into one OPFS scratch file
// per part, which this document makes (and holds, so no sweep takes it) and hands out only while
// fewer than MAX_ON_DISK parts are off the server: the worker waits for the next, so the disk holds a
// few parts, never the whole copy. Each finished part goes as an XHR PUT of its raw bytes (as a File
// with a path where Chromium has one: path-backed-file.ts; this document makes the XHR, as that
// requires). The protocol (Start, at most two parts in flight, a wait for the network after a broken
// connection and then only the parts the server does not hold, Done; Abort on failure or cancel) is lib/upload/parts-runner.ts, which the server's own upload page
// runs too. A part's file is removed once the server has it; on failure or cancel every file is
// removed and the session aborted (DELETE), best-effort, before the caller hears of it.
import { STREAM_CHUNK_BYTES } from '../../lib/crypto';
import { type FileCipher, sealedSize } from '../../lib/crypto/file-cipher';
import { deferredByIndex } from '../../lib/deferred';
import { t } from '../../lib/i18n';
import { abortedError } from '../../lib/upload/errors';
import { brokenOffByLeaving } from '../../lib/upload/page-leaving';
import { type PartsSession, partSize } from '../../lib/upload/parts';
import {
  type PartsExchange,
  type PartsSource,
  type PartsUpload,
  resumeInParts,
  uploadInParts,
  uploadingReports,
} from '../../lib/upload/parts-runner';
import { Declined, type Sent, type UploadWay, type WayJob } from '../../lib/upload/plan';
import { xhrExchange } from '../../lib/upload/transport';
import { pathBackedScratchFile } from '../storage/path-backed-file';
import { pageLeaving } from '../storage/resumes';
import { createScratch, type Scratch } from '../storage/scratch-files';
import { sealIntoFiles } from './encrypt-worker-session';

/** Part files handed out and not yet on the server: two being sent and one ready, or being written. */
const MAX_ON_DISK = 3;

/**
 * The requests, with XHR: this document makes them (a path-backed File needs that), with progress. An
 * upload page being left (a reload) breaks them off as a lost connection does: no Abort, so that the
 * page can resume the upload after the reload (../storage/resumes.ts).
 */
const exchange: PartsExchange<Blob> = brokenOffByLeaving(
  (req, options) => xhrExchange(XMLHttpRequest, req, options),
  pageLeaving,
);

/**
 * Uploads the job's file encrypted in parts (lib/upload/parts-runner.ts runs the protocol), or resumes
 * the job's session. Resolves with the result, or Declined when nothing was uploaded and the plan's
 * next way should send it: the server has no parts after all, has too many sessions open from here,
 * no worker with a sync access handle could start here, or (a resume) it no longer holds the session.
 */
async function sendInParts(job: WayJob): Promise<Sent | Declined> {
  const { cipher, request } = job;
  if (!cipher) throw new TypeError('The parts way sends encrypted files only.');
  const { target, options, file, iv, signal, timeoutMs } = request;
  const total = sealedSize(cipher, job.file.size);
  const upload: PartsUpload<Blob> = {
    target,
    options,
    file,
    iv,
    total,
    signal,
    timeoutMs,
    exchange,
    open: (session, stop) => partFiles(job, cipher, session, stop, signal),
    onSession: job.onSession,
    ...uploadingReports(job.onProgress),
  };
  const sent = job.resume ? await resumeInParts(upload, job.resume) : await uploadInParts(upload);
  return sent instanceof Declined ? sent : { result: sent.result };
}

/**
 * The parts as OPFS files the files worker writes: made (and held, so no sweep takes them) and handed
 * out only while fewer than MAX_ON_DISK parts are off the server, each removed once the server has it.
 */
function partFiles(
  job: WayJob,
  cipher: FileCipher,
  session: PartsSession,
  stop: AbortSignal,
  signal: AbortSignal | undefined,
): PartsSource<Blob> {
  const { parts } = session;
  const files = new Map<number, Scratch>();
  const written = deferredByIndex<void>();
  const making = new Set<Promise<unknown>>();
  let handedOut = 0;
  let onServer = 0;
  let give: ((index: number, name: string) => void) | undefined;
  let failure: unknown;
  const failAll = (err: unknown) => {
    failure ??= err;
    written.rejectAll(parts, err);
  };

  /** Makes part files while fewer than MAX_ON_DISK parts are off the server, and hands them out. */
  const handOut = () => {
    while (handedOut < parts && handedOut - onServer < MAX_ON_DISK && !stop.aborted) {
      const index = handedOut++;
      const made = createScratch('upload').then((scratch) => {
        files.set(index, scratch);
        if (stop.aborted) return;
        give?.(index, scratch.name);
      }, failAll);
      making.add(made);
      void made.finally(() => making.delete(made));
    }
  };

  const encrypted = sealIntoFiles({
    file: job.file,
    cipher,
    partBytes: session.partBytes,
    chunkSize: STREAM_CHUNK_BYTES,
    freeSpent: job.freeSpent,
    signal: stop,
    onPartDone(index, size) {
      const expected = partSize(session, index);
      if (size !== expected) failAll(new Error(t('partsPartWrongSize', index + 1, size, expected)));
      else written.of(index).resolve();
    },
    handOut: (handTo) => {
      give = handTo;
      for (const [index, scratch] of files) handTo(index, scratch.name);
    },
    aborted: () => failure ?? abortedError(signal?.reason),
  });
  encrypted.catch(failAll);
  handOut();

  return {
    async part(index) {
      await written.of(index).promise;
      const scratch = files.get(index)!;
      const size = partSize(session, index);
      // As a File with a path where Chromium has one (path-backed-file.ts): sent from disk.
      return (await pathBackedScratchFile(scratch.name, size)) ?? (await scratch.handle.getFile());
    },
    async sent(index) {
      onServer++;
      const scratch = files.get(index);
      files.delete(index);
      await scratch?.remove();
      handOut();
    },
    made: encrypted,
    async close() {
      // The worker lets go of the part it was writing before its file can be removed.
      await encrypted.catch(() => {});
      await Promise.allSettled([...making]);
      await Promise.all([...files.values()].map((scratch) => scratch.remove()));
    },
  };
}

export const partsWay: UploadWay = { send: sendInParts };
