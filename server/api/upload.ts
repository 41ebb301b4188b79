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
import type { UploadRecord, Variant } from '../uploads/record';
import { cipherProblem, ctrTransform } from './cipher';
import type { ApiContext } from './context';
import { bindExpiry, computeExpiry, isoWithOffset } from './expiry';
import { bindUploadParams, fileExtension } from './fields';
import { type FileSink, FORM_OVERHEAD_ALLOWANCE, receiveUpload } from './multipart';

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

function unauthorized(reply: Reply, message = 'Unauthorized'): void {
  replyJson(
    reply,
    401,
    { error: { type: 401, message } },
    { 'WWW-Authenticate': `Basic realm="${AUTH_REALM}"` },
  );
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

  // Who: the current variant takes Basic auth; the legacy variant has none, so it is closed when accounts are required.
  let username: string | undefined;
  if (up.variant === 'current') {
    const credentials = parseBasicAuth(req.headers.authorization);
    if (credentials.kind === 'bad') return refuse(() => unauthorized(reply));
    if (credentials.kind === 'credentials') {
      const verified = await ctx.accounts.verify(credentials.username, credentials.token);
      if (verified === null) return refuse(() => unauthorized(reply));
      username = verified;
    } else if (ctx.settings.requireAccount) {
      return refuse(() =>
        unauthorized(
          reply,
          'Unauthorized. This server takes uploads only from accounts (Basic auth with a username and token).',
        ),
      );
    }
  } else if (ctx.settings.requireAccount) {
    return refuse(() =>
      unauthorized(
        reply,
        'Unauthorized. This server takes uploads only from accounts, through the current API (api_url) with Basic auth.',
      ),
    );
  }

  // How many, and how much.
  const now = ctx.now();
  const quota = ctx.limits.admitUpload(up.address, username, now);
  if (!quota.ok) return refuse(() => replyTooMany(reply, quota.message, quota.retryAfterMs));
  const maxUpload = ctx.settings.maxUploadBytes ?? Number.POSITIVE_INFINITY;
  const declared = declaredLength(req);
  if (declared !== undefined && declared > maxUpload + FORM_OVERHEAD_ALLOWANCE)
    return refuse(() => replyAppError(reply, tooLargeMessage(maxUpload), 413));
  const byteBudget = ctx.limits.uploadBytesLeft(up.address, username, now);
  if (declared !== undefined && declared > byteBudget.bytes + FORM_OVERHEAD_ALLOWANCE)
    return refuse(() => replyTooMany(reply, byteBudget.message, byteBudget.retryAfterMs(declared)));

  // Fields may come after the file part; the cipher starts with what is known when the file begins and
  // is corrected afterwards if later fields changed the picture (rare: clients send fields first).
  let speculation: Speculation | null = null;
  const { blobs } = ctx.uploads.storage;
  const received = await receiveUpload<string>(body, req.headers, {
    maxBytes: Math.min(maxUpload, byteBudget.bytes),
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
      return { input: transform, done: blobs.put(blobId, transform).then(() => blobId) };
    },
    discard: (blobId) => blobs.delete(blobId),
  });
  if (received.aborted) return;
  if (received.tooLarge) {
    if (received.fileBytes > maxUpload) return replyAppError(reply, tooLargeMessage(maxUpload), 413);
    return replyTooMany(reply, byteBudget.message, byteBudget.retryAfterMs(received.fileBytes));
  }
  if (isStorageError(received.storeError)) return replyStorageError(reply, received.storeError);
  if (received.storeError) throw received.storeError;
  if (received.formProblem) return replyAppError(reply, received.formProblem, 400);
  const file = received.file;
  if (!file) return replyAppError(reply, 'Invalid Upload Request');

  let blobId = file.stored;
  try {
    const params = bindUploadParams(received.fields);
    const spec = speculation as Speculation | null;
    let key = params.key ?? null;
    let iv = params.iv ?? null;
    if (params.encrypt) {
      // A key/IV generated at the start of the file part is the generated key/IV of this upload.
      key ??= spec?.key ?? randomText(KEY_CHARS);
      iv ??= spec?.iv ?? randomText(IV_CHARS);
      const problem = cipherProblem(key, iv);
      if (problem) {
        await blobs.delete(blobId);
        return replyAppError(reply, `Exception: ${problem}`);
      }
    }
    const wanted = params.encrypt ? { key: key!, iv: iv! } : null;
    if (spec?.key !== wanted?.key || spec?.iv !== wanted?.iv)
      blobId = await recipher(ctx, blobId, spec, wanted);

    const saved = params.saveKey && key !== null;
    const createdAt = ctx.now();
    const expiry =
      up.variant === 'legacy'
        ? computeExpiry(bindExpiry(received.fields), createdAt)
        : { maxDownloads: 0, expirationDate: null, expiresAt: null };
    // The server's own maximum age, when it has one, shortens whatever was asked for.
    const cap = ctx.settings.maxAgeMs > 0 ? createdAt + ctx.settings.maxAgeMs : null;
    if (cap !== null && (expiry.expiresAt === null || cap < expiry.expiresAt)) {
      expiry.expiresAt = cap;
      expiry.expirationDate = up.variant === 'legacy' ? isoWithOffset(new Date(cap)) : null;
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
        ...(username !== undefined ? { username } : {}),
        maxDownloads: expiry.maxDownloads,
        downloads: 0,
        expirationDate: expiry.expirationDate,
        expiresAt: expiry.expiresAt,
        variant: up.variant,
        originalName: file.filename,
        doNotTrack: up.variant === 'current' && params.doNotTrack,
        dntHeader: req.headers.dnt === '1',
        encrypted: params.encrypt,
        httpVersion: req.httpVersion,
        createdAt,
      },
      fileExtension(file.filename),
    );
    ctx.limits.chargeUpload(up.address, username, file.size, ctx.now());

    // The key travels in the fragment only when the server does not keep it (teknik.md §3.3, §4).
    const link = fileLink(up.links, up.variant, record.fileName);
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
    if (up.variant === 'legacy') {
      result.maxDownloads = record.maxDownloads;
      result.expirationDate = record.expirationDate;
    }
    result.deletionKey = record.deletionKey;
    replyJson(reply, 200, { result });
  } catch (err) {
    await blobs.delete(blobId).catch(() => {});
    if (isStorageError(err)) return replyStorageError(reply, err);
    throw err;
  }
}

// What the cipher was set up with when the file part began, before later fields were known.
interface Speculation {
  key: string;
  iv: string;
}

/** Stores the bytes of `blobId` re-encrypted from `from` (or plain) to `to` (or plain) as a new blob. */
async function recipher(
  ctx: ApiContext,
  blobId: string,
  from: Speculation | null,
  to: Speculation | null,
): Promise<string> {
  const { blobs } = ctx.uploads.storage;
  const undo: Transform = from ? ctrTransform(from.key, from.iv) : new PassThrough();
  const redo: Transform = to ? ctrTransform(to.key, to.iv) : new PassThrough();
  const next = ctx.uploads.newBlobId();
  const source = await blobs.get(blobId);
  const converted = new PassThrough();
  const outcomes = await Promise.allSettled([
    pipeline(source, undo, redo, converted),
    blobs.put(next, converted),
  ]);
  const failed = outcomes.find((o) => o.status === 'rejected');
  if (failed) {
    await blobs.delete(next);
    throw failed.reason;
  }
  await blobs.delete(blobId);
  return next;
}
