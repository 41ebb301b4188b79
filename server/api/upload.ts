// POST …/v1/Upload for both variants: checks who may upload and how much, binds the form, encrypts while
// streaming into the store, records, answers. Nothing is half-stored: bytes become an upload only once
// the record exists, and any failure before that removes them.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough, type Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomText } from '../../lib/crypto/text';
import { AUTH_REALM, parseBasicAuth } from '../accounts/basic-auth';
import { closeAfterReply, declaredLength, drain } from '../http/body';
import { type Reply, replyAppError, replyJson, replyTooMany, tooLargeMessage } from '../http/responses';
import { isStorageError, type StorageError } from '../storage/errors';
import { isLinkFormat, type UploadRecord, type Variant } from '../uploads/record';
import { type BoundForm, bindForm } from './bound-form';
import { cipherProblem, ctrTransform } from './cipher';
import type { ApiContext } from './context';
import { computeExpiry, isoWithOffset } from './expiry';
import { bindUploadParams, fileExtension, type UploadParams } from './fields';
import { type FileSink, FORM_OVERHEAD_ALLOWANCE, receiveUpload } from './multipart';
import { QuotaRefusal, quotaGate } from './quota-gate';

/** Lengths of generated key, IV and deletion key (Teknik's config defaults: 256/8, 128/8, 24). */
const KEY_CHARS = 32;
const IV_CHARS = 16;
const DELETION_KEY_CHARS = 24;
/** A refused upload's body is read (so the client sees the answer) up to this much, then cut. */
const REFUSED_BODY_CAP = 256 * 1024 * 1024;

export interface Links {
  baseUrl: string;
  apiUrl: string;
  uploadUrl: string;
}

/** Where a stored file is served, per variant (teknik.md §9 for the `?sub=u` form). */
export function fileLink(links: Links, variant: Variant, fileName: string): string {
  const name = encodeURIComponent(fileName);
  return variant === 'legacy' ? `${links.baseUrl}/${name}?sub=u` : `${links.uploadUrl}/${name}`;
}

export interface UploadRequest {
  variant: Variant;
  req: IncomingMessage;
  res: ServerResponse;
  /** The request body (the request itself, or a recording tap of it). */
  body: Readable;
  reply: Reply;
  links: Links;
  /** The client's address (rate limits). */
  address: string;
}

/** An upload's answer: the result object the API returns (tests may reshape it, as old servers did). */
export type UploadResult = Record<string, unknown>;

export function unauthorized(reply: Reply, message = 'Unauthorized'): void {
  replyJson(
    reply,
    401,
    { error: { type: 401, message } },
    { 'WWW-Authenticate': `Basic realm="${AUTH_REALM}"` },
  );
}

/** Who uploads, or the answer that refuses it: the same rules for a one-request upload and for parts. */
export type Uploader =
  | { ok: true; username: string | undefined }
  | { ok: false; answer: (reply: Reply) => void };

/**
 * The current variant takes Basic auth; the legacy variant has none, so it is closed when accounts are
 * required. `address` is the client's: failed logins are counted per address and per username.
 */
export async function whoUploads(
  ctx: ApiContext,
  variant: Variant,
  req: IncomingMessage,
  address: string,
): Promise<Uploader> {
  if (variant === 'current') {
    const credentials = parseBasicAuth(req.headers.authorization);
    if (credentials.kind === 'bad') return { ok: false, answer: (reply) => unauthorized(reply) };
    if (credentials.kind === 'credentials') {
      const verified = await ctx.accounts.verify(credentials.username, credentials.token, address);
      if (verified.ok) return { ok: true, username: verified.username };
      if (verified.why === 'limited') {
        const { message, retryAfterMs } = verified.refusal;
        return { ok: false, answer: (reply) => replyTooMany(reply, message, retryAfterMs) };
      }
      return { ok: false, answer: (reply) => unauthorized(reply) };
    }
    if (ctx.settings.requireAccount)
      return {
        ok: false,
        answer: (reply) =>
          unauthorized(
            reply,
            'Unauthorized. This server takes uploads only from accounts (Basic auth with a username and token).',
          ),
      };
    return { ok: true, username: undefined };
  }
  if (ctx.settings.requireAccount)
    return {
      ok: false,
      answer: (reply) =>
        unauthorized(
          reply,
          'Unauthorized. This server takes uploads only from accounts, through the current API (api_url) with Basic auth.',
        ),
    };
  return { ok: true, username: undefined };
}

/** 507 when the store is full, 503 when it failed otherwise: a sentence either way, and nothing kept. */
export function replyStorageError(reply: Reply, err: StorageError): void {
  if (err.kind === 'full')
    replyAppError(
      reply,
      'The server has no room for this upload right now (its storage is full). Nothing was kept.',
      507,
    );
  else
    replyAppError(
      reply,
      'The server cannot store uploads right now. Nothing was kept; try again later.',
      503,
      {
        'Retry-After': '30',
      },
    );
}

/** Every answer is given only after the body was consumed (up to a cap), so browsers see it rather than a reset. */
export async function handleUpload(ctx: ApiContext, up: UploadRequest): Promise<void> {
  const { req, body, reply } = up;
  const refuse = async (answer: () => void) => {
    if ((await drain(body, REFUSED_BODY_CAP)) === 'over-cap') closeAfterReply(req, up.res, body);
    answer();
  };

  const who = await whoUploads(ctx, up.variant, req, up.address);
  if (!who.ok) return refuse(() => who.answer(reply));
  const { username } = who;

  // How many, and how much.
  const now = ctx.now();
  const quota = ctx.limits.admitUpload(up.address, username, now);
  if (!quota.ok) return refuse(() => replyTooMany(reply, quota.message, quota.retryAfterMs));
  const maxUpload = ctx.settings.maxUploadBytes ?? Number.POSITIVE_INFINITY;
  const declared = declaredLength(req);
  if (declared !== undefined && declared > maxUpload + FORM_OVERHEAD_ALLOWANCE)
    return refuse(() => replyAppError(reply, tooLargeMessage(maxUpload), 413));
  const { quotas } = ctx;
  if (quotas.enabled && declared !== undefined) {
    // A declared size that cannot fit is refused before a byte is read; nothing is reserved yet.
    const left = await quotas.check(up.address, username, Math.max(0, declared - FORM_OVERHEAD_ALLOWANCE));
    if (!left.ok) return refuse(() => replyTooMany(reply, left.message, left.retryAfterMs));
  }

  // Fields may come after the file part; the cipher starts with what is known when the file begins and
  // is corrected afterwards if later fields changed the picture (rare: clients send fields first).
  let speculation = null as Speculation | null;
  let refusal: QuotaRefusal | undefined;
  const { blobs } = ctx.uploads.storage;
  const received = await receiveUpload<string>(body, req.headers, {
    maxBytes: maxUpload,
    openFile(fieldsSoFar): FileSink<string> {
      const early = bindUploadParams(fieldsSoFar);
      let transform: Transform = new PassThrough();
      if (early.encrypt) {
        const key = early.key ?? randomText(KEY_CHARS);
        const iv = early.iv ?? randomText(IV_CHARS);
        if (!cipherProblem(key, iv)) {
          speculation = { key, iv };
          transform = ctrTransform(key, iv);
        }
      }
      const blobId = ctx.uploads.newBlobId();
      const done = blobs.put(blobId, transform).then(() => blobId);
      if (!quotas.enabled) return { input: transform, done };
      // The file's bytes reach the cipher and the store only once the quotas took them.
      const gate = quotaGate(async (bytes) => {
        const reserved = await quotas.reserve(up.address, username, bytes);
        return reserved.ok ? { ok: true } : reserved;
      });
      gate.once('error', (err) => {
        if (err instanceof QuotaRefusal) refusal = err;
        transform.destroy(err);
      });
      gate.pipe(transform);
      return { input: gate, done };
    },
    discard: (blobId) => blobs.delete(blobId),
  });
  if (received.aborted) return;
  if (received.tooLarge) return replyAppError(reply, tooLargeMessage(maxUpload), 413);
  if (refusal) return replyTooMany(reply, refusal.admission.message, refusal.admission.retryAfterMs);
  if (isStorageError(received.storeError)) return replyStorageError(reply, received.storeError);
  if (received.storeError) throw received.storeError;
  if (received.formProblem) return replyAppError(reply, received.formProblem, 400);
  const file = received.file;
  if (!file) return replyAppError(reply, 'Invalid Upload Request');

  await finishUpload(ctx, {
    variant: up.variant,
    reply,
    links: up.links,
    address: up.address,
    username,
    form: bindForm(received.fields),
    file: { blobId: file.stored, size: file.size, filename: file.filename, mimeType: file.mimeType },
    speculation,
    dntHeader: req.headers.dnt === '1',
    httpVersion: req.httpVersion,
  });
}

/** Stored bytes that are to become an upload: everything `finishUpload` needs besides the form. */
export interface ReceivedBytes {
  blobId: string;
  size: number;
  /** The file name as sent (the file part's filename, or the parts' `fileName` field). */
  filename: string;
  /** The type the bytes came with, used when the form has no `contentType`. */
  mimeType: string;
}

export interface FinishInput {
  variant: Variant;
  reply: Reply;
  links: Links;
  address: string;
  username: string | undefined;
  form: BoundForm;
  file: ReceivedBytes;
  /** What the cipher was set up with while the bytes arrived (null: stored as sent). */
  speculation: Speculation | null;
  dntHeader: boolean;
  httpVersion: string;
}

/**
 * Makes stored bytes an upload: checks the bound form, records and answers, as
 * every way in (one request, or parts) must do alike. Any failure removes the bytes. Resolves with
 * whether the upload was made (its answer sent), not refused.
 */
export async function finishUpload(ctx: ApiContext, input: FinishInput): Promise<boolean> {
  const { file, reply } = input;
  const { blobs } = ctx.uploads.storage;
  let blobId = file.blobId;
  try {
    const { params } = input.form;
    const formatProblem = linkFormatProblem(params, file.size);
    if (formatProblem) {
      await blobs.delete(blobId);
      replyAppError(reply, formatProblem, 400);
      return false;
    }
    const spec = input.speculation;
    let key = params.key ?? null;
    let iv = params.iv ?? null;
    if (params.encrypt) {
      // A key/IV generated at the start of the file part is the generated key/IV of this upload.
      key ??= spec?.key ?? randomText(KEY_CHARS);
      iv ??= spec?.iv ?? randomText(IV_CHARS);
      const problem = cipherProblem(key, iv);
      if (problem) {
        await blobs.delete(blobId);
        replyAppError(reply, `Exception: ${problem}`);
        return false;
      }
    }
    const wanted = params.encrypt ? { key: key!, iv: iv! } : null;
    if (spec?.key !== wanted?.key || spec?.iv !== wanted?.iv)
      blobId = await recipher(ctx, blobId, spec, wanted);

    const saved = params.saveKey && key !== null;
    const createdAt = ctx.now();
    const expiry =
      input.variant === 'legacy'
        ? computeExpiry(input.form.expiry, createdAt)
        : { maxDownloads: 0, expirationDate: null, expiresAt: null };
    // The server's own maximum age, when it has one, shortens whatever was asked for.
    const cap = ctx.settings.maxAgeMs > 0 ? createdAt + ctx.settings.maxAgeMs : null;
    if (cap !== null && (expiry.expiresAt === null || cap < expiry.expiresAt)) {
      expiry.expiresAt = cap;
      expiry.expirationDate = input.variant === 'legacy' ? isoWithOffset(new Date(cap)) : null;
    }
    const record: UploadRecord = await ctx.uploads.create(
      {
        blobId,
        contentType: params.contentType ?? (file.mimeType || 'application/octet-stream'),
        contentLength: file.size,
        key: saved ? key : null,
        iv,
        saved,
        deletionKey: params.genDeletionKey ? randomText(DELETION_KEY_CHARS) : '',
        ...(input.username !== undefined ? { username: input.username } : {}),
        maxDownloads: expiry.maxDownloads,
        downloads: 0,
        expirationDate: expiry.expirationDate,
        expiresAt: expiry.expiresAt,
        variant: input.variant,
        originalName: file.filename,
        doNotTrack: input.variant === 'current' && params.doNotTrack,
        dntHeader: input.dntHeader,
        encrypted: params.encrypt,
        httpVersion: input.httpVersion,
        createdAt,
        ...(params.linkFormat !== undefined ? { linkFormat: params.linkFormat as 'ece1' } : {}),
      },
      fileExtension(file.filename),
    );

    // The key travels in the fragment only when the server does not keep it (teknik.md §3.3, §4).
    const link = fileLink(input.links, input.variant, record.fileName);
    const result: UploadResult = {
      url: key !== null && !saved ? `${link}#${key}` : link,
      fileName: record.fileName,
      contentType: record.contentType,
      contentLength: record.contentLength,
      key,
      keySize: params.keySize,
      iv,
      blockSize: params.blockSize,
    };
    if (input.variant === 'legacy') {
      result.maxDownloads = record.maxDownloads;
      result.expirationDate = record.expirationDate;
    }
    result.deletionKey = record.deletionKey;
    replyJson(reply, 200, { result });
    return true;
  } catch (err) {
    await blobs.delete(blobId).catch(() => {});
    if (!isStorageError(err)) throw err;
    replyStorageError(reply, err);
    return false;
  }
}

/** The smallest file in the ece1 format: its 21-byte header and one record of 17 bytes (an empty file). */
const ECE1_MIN_BYTES = 21 + 17;

/**
 * Why a `linkFormat` field cannot be taken, or undefined. An ece1 file is already encrypted by the
 * client, so the server may not encrypt it again or be handed a key, and it has at least a header.
 */
export function linkFormatProblem(params: UploadParams, size: number): string | undefined {
  if (params.linkFormat === undefined) return undefined;
  if (!isLinkFormat(params.linkFormat))
    return `Unknown linkFormat "${params.linkFormat.slice(0, 40)}": this server knows ece1.`;
  if (params.encrypt || params.key !== undefined || params.iv !== undefined)
    return 'A file in the ece1 link format is encrypted by the client: send encrypt=false and no key or iv.';
  if (size < ECE1_MIN_BYTES) return 'The file is too short to be in the ece1 link format.';
  return undefined;
}

// What the cipher was set up with when the file part began, before later fields were known.
export interface Speculation {
  key: string;
  iv: string;
}

/**
 * The bytes of `blobId` re-encrypted from `from` (or plain) to `to` (or plain): in place where the store
 * can (disk: no room for a second copy is needed, so an upload fits whenever its size does), else as a new
 * blob. Resolves with the blob that holds them.
 */
async function recipher(
  ctx: ApiContext,
  blobId: string,
  from: Speculation | null,
  to: Speculation | null,
): Promise<string> {
  const { blobs } = ctx.uploads.storage;
  const undo: Transform = from ? ctrTransform(from.key, from.iv) : new PassThrough();
  const redo: Transform = to ? ctrTransform(to.key, to.iv) : new PassThrough();
  if (blobs.rewrite) {
    await blobs.rewrite(blobId, [undo, redo]);
    return blobId;
  }
  const next = ctx.uploads.newBlobId();
  const source = await blobs.get(blobId);
  const converted = new PassThrough();
  const outcomes = await Promise.allSettled([
    pipeline(source, undo, redo, converted),
    blobs.put(next, converted),
  ]);
  const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
  if (failures.length > 0) {
    await blobs.delete(next);
    // The store's own failure (full, unavailable) says what to answer; the pipe's is only its echo.
    throw failures.find((err) => isStorageError(err)) ?? failures[0];
  }
  await blobs.delete(blobId);
  return next;
}
