// What the recipient page needs from the server's uploads, and from its store: nothing more, so
// the page does not depend on how or where uploads are kept.
import type { Readable } from 'node:stream';

export interface RecipientUpload {
  /** The public name (the link's last segment). */
  fileName: string;
  /** The name the file part was sent with: the original file's. */
  originalName: string;
  contentType: string;
  /** Bytes stored. */
  contentLength: number;
  iv: string | null;
  /** The key the server kept, null when it kept none. */
  key: string | null;
  /** `ece1` for the authenticated format (no IV: the link's secret is all it takes). */
  linkFormat?: 'ece1';
}

export interface RecipientStore<R extends RecipientUpload> {
  /** The live upload of that name (an expired or used-up one is not), or undefined. */
  find(fileName: string): Promise<R | undefined>;
  /**
   * Counts one download of it (the bytes are about to reach a person) and gives it back with that
   * counted; undefined when it is gone or has no download left (of two racing requests, one gets it).
   */
  claimView(upload: R): Promise<R | undefined>;
  /** Its stored bytes, from the first. */
  read(upload: R): Promise<Readable>;
}

/**
 * Whether the link of an upload needs the recipient page: the server stored ciphertext but not its
 * key, so only the link's fragment opens it: the Teknik format with its IV (client mode, or server
 * encryption without saving the key), or the authenticated format. Everything else the server hands
 * out directly.
 */
export function opensInBrowser(upload: RecipientUpload): boolean {
  return upload.key === null && (upload.iv !== null || upload.linkFormat === 'ece1');
}
