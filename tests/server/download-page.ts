// Teknik's own download flow (teknik.md §6), for tests of clients against servers that do not hand out the
// bytes on GET: an upload whose key the server did not keep, but whose IV it knows, is answered with an
// HTML page whose inline script names the IV, the type and where to POST for the stored bytes (the
// product's `Action/DownloadData`). An imitation of teknik.io, so it lives here and not in server/.

import type { ServerResponse } from 'node:http';
import { directReply, escapeHtml, replyHtml } from '../../server/http/responses';
import type { UploadRecord } from '../../server/uploads/record';

export { DOWNLOAD_DATA_PATH } from '../../server/api/downloads';

/** True when a GET of this upload gets the download page rather than its bytes. */
export function servesPage(record: UploadRecord): boolean {
  return record.iv !== null && record.key === null;
}

/** JavaScript string literal in single quotes, safe inside an inline script. */
function jsString(text: string): string {
  return `'${text.replace(/[\\'<>\n\r\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;
}

export function replyDownloadPage(res: ServerResponse, record: UploadRecord, downloadDataUrl: string): void {
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
