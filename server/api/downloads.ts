// GET of a stored file, POST …/Action/DownloadData (the stored bytes by name), and GET of a deletion link
// (teknik.md §6, §7). Uploads are served so that they can never act as the server's own pages: the
// uploader's type is sent with nosniff, inside a sandboxing CSP (no script, opaque origin), and as an
// attachment unless the type is one browsers only display (images, audio, video, plain text).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { closeAfterReply, readSmallBody } from '../http/body';
import {
  BASE_HEADERS,
  directReply,
  escapeHtml,
  type Reply,
  replyAppError,
  replyHtml,
  replyNotFound,
} from '../http/responses';
import { isStorageError } from '../storage/errors';
import type { UploadRecord } from '../uploads/record';
import { cipherProblem, ctrTransform } from './cipher';
import type { ApiContext } from './context';
import { sameText } from './same-text';
import { replyStorageError } from './upload';

export const DOWNLOAD_DATA_PATH = '/Action/DownloadData';
/** A DownloadData form names one file: a few hundred bytes. */
const DOWNLOAD_DATA_BODY_LIMIT = 8 * 1024;

/** For every served upload: nothing in it may load, run, or share the server's origin. */
export const UPLOAD_CSP =
  "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'";

/** Types a browser shows but never runs; everything else (HTML, SVG, XML, PDF, …) is sent as an attachment. */
const INLINE_TYPE =
  /^(image\/(png|jpeg|gif|webp|avif|bmp)|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+|text\/plain)$/;

/** The type as a header can carry it; a client-chosen type that cannot be one is served as plain bytes. */
function servedType(record: UploadRecord): string {
  return /^[\x20-\x7e]+$/.test(record.contentType) ? record.contentType : 'application/octet-stream';
}

function disposition(record: UploadRecord, type: string): string {
  const essence = type.split(';')[0]!.trim().toLowerCase();
  return `${INLINE_TYPE.test(essence) ? 'inline' : 'attachment'}; filename="${record.fileName}"`;
}

/** A single `bytes=a-b` / `bytes=a-` / `bytes=-n` range within `size`, null when absent or unusable. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'bad' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'bad';
  return { start, end };
}

/** The server decrypts on the fly only when it kept both key and IV. */
function decrypts(record: UploadRecord): boolean {
  return record.key !== null && record.iv !== null;
}

export interface ServeOptions {
  /** Decrypt with the kept key (GET of a file), or send the stored bytes as they are (DownloadData). */
  decrypt: boolean;
}

/** Streams an upload's bytes (or the requested range of them) with the headers that keep it inert. */
export async function serveUpload(
  ctx: ApiContext,
  req: IncomingMessage,
  res: ServerResponse,
  record: UploadRecord,
  options: ServeOptions,
): Promise<void> {
  const decrypt = options.decrypt && decrypts(record);
  if (decrypt && cipherProblem(record.key!, record.iv!)) {
    // A client-sent key the cipher cannot use; the real server threw here.
    replyHtml(directReply(res), 500, 'Error', '<h1>500 — Unable to decrypt the file</h1>');
    return;
  }
  const size = record.contentLength;
  const range = parseRange(req.headers.range, size);
  const type = servedType(record);
  const headers: Record<string, string> = {
    ...BASE_HEADERS,
    'Content-Type': type,
    'Content-Disposition': disposition(record, type),
    'Content-Security-Policy': UPLOAD_CSP,
    'Cache-Control': 'no-store',
    'Accept-Ranges': 'bytes',
  };
  if (range === 'bad') {
    res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}`, 'Content-Length': '0' });
    res.end();
    return;
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  if (req.method === 'HEAD' || size === 0) {
    headers['Content-Length'] = String(Math.max(0, end - start + 1));
    if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    res.writeHead(range ? 206 : 200, headers);
    res.end();
    return;
  }
  let source: Readable;
  try {
    source = await ctx.uploads.storage.blobs.get(record.blobId, { start, end });
  } catch (err) {
    if (isStorageError(err, 'not-found')) return replyNotFound(directReply(res));
    if (isStorageError(err)) return replyStorageError(directReply(res), err);
    throw err;
  }
  headers['Content-Length'] = String(end - start + 1);
  if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  res.writeHead(range ? 206 : 200, headers);
  const plain = decrypt ? ctrTransform(record.key!, record.iv!, start) : new PassThrough();
  try {
    await pipeline(source, plain, res);
  } catch {
    // The client went away, or the store failed mid-way; nothing more can be said to it.
    res.destroy();
  }
}

/** GET (counts a view) or HEAD (does not) of `{upload_url}/<name>`. */
export async function handleDownload(
  ctx: ApiContext,
  req: IncomingMessage,
  res: ServerResponse,
  fileName: string,
): Promise<void> {
  const record =
    req.method === 'GET'
      ? await ctx.uploads.claimView(fileName).then((claim) => (claim.ok ? claim.record : null))
      : await ctx.uploads.find(fileName);
  if (!record) return replyNotFound(directReply(res));
  await serveUpload(ctx, req, res, record, { decrypt: true });
}

/**
 * POST {upload_url}/Action/DownloadData with the form field `file` (urlencoded or multipart, at most 8 KiB):
 * the stored bytes as they are, the way Teknik's download page fetched them. It counts a view.
 */
export async function handleDownloadData(
  ctx: ApiContext,
  req: IncomingMessage,
  res: ServerResponse,
  body: Readable,
): Promise<void> {
  const reply = directReply(res);
  const small = await readSmallBody(req, body, DOWNLOAD_DATA_BODY_LIMIT);
  if (!small.ok) {
    if (small.why === 'gone') return;
    closeAfterReply(req, res, body);
    return replyAppError(
      reply,
      'The request is too large: DownloadData takes a form with the field "file".',
      413,
    );
  }
  let fileName: string | null = null;
  try {
    const form = await new Response(new Uint8Array(small.bytes), {
      headers: { 'Content-Type': req.headers['content-type'] ?? 'application/x-www-form-urlencoded' },
    }).formData();
    const value = form.get('file');
    fileName = typeof value === 'string' ? value : null;
  } catch {
    fileName = null;
  }
  const claim = fileName ? await ctx.uploads.claimView(fileName) : { ok: false as const };
  if (!claim.ok) return replyAppError(reply, 'File Does Not Exist');
  await serveUpload(ctx, req, res, claim.record, { decrypt: false });
}

/** What a deletion link finds: no such upload, or the upload and whether the key is its deletion key. */
export type DeletionCheck = { found: false } | { found: true; record: UploadRecord; allowed: boolean };

export async function checkDeletion(
  ctx: ApiContext,
  fileName: string,
  deletionKey: string,
): Promise<DeletionCheck> {
  const record = await ctx.uploads.find(fileName);
  if (!record) return { found: false };
  // Uploads without a deletion key ('') can never be deleted by link.
  const allowed = record.deletionKey !== '' && sameText(deletionKey, record.deletionKey);
  return { found: true, record, allowed };
}

/** GET of a deletion link: deletes with the right key, and answers with Teknik's pages. */
export async function handleDelete(
  ctx: ApiContext,
  res: ServerResponse,
  fileName: string,
  deletionKey: string,
): Promise<void> {
  const check = await checkDeletion(ctx, fileName, deletionKey);
  if (!check.found) return replyNotFound(directReply(res));
  if (check.allowed) await ctx.uploads.remove(check.record);
  replyDeletionPage(directReply(res), fileName, check.allowed);
}

/** Teknik's answer to a deletion link, in its words. */
export function replyDeletionPage(reply: Reply, fileName: string, deleted: boolean): void {
  const name = escapeHtml(fileName);
  if (deleted) replyHtml(reply, 200, 'File Deleted', `<h1>The file ${name} has been Deleted.</h1>`);
  else replyHtml(reply, 200, 'Unable to Delete', `<h1>The file ${name} was unable to be Deleted.</h1>`);
}
