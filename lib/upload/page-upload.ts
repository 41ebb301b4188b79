/**
 * An upload from the server's own page (server/recipient/client/home.ts), in any browser, without the
 * extension. Each file is sealed in the authenticated format with a secret of its own, and travels as
 * the one planner (plan.ts) says for a client with no copy on disk: in parts (parts-runner.ts) cut from
 * the sealed stream as the file is read (stream-parts.ts) wherever the server takes them, so the page
 * never holds the file whole; only a server that declines parts gets it as one request, sealed into a
 * Blob first. The requests are injected (XMLHttpRequest in the page, for progress; fetch in tests).
 * An upload in parts that a reload broke off is resumed from its record (resume-record.ts).
 */
import { type EceFileCipher, newFileCipher, sealedSize, sealedStream } from '../crypto/file-cipher';
import type { PhaseProgress } from '../jobs/progress';
import { sendUpload } from './client';
import { abortedError } from './errors';
import { deletionLink, shareLink } from './links';
import type { PartsSession } from './parts';
import {
  abortInParts,
  type PartsExchange,
  type PartsSource,
  type PartsUpload,
  resumeInParts,
  uploadInParts,
  uploadingReports,
} from './parts-runner';
import { Declined, planUpload, tryInOrder, type UploadWay, type WayJob } from './plan';
import type { ResumeRecord } from './resume-record';
import type { ServerInfo } from './server-info';
import { streamParts } from './stream-parts';
import type { ExpireUnit, Transport, UploadOptions, UploadResult, UploadTarget, Variant } from './types';

/** The variant the page sends with, and whether it needs an account's name and token. */
export interface PageTarget {
  variant: Variant;
  target: UploadTarget;
  needsAccount: boolean;
  /** The "Delete after" units this variant takes (none: the field is not shown). */
  expiry: ExpireUnit[];
}

/**
 * The variant for the page, from the server's info answer (read with readServerInfo): one open to
 * anyone, the one that lists "Delete after" units first (the legacy variant on a Hushdrop server);
 * else one that takes an account. Undefined when the server takes no uploads the page can make.
 */
export function pageTarget(info: ServerInfo): PageTarget | undefined {
  const { legacy, current } = info;
  const open = [legacy, current].filter((v) => v?.uploads === 'open');
  open.sort((a, b) => (b?.expiry.length ?? 0) - (a?.expiry.length ?? 0));
  const chosen = open[0] ?? (current?.uploads === 'accounts' ? current : undefined);
  if (!chosen) return undefined;
  if (chosen === legacy)
    return {
      variant: 'legacy',
      target: { variant: 'legacy', addresses: { baseUrl: legacy.baseUrl, apiUrl: '', uploadUrl: '' } },
      needsAccount: false,
      expiry: legacy.expiry,
    };
  const c = chosen as NonNullable<ServerInfo['current']>;
  return {
    variant: 'current',
    target: { variant: 'current', addresses: { baseUrl: '', apiUrl: c.apiUrl, uploadUrl: c.uploadUrl } },
    needsAccount: c.uploads === 'accounts',
    expiry: c.expiry,
  };
}

/** A part's bytes as the page sends them: a buffer cut from the sealed stream, or a file a worker wrote. */
export type PagePart = Uint8Array<ArrayBuffer> | Blob;

export interface PageUploadArgs {
  /** The file as chosen (a File in the page): read as it is sent. */
  file: Blob;
  name: string;
  type: string;
  to: PageTarget;
  /** The account, where the target needs one. */
  credentials?: { username: string; token: string };
  /** "Delete after", as lib/settings/delete-after.ts offers it (absent: never). */
  expiry?: { unit: ExpireUnit; length: number };
  /** The server's info answer listed parts (readServerKind). */
  takesParts: boolean;
  /** Start, the parts, Done and Abort. */
  exchange: PartsExchange<PagePart>;
  /**
   * Where the parts of a session come from, when the page has a better way than `streamed` (which cuts
   * them from the sealed stream on the page's thread): the home page's parts worker. Absent: `streamed`.
   */
  openParts?(
    file: Blob,
    cipher: EceFileCipher,
    session: PartsSession,
    stop: AbortSignal,
    streamed: () => PartsSource<Uint8Array<ArrayBuffer>>,
  ): PartsSource<PagePart>;
  /** The one request, when the server declines parts. */
  transport: Transport;
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?(p: PhaseProgress): void;
  /**
   * An upload in parts is started, before any part is sent: what a resume after a reload needs (the
   * page keeps it as a ResumeRecord). Awaited; a rejection fails the upload.
   */
  onSession?(session: PartsSession, cipher: EceFileCipher): void | Promise<void>;
}

export interface PageUploaded {
  /** The link to share: the file's address and `#ece1.<secret>` (the secret never went to the server). */
  link: string;
  /** The link that deletes the upload, when the server gave a deletion key. */
  deletion?: string;
  result: UploadResult;
}

/** The page's upload in parts of `job`: parts cut from the sealed stream as the file is read. */
function streamedParts(
  job: WayJob,
  cipher: EceFileCipher,
  u: Pick<PageUploadArgs, 'exchange' | 'onSession' | 'openParts'>,
): PartsUpload<PagePart> {
  const { target, options, file, signal, timeoutMs } = job.request;
  return {
    target,
    options,
    file,
    total: sealedSize(cipher, job.file.size),
    exchange: u.exchange,
    signal,
    timeoutMs,
    open(session, stop) {
      const streamed = () => streamParts(sealedStream(job.file, cipher), session, stop);
      return u.openParts ? u.openParts(job.file, cipher, session, stop, streamed) : streamed();
    },
    onSession: (session) => u.onSession?.(session, cipher),
    ...uploadingReports(job.onProgress),
  };
}

/** The parts way of the page. */
function partsFromStream(u: Pick<PageUploadArgs, 'exchange' | 'onSession' | 'openParts'>): UploadWay {
  return {
    async send(job) {
      const sent = await uploadInParts(streamedParts(job, job.cipher as EceFileCipher, u));
      return sent instanceof Declined ? sent : { result: sent.result };
    },
  };
}

/** The one-request way of the page: the ciphertext sealed into a Blob (the browser may keep it on disk), then sent. */
function sealedInOneRequest(transport: Transport): UploadWay {
  return {
    async send(job) {
      const cipher = job.cipher!;
      const { signal } = job.request;
      const reader = (await sealedStream(job.file, cipher)).getReader();
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      for (;;) {
        if (signal?.aborted) {
          await reader.cancel().catch(() => {});
          throw abortedError(signal.reason);
        }
        const step = await reader.read();
        if (step.done) break;
        chunks.push(step.value as Uint8Array<ArrayBuffer>);
      }
      const result = await sendUpload({
        ...job.request,
        body: new Blob(chunks),
        transport,
        onProgress: (done, total) =>
          job.onProgress({ phases: ['uploading'], phase: 'uploading', done, total }),
      });
      return { result };
    },
  };
}

/** One upload of the page as every way takes it, sealed with `cipher`. */
function pageJob(u: PageUploadArgs, cipher: EceFileCipher): WayJob {
  const { target } = u.to;
  const withAccount: UploadTarget =
    u.to.needsAccount && u.credentials ? { ...target, credentials: u.credentials } : target;
  const options: UploadOptions = {
    mode: 'client',
    format: 'ece',
    saveKey: false,
    genDeletionKey: true,
    ...(u.expiry ? { expireUnit: u.expiry.unit, expireLength: u.expiry.length } : {}),
  };
  return {
    file: u.file,
    cipher,
    request: {
      target: withAccount,
      options,
      file: { name: u.name, type: u.type },
      signal: u.signal,
      timeoutMs: u.timeoutMs,
    },
    onProgress: (p) => u.onProgress?.(p),
    freeSpent: false,
  };
}

/** The page's answer from a sent upload: the link with its secret, and the deletion link. */
function uploaded(job: WayJob, cipher: EceFileCipher, result: UploadResult): PageUploaded {
  return {
    link: shareLink(result, cipher.secret),
    deletion: deletionLink(job.request.target, result),
    result,
  };
}

/** Uploads one file from the page; rejects with the UploadError (or other typed error) to show. */
export async function uploadFromPage(u: PageUploadArgs): Promise<PageUploaded> {
  const cipher = newFileCipher('ece');
  if (cipher.format !== 'ece') throw new TypeError('The page seals in the authenticated format.');
  const job = pageJob(u, cipher);
  const withAccount = job.request.target;
  const origin = URL.canParse(withAccount.addresses.baseUrl || withAccount.addresses.apiUrl)
    ? new URL(withAccount.addresses.baseUrl || withAccount.addresses.apiUrl).origin
    : undefined;
  const plan = planUpload({
    mode: 'client',
    format: 'ece',
    size: u.file.size,
    origin,
    server: { parts: u.takesParts, at: 0 },
    browser: { requestStreams: false, copyOnDisk: false },
    figures: { encrypt: {}, streamCap: 0 },
  });
  const oneRequest = sealedInOneRequest(u.transport);
  const { sent } = await tryInOrder(
    plan,
    // No request streams are planned for the page (it runs in every engine); the disk way is the one request.
    { parts: partsFromStream(u), stream: oneRequest, disk: oneRequest },
    job,
    () => {},
  );
  return uploaded(job, cipher, sent.result);
}

/**
 * Resumes the upload in parts of `record` with `u.file`, which the caller found to be the same file
 * (resume-record.ts `matches`): the parts the server holds are not sent again. Declined ('session
 * gone') when the server no longer holds the session: then nothing of it is kept, and the file goes as
 * a new upload (uploadFromPage). Rejects as uploadFromPage does.
 */
export async function resumeFromPage(
  u: PageUploadArgs,
  record: Pick<ResumeRecord, 'session' | 'cipher'>,
): Promise<PageUploaded | Declined> {
  const { cipher } = record;
  if (cipher.format !== 'ece') throw new TypeError('The page seals in the authenticated format.');
  const job = pageJob(u, cipher);
  const sent = await resumeInParts(streamedParts(job, cipher, u), record.session);
  return sent instanceof Declined ? sent : uploaded(job, cipher, sent.result);
}

/**
 * Forgets an interrupted upload: its session is aborted, best-effort (the server's sweeper ends it
 * otherwise). Its file is not needed.
 */
export function forgetFromPage(
  u: Omit<PageUploadArgs, 'file' | 'name' | 'type'>,
  record: Pick<ResumeRecord, 'session' | 'cipher' | 'file'>,
): Promise<void> {
  if (record.cipher.format !== 'ece') throw new TypeError('The page seals in the authenticated format.');
  const job = pageJob({ ...u, file: new Blob(), name: record.file.name, type: '' }, record.cipher);
  return abortInParts({ ...job.request, exchange: u.exchange }, record.session);
}
