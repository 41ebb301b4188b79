// One upload, run in an extension page or the offscreen document (Chromium) / background page
// (Firefox), then recorded in history. It reads as its steps: the file's cipher (client mode), the plan
// (lib/upload/plan.ts: the ways to try, from what is known of the server, what this browser can do
// and what earlier uploads measured), each way in turn until one sends (way-parts.ts, way-stream.ts,
// way-disk.ts; a way that declines has stored nothing), what the upload taught kept in the server's
// record (platform/storage/capabilities.ts), and the history entry. The profile says the format:
// Teknik's AES-CTR (same length as the file) or the authenticated format (header and a tag per
// 64 KiB record more, lib/crypto/ece-stream.ts); every way takes both.

import { secretText, sha256Hex } from '../../lib/crypto';
import { type FileCipher, newFileCipher, sealedSize } from '../../lib/crypto/file-cipher';
import { HASHED_UP_TO, type UploadEntry } from '../../lib/history';
import { t } from '../../lib/i18n';
import type { PhaseProgress } from '../../lib/jobs/progress';
import {
  deletionLink,
  type Learned,
  shareLink,
  type UploadOptions,
  type UploadTarget,
} from '../../lib/upload';
import type { PartsSession } from '../../lib/upload/parts';
import {
  browserFigures,
  Declined,
  learnedFrom,
  learnedFromSent,
  planUpload,
  type Sent,
  tryInOrder,
  type WayJob,
} from '../../lib/upload/plan';
import type { ResumeRecord } from '../../lib/upload/resume-record';
import { remember } from '../storage/capabilities';
import { addUpload, HistoryWriteError } from '../storage/history';
import { sweepScratch } from '../storage/scratch-files';
import { knownCapabilities, uploadOrigin } from './server-info';
import { diskWay } from './way-disk';
import { partsWay } from './way-parts';
import { streamWay } from './way-stream';

/**
 * The file a job uploads. `file` is what the job and its history entry show (name, type, size), and
 * what is encrypted. `pathBacked`, where the job has one (a scratch file: staging.ts), gives the same
 * bytes as a File with a path on disk, or undefined where the browser offers none; it is asked for
 * only when the file is sent as it is (modes none and server).
 */
export interface UploadInput {
  file: File;
  pathBacked?: () => Promise<File | undefined>;
}

export interface UploadOutcome {
  entry: UploadEntry;
  /** Set when the upload worked but history could not be written: the link must stay visible. */
  historyError?: HistoryWriteError;
}

export interface RunOptions {
  /** A phase's bytes so far, and the phases this upload runs (one bar over them: lib/jobs/progress.ts). */
  onProgress?: (p: PhaseProgress) => void;
  signal?: AbortSignal;
  /** How long the server may stay silent (no upload progress, no answer) before the upload gives up. */
  timeoutMs?: number;
  /** Whether fetch may get a streamed body here: the browser adapter says (never in Firefox). */
  requestStreams: boolean;
  /** Whether spent buffers are detached to free them at once: the browser adapter says (Firefox). */
  freeSpentBuffers: boolean;
  /** An upload page's file: an upload in parts can resume after a reload (../storage/resumes.ts). */
  resumable?: Resumable;
}

/** What resuming an upload in parts after a reload of its page takes, from that page. */
export interface Resumable {
  /** The interrupted upload this file resumes: the caller found it the same file (resume-record.ts). */
  from?: ResumeRecord;
  /** Keeps what a resume needs, once a session is started and before any part is sent. */
  keep(fields: Omit<ResumeRecord, 'file'>): Promise<void>;
  /** The upload has ended, whichever way: its record goes. */
  forget(sessionId: string): Promise<void>;
  /** The server no longer held the session of `from`: the file goes as a new upload, which counts again. */
  onGone(): void;
}

/** How long the server may stay silent when the profile does not say. */
export const DEFAULT_SILENCE_MS = 60_000;

const WAYS = { parts: partsWay, stream: streamWay, disk: diskWay } as const;

let swept = false;

export async function runUpload(
  input: UploadInput,
  target: UploadTarget,
  options: UploadOptions,
  run: RunOptions,
): Promise<UploadOutcome> {
  if (!swept) {
    swept = true;
    sweepScratch(['upload']).catch(() => {});
  }
  const { resumable } = run;
  const resumed = options.mode === 'client' ? resumable?.from : undefined;
  let cipher =
    resumed?.cipher ?? (options.mode === 'client' ? newFileCipher(options.format ?? 'teknik') : undefined);
  // The session whose record is kept while it is sent (forgotten once it has ended, whichever way).
  let kept = resumed?.session.id;
  const keep = async (session: PartsSession) => {
    kept = session.id;
    await resumable?.keep({ session, variant: target.variant, cipher: cipher! });
  };
  try {
    if (resumed) {
      const sent = await partsWay.send({
        ...wayJob(input, target, options, cipher, run),
        resume: resumed.session,
        onSession: keep,
      });
      if (!(sent instanceof Declined))
        return await keepInHistory(sent, input, target, options, cipher, run.signal);
      // The server no longer holds it (it expired): a new upload, with a cipher of its own.
      await resumable?.forget(resumed.session.id);
      kept = undefined;
      resumable?.onGone();
      cipher = newFileCipher(cipher!.format);
    }
    return await sendNew(input, target, options, cipher, { ...run, onSession: resumable && keep });
  } finally {
    if (kept) await resumable?.forget(kept).catch(() => {});
  }
}

/** Sends the file as the plan says, and keeps it in history. */
async function sendNew(
  input: UploadInput,
  target: UploadTarget,
  options: UploadOptions,
  cipher: FileCipher | undefined,
  run: RunOptions & Pick<WayJob, 'onSession'>,
): Promise<UploadOutcome> {
  const { file } = input;
  const origin = uploadOrigin(target);
  const caps = await knownCapabilities(target, { mode: options.mode, size: file.size, signal: run.signal });
  const plan = planUpload({
    mode: options.mode,
    format: cipher?.format ?? 'teknik',
    size: file.size,
    origin,
    server: origin === undefined ? undefined : caps.servers[origin],
    browser: { requestStreams: run.requestStreams },
    figures: browserFigures(caps),
  });
  const keep = async (lesson: Learned | undefined) => origin && lesson && (await remember(origin, lesson));
  const job = { ...wayJob(input, target, options, cipher, run), onSession: run.onSession };
  const { sent, planned } = await tryInOrder(plan, WAYS, job, (declined) => keep(learnedFrom(declined)));
  const sealed = cipher && { format: cipher.format, bytes: sealedSize(cipher, file.size) };
  await keep(learnedFromSent(planned, sent, sealed));
  return keepInHistory(sent, input, target, options, cipher, run.signal);
}

function wayJob(
  { file, pathBacked }: UploadInput,
  target: UploadTarget,
  options: UploadOptions,
  cipher: FileCipher | undefined,
  { onProgress = () => {}, signal, timeoutMs = DEFAULT_SILENCE_MS, freeSpentBuffers }: RunOptions,
): WayJob {
  const request = {
    target,
    options,
    file: { name: file.name || 'file', type: file.type || 'application/octet-stream' },
    iv: cipher?.format === 'teknik' ? cipher.iv : undefined,
    signal,
    timeoutMs,
  };
  return { file, pathBacked, cipher, request, onProgress, freeSpent: freeSpentBuffers };
}

/** The upload's history entry, written; its scratch files removed (after the link is shown, on success). */
async function keepInHistory(
  { result, cleanup = async () => {} }: Sent,
  { file }: UploadInput,
  target: UploadTarget,
  options: UploadOptions,
  cipher: FileCipher | undefined,
  signal: AbortSignal | undefined,
): Promise<UploadOutcome> {
  const teknik = cipher?.format === 'teknik' ? cipher : undefined;
  let succeeded = false;
  try {
    // The secret (ece) or key (Teknik) that went into the link, never to the server.
    const linkKey = cipher?.format === 'ece' ? cipher.secret : teknik?.key;
    const entry: UploadEntry = {
      id: crypto.randomUUID(),
      link: shareLink(result, linkKey, options.mode === 'server' && options.saveKey),
      url: result.url.split('#')[0]!,
      fileName: result.fileName,
      key: cipher?.format === 'ece' ? secretText(cipher.secret) : (teknik?.key ?? result.key),
      iv: teknik ? teknik.iv : cipher ? undefined : result.iv,
      format: cipher?.format === 'ece' ? 'ece' : undefined,
      variant: target.variant,
      mode: options.mode,
      deletionLink: deletionLink(target, result),
      expirationDate: result.expirationDate,
      maxDownloads: result.maxDownloads || undefined,
      size: file.size,
      type: file.type || 'application/octet-stream',
      name: file.name || 'file',
      time: Date.now(),
      server: target.variant === 'legacy' ? target.addresses.baseUrl : target.addresses.apiUrl,
      sha256: file.size <= HASHED_UP_TO ? await sha256Hex(file) : undefined,
      keyKept: options.mode === 'server' ? options.saveKey : undefined,
    };
    for (const k of Object.keys(entry) as (keyof UploadEntry)[]) if (entry[k] === undefined) delete entry[k];
    if (signal?.aborted) {
      // Cancelled after the server had the whole file: take it back rather than leave it unlisted.
      if (entry.deletionLink)
        await fetch(entry.deletionLink, { credentials: 'omit', referrerPolicy: 'no-referrer' }).catch(
          () => {},
        );
      throw signal.reason ?? new DOMException(t('uploadCancelled'), 'AbortError');
    }
    succeeded = true;
    try {
      await addUpload(entry);
      return { entry };
    } catch (err) {
      if (err instanceof HistoryWriteError) return { entry, historyError: err };
      throw err;
    }
  } finally {
    // Removing a large OPFS file takes about a second per GiB: after a success the link is shown
    // without waiting for it; after a failure or cancel it is gone before the caller hears of it.
    if (succeeded) void cleanup();
    else await cleanup();
  }
}
