// A file of the recipient page or the home page (the upload page) as the server serves it: its bytes, its type and an ETag.
import { createHash } from 'node:crypto';

export interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

export interface RecipientBuild {
  /** The files by name: `recipient.js`, `sw.js`, `home.js`, `parts-worker.js`, `recipient.css`, `icon.png`. */
  files: Map<string, Asset>;
  /** Every source file bundled, relative to the project (from node_modules: the home page's QR encoder, uqr, only). */
  inputs: string[];
}

/** The page's files, each with its type. */
export const RECIPIENT_FILES = {
  'recipient.js': 'text/javascript; charset=utf-8',
  'sw.js': 'text/javascript; charset=utf-8',
  'home.js': 'text/javascript; charset=utf-8',
  'parts-worker.js': 'text/javascript; charset=utf-8',
  'recipient.css': 'text/css; charset=utf-8',
  'icon.png': 'image/png',
} as const;

export type RecipientFileName = keyof typeof RECIPIENT_FILES;

export function asset(name: RecipientFileName, body: Buffer): Asset {
  return {
    body,
    type: RECIPIENT_FILES[name],
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
  };
}
