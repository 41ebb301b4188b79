// POST …/v1/Upload for both variants: binds the form, encrypts while streaming, stores, answers.

import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AUTH_REALM, checkBasicAuth } from './auth';
import { cipherProblem, ctrTransform } from './cipher';
import { bindExpiry, computeExpiry } from './expiry';
import { bindUploadParams, fileExtension } from './fields';
import { FORM_OVERHEAD_ALLOWANCE, receiveUpload } from './multipart';
import { randomAlphanumeric } from './random';
import { drain, type Reply, replyAppError, replyJson, tooLargeMessage } from './responses';
import type { StoredRecord, UploadStore } from './store';
import type { Account, Variant } from './types';

/** Lengths of generated key, IV and deletion key (Teknik's config defaults: 256/8, 128/8, 24). */
const KEY_CHARS = 32;
const IV_CHARS = 16;
const DELETION_KEY_CHARS = 24;

export interface Links {
  baseUrl: string;
  uploadUrl: string;
}

/** Where a stored file is served, per variant (teknik.md §9 for the `?sub=u` form). */
export function fileLink(links: Links, variant: Variant, fileName: string): string {
  const name = encodeURIComponent(fileName);
  return variant === 'legacy' ? `${links.baseUrl}/${name}?sub=u` : `${links.uploadUrl}/${name}`;
}

export interface UploadContext {
  variant: Variant;
  store: UploadStore;
  links: Links;
  accounts: readonly Account[];
  maxUploadBytes: number | undefined;
  now: () => number;
  keyInEveryUrl?: boolean;
}

export function replyTooLarge(reply: Reply, maxBytes: number): void {
  replyAppError(reply, tooLargeMessage(maxBytes), 413);
}

export function replyUnauthorized(reply: Reply): void {
  replyJson(
    reply,
    401,
    { error: { type: 401, message: 'Unauthorized' } },
    { 'WWW-Authenticate': `Basic realm="${AUTH_REALM}"` },
  );
}

// What the cipher was set up with when the file part began, before later fields were known.
interface Speculation {
  key: string;
  iv: string;
}

/** Every answer is given only after the whole body was consumed, so browsers see it rather than a reset. */
export async function handleUpload(
  ctx: UploadContext,
  req: IncomingMessage,
  body: Readable,
  reply: Reply,
): Promise<void> {
  let username: string | undefined;
  if (ctx.variant === 'current') {
    const auth = checkBasicAuth(req.headers.authorization, ctx.accounts);
    if (!auth.ok) {
      await drain(body);
      replyUnauthorized(reply);
      return;
    }
    username = auth.username;
  }

  const maxBytes = ctx.maxUploadBytes ?? Number.POSITIVE_INFINITY;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + FORM_OVERHEAD_ALLOWANCE) {
    await drain(body);
    replyTooLarge(reply, maxBytes);
    return;
  }

  // Fields may come after the file part; the cipher starts with what is known when the file begins and
  // is corrected afterwards if later fields changed the picture (rare: clients send fields first).
  let speculation: Speculation | null = null;
  const received = await receiveUpload(body, req.headers, {
    partPath: () => ctx.store.partPath(),
    maxBytes,
    transformFor: (fieldsSoFar) => {
      const early = bindUploadParams(fieldsSoFar);
      if (!early.encrypt) return null;
      const key = early.key ?? randomAlphanumeric(KEY_CHARS);
      const iv = early.iv ?? randomAlphanumeric(IV_CHARS);
      if (cipherProblem(key, iv)) return null;
      speculation = { key, iv };
      return ctrTransform(key, iv);
    },
  });
  if (received.aborted) return;
  if (received.tooLarge) {
    replyTooLarge(reply, maxBytes);
    return;
  }
  const file = received.file;
  if (!file) {
    replyAppError(reply, 'Invalid Upload Request');
    return;
  }

  const params = bindUploadParams(received.fields);
  const spec = speculation as Speculation | null;
  let key = params.key ?? null;
  let iv = params.iv ?? null;
  if (params.encrypt) {
    // A key/IV generated at the start of the file part is the generated key/IV of this upload.
    key ??= spec?.key ?? randomAlphanumeric(KEY_CHARS);
    iv ??= spec?.iv ?? randomAlphanumeric(IV_CHARS);
    const problem = cipherProblem(key, iv);
    if (problem) {
      await rm(file.partPath, { force: true });
      replyAppError(reply, `Exception: ${problem}`);
      return;
    }
  }
  const wanted = params.encrypt ? { key: key!, iv: iv! } : null;
  if (spec?.key !== wanted?.key || spec?.iv !== wanted?.iv) await recipher(file.partPath, spec, wanted);

  const path = await ctx.store.keep(file.partPath);
  const fileName = ctx.store.reserveName(fileExtension(file.filename));
  const saved = params.saveKey && key !== null;
  const expiry =
    ctx.variant === 'legacy'
      ? computeExpiry(bindExpiry(received.fields), ctx.now())
      : { maxDownloads: 0, expirationDate: null, expiresAt: null };
  const record: StoredRecord = {
    fileName,
    path,
    contentType: params.contentType ?? (file.mimeType || 'application/octet-stream'),
    contentLength: file.size,
    key: saved ? key : null,
    iv,
    saved,
    deletionKey: params.genDeletionKey ? randomAlphanumeric(DELETION_KEY_CHARS) : '',
    ...(username !== undefined ? { username } : {}),
    maxDownloads: expiry.maxDownloads,
    downloads: 0,
    expirationDate: expiry.expirationDate,
    expiresAt: expiry.expiresAt,
    variant: ctx.variant,
    originalName: file.filename,
    doNotTrack: ctx.variant === 'current' && params.doNotTrack,
    dntHeader: req.headers.dnt === '1',
    encrypted: params.encrypt,
    httpVersion: req.httpVersion,
  };
  ctx.store.add(record);

  // The key travels in the fragment only when the server does not keep it (teknik.md §3.3, §4).
  const link = fileLink(ctx.links, ctx.variant, fileName);
  const result: Record<string, unknown> = {
    url: key !== null && (!saved || ctx.keyInEveryUrl) ? `${link}#${key}` : link,
    fileName,
    contentType: record.contentType,
    contentLength: record.contentLength,
    key,
    keySize: params.keySize,
    iv,
    blockSize: params.blockSize,
  };
  if (ctx.variant === 'legacy') {
    result.maxDownloads = record.maxDownloads;
    result.expirationDate = record.expirationDate;
  }
  result.deletionKey = record.deletionKey;
  replyJson(reply, 200, { result });
}

/** Rewrites stored bytes encrypted under `from` (or plain) so they are encrypted under `to` (or plain). */
async function recipher(path: string, from: Speculation | null, to: Speculation | null): Promise<void> {
  const undo: Transform = from ? ctrTransform(from.key, from.iv) : new PassThrough();
  const redo: Transform = to ? ctrTransform(to.key, to.iv) : new PassThrough();
  const next = `${path}.re`;
  await pipeline(createReadStream(path), undo, redo, createWriteStream(next));
  await rename(next, path);
}
