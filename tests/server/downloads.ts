// GET of a stored file and GET of its deletion link (teknik.md §6, §7).

import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sameText } from './auth';
import { cipherProblem, ctrTransform } from './cipher';
import { replyDownloadPage, servesPage } from './download-page';
import { directReply, escapeHtml, replyHtml, replyNotFound } from './responses';
import type { StoredRecord, UploadStore } from './store';
import type { DeletionMode } from './types';

export interface DownloadContext {
  store: UploadStore;
  now: () => number;
  /** Set (to the DownloadData address) when GETs of unsaved-key uploads get Teknik's download page. */
  downloadPage?: string;
  /** How deletion links answer (default 'teknik'). */
  deletion?: DeletionMode;
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
function decrypts(record: StoredRecord): boolean {
  return record.key !== null && record.iv !== null;
}

export async function handleDownload(
  ctx: DownloadContext,
  req: IncomingMessage,
  res: ServerResponse,
  fileName: string,
): Promise<void> {
  const record = await ctx.store.live(fileName, ctx.now());
  if (!record) {
    replyNotFound(directReply(res));
    return;
  }
  if (decrypts(record) && cipherProblem(record.key!, record.iv!)) {
    // A client-sent key the cipher cannot use; the real server threw here.
    replyHtml(directReply(res), 500, 'Error', '<h1>500 — Unable to decrypt the file</h1>');
    return;
  }
  // Each GET counts as a download, ranged or not; HEAD does not.
  if (req.method === 'GET') record.downloads += 1;
  if (ctx.downloadPage && servesPage(record)) {
    replyDownloadPage(res, record, ctx.downloadPage);
    return;
  }

  const size = record.contentLength;
  const range = parseRange(req.headers.range, size);
  const headers: Record<string, string> = {
    // A client-chosen type that is not a valid header value is served as plain bytes instead of failing.
    'Content-Type': /^[\x20-\x7e]+$/.test(record.contentType)
      ? record.contentType
      : 'application/octet-stream',
    'Content-Disposition': `inline; filename="${record.fileName}"`,
    'Accept-Ranges': 'bytes',
  };
  if (range === 'bad') {
    res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}`, 'Content-Length': '0' });
    res.end();
    return;
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  headers['Content-Length'] = String(Math.max(0, end - start + 1));
  if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  res.writeHead(range ? 206 : 200, headers);
  if (req.method === 'HEAD' || size === 0) {
    res.end();
    return;
  }
  const plain = decrypts(record) ? ctrTransform(record.key!, record.iv!, start) : new PassThrough();
  try {
    await pipeline(createReadStream(record.path, { start, end }), plain, res);
  } catch {
    // The client went away, or the file was deleted meanwhile; nothing more can be said to it.
    res.destroy();
  }
}

export async function handleDelete(
  ctx: DownloadContext,
  res: ServerResponse,
  fileName: string,
  deletionKey: string,
): Promise<void> {
  const reply = directReply(res);
  const record = await ctx.store.live(fileName, ctx.now());
  if (!record) {
    replyNotFound(reply);
    return;
  }
  const name = escapeHtml(fileName);
  const mode = ctx.deletion ?? 'teknik';
  // Uploads without a deletion key ('') can never be deleted by link.
  const allowed = record.deletionKey !== '' && sameText(deletionKey, record.deletionKey);
  if (allowed && mode !== 'keeps-file') await ctx.store.remove(fileName);
  if (mode === 'other-wording') {
    reply(
      200,
      { 'Content-Type': 'text/plain; charset=utf-8' },
      Buffer.from(allowed ? 'File deleted' : 'Wrong deletion key'),
    );
  } else if (allowed) {
    replyHtml(reply, 200, 'File Deleted', `<h1>The file ${name} has been Deleted.</h1>`);
  } else {
    replyHtml(reply, 200, 'Unable to Delete', `<h1>The file ${name} was unable to be Deleted.</h1>`);
  }
}
