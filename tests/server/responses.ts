// Small helpers for the answers the server gives: JSON results and errors, HTML pages, draining bodies.

import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

/** Writes a whole response; the default is one write, the 'drip' fault swaps in a slow one. */
export type Reply = (status: number, headers: Record<string, string>, body: Buffer) => void;

export function directReply(res: ServerResponse): Reply {
  return (status, headers, body) => {
    if (res.destroyed) return;
    res.writeHead(status, { ...headers, 'Content-Length': String(body.length) });
    res.end(body);
  };
}

export const JSON_TYPE = 'application/json; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';

export function jsonBody(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

export function replyJson(
  reply: Reply,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
) {
  reply(status, { 'Content-Type': JSON_TYPE, ...headers }, jsonBody(value));
}

/** The real API's application error: HTTP 200 with `{"error":{"message":…}}` (teknik.md §8). */
export function replyAppError(reply: Reply, message: string, status = 200): void {
  replyJson(reply, status, { error: { message } });
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function htmlPage(title: string, bodyHtml: string): Buffer {
  return Buffer.from(
    `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body>${bodyHtml}</body></html>\n`,
    'utf8',
  );
}

export function replyHtml(reply: Reply, status: number, title: string, bodyHtml: string): void {
  reply(status, { 'Content-Type': HTML_TYPE }, htmlPage(title, bodyHtml));
}

export function replyNotFound(reply: Reply): void {
  replyHtml(
    reply,
    404,
    'Page Not Found',
    '<h1>404 — Page Not Found</h1><p>The requested file does not exist.</p>',
  );
}

/**
 * Sizes in binary units with up to three decimals, like Teknik's StringHelper.GetBytesReadable
 * (e.g. `512 B`, `1.5 KB`, `1 GB`).
 */
export function bytesReadable(bytes: number): string {
  const units = ['KB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes;
  let unit = 'B';
  for (const next of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  return `${Number(value.toFixed(3))} ${unit}`;
}

export function tooLargeMessage(maxBytes: number): string {
  return `File Too Large.  Max file size is ${bytesReadable(maxBytes)}`;
}

/** Reads and discards the rest of a body; resolves when it ended or the connection went away. */
export function drain(body: Readable): Promise<void> {
  return new Promise((resolve) => {
    if (body.readableEnded || body.destroyed) {
      resolve();
      return;
    }
    body.once('end', () => resolve());
    body.once('close', () => resolve());
    body.once('error', () => resolve());
    body.resume();
  });
}
