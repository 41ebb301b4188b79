// The answers the server gives: JSON results and errors, HTML pages, and the headers every answer carries.

import type { ServerResponse } from 'node:http';

/** Writes a whole response; the default is one write (tests may swap in a slow one). */
export type Reply = (status: number, headers: Record<string, string>, body: Buffer) => void;

/**
 * On every answer: no type sniffing (an upload is never read as something else), no Referer leaving a page
 * of ours. The server's own pages (HTML errors, deletion pages) additionally get PAGE_HEADERS.
 */
export const BASE_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** The server's own HTML: nothing may load or run in it, and no one may frame it. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

export function directReply(res: ServerResponse): Reply {
  return (status, headers, body) => {
    if (res.destroyed || res.headersSent) return;
    res.writeHead(status, { ...BASE_HEADERS, ...headers, 'Content-Length': String(body.length) });
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
): void {
  reply(status, { 'Content-Type': JSON_TYPE, ...headers }, jsonBody(value));
}

/** The API's error shape, `{"error":{"message":…}}`; the real API sent application errors with HTTP 200. */
export function replyAppError(
  reply: Reply,
  message: string,
  status = 200,
  headers: Record<string, string> = {},
): void {
  replyJson(reply, status, { error: { message } }, headers);
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
  reply(status, { 'Content-Type': HTML_TYPE, ...PAGE_HEADERS }, htmlPage(title, bodyHtml));
}

export function replyNotFound(reply: Reply): void {
  replyHtml(
    reply,
    404,
    'Page Not Found',
    '<h1>404 — Page Not Found</h1><p>The requested file does not exist.</p>',
  );
}

/** A wait as a person reads it: seconds up to two minutes, minutes up to two hours, then hours (rounded up). */
function waitInWords(seconds: number): string {
  const [count, unit] =
    seconds < 120
      ? [seconds, 'second']
      : seconds < 7200
        ? [Math.ceil(seconds / 60), 'minute']
        : [Math.ceil(seconds / 3600), 'hour'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** 429 with Retry-After in whole seconds (at least 1), and a sentence saying when to try again. */
export function replyTooMany(reply: Reply, message: string, retryAfterMs: number): void {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  replyAppError(reply, `${message} Try again in ${waitInWords(seconds)}.`, 429, {
    'Retry-After': String(seconds),
  });
}

/**
 * Sizes in binary units with up to three decimals, as Teknik's StringHelper.GetBytesReadable
 * counted them, but named as IEC units (`512 B`, `1.5 KiB`, `1 GiB`): the extension says "5 MiB"
 * for the same limit, and a person should not meet two names for one size. Clients that read the
 * limit from this sentence take both spellings (lib/upload/limit.ts).
 */
export function bytesReadable(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
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
