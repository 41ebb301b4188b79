// Teknik's own download flow (teknik.md §6), for servers that do not hand out the bytes on GET:
// an upload whose key the server did not keep, but whose IV it knows, is answered with an HTML
// page whose inline script names the IV, the type and where to POST for the stored bytes.

import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { directReply, escapeHtml, replyAppError, replyHtml } from './responses';
import type { StoredRecord, UploadStore } from './store';

export const DOWNLOAD_DATA_PATH = '/Action/DownloadData';

/** True when a GET of this upload gets the download page rather than its bytes. */
export function servesPage(record: StoredRecord): boolean {
  return record.iv !== null && record.key === null;
}

/** JavaScript string literal in single quotes, safe inside an inline script. */
function jsString(text: string): string {
  return `'${text.replace(/[\\'<>\n\r\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;
}

export function replyDownloadPage(res: ServerResponse, record: StoredRecord, downloadDataUrl: string): void {
  const script = [
    `var encScriptSrc = '/js/cryptoworker.min.js';`,
    `var aesScriptSrc = '/js/crypto.min.js';`,
    `var downloadDataUrl = ${jsString(downloadDataUrl)};`,
    `var fileName = ${jsString(record.fileName)};`,
    `var fileType = ${jsString(record.contentType)};`,
    `var iv = ${jsString(record.iv!)};`,
    `var decrypt = true;`,
    `var chunkSize = 1024;`,
  ].join('\n');
  replyHtml(
    directReply(res),
    200,
    `Download ${escapeHtml(record.fileName)}`,
    `<h1>Downloading ${escapeHtml(record.fileName)}</h1><p>This file is decrypted in your browser.</p>\n<script>\n${script}\n</script>`,
  );
}

/** POST {upload_url}/Action/DownloadData with form field `file`: the stored bytes as they are. */
export async function handleDownloadData(
  store: UploadStore,
  now: number,
  req: IncomingMessage,
  body: Readable,
  res: ServerResponse,
): Promise<void> {
  let fileName: string | null = null;
  try {
    const form = await new Response(Readable.toWeb(body) as ReadableStream, {
      headers: { 'Content-Type': req.headers['content-type'] ?? 'application/x-www-form-urlencoded' },
    }).formData();
    const value = form.get('file');
    fileName = typeof value === 'string' ? value : null;
  } catch {
    fileName = null;
  }
  const record = fileName ? await store.live(fileName, now) : undefined;
  if (!record) {
    replyAppError(directReply(res), 'File Does Not Exist');
    return;
  }
  res.writeHead(200, {
    'Content-Type': record.contentType,
    'Content-Length': String(record.contentLength),
    'Content-Disposition': `inline; filename="${record.fileName}"`,
  });
  try {
    await pipeline(createReadStream(record.path), res);
  } catch {
    res.destroy();
  }
}
