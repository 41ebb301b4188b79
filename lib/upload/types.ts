import type { LinkFormat } from '../crypto/link';
import type { StreamBody } from './multipart';

/** The two dialects of the Upload API v1: `?sub=api` on the base host, or its own API host. */
export type Variant = 'legacy' | 'current';

/**
 * Who encrypts: `client` — this extension, before sending (the server never sees the key);
 * `server` — the server, with a key it makes; `none` — nobody.
 */
export type Mode = 'client' | 'server' | 'none';

/** Expiry as the seed names it (legacy variant only). */
export type ExpireUnit = 'never' | 'view' | 'minute' | 'hour' | 'day' | 'month' | 'year';

export interface ServerAddresses {
  /** Legacy variant: the single host, reached with `?sub=…`. */
  baseUrl: string;
  /** Current variant: the API host. */
  apiUrl: string;
  /** Current variant: where uploaded files are served. */
  uploadUrl: string;
}

export interface Credentials {
  username: string;
  token: string;
}

export interface UploadOptions {
  mode: Mode;
  /**
   * Client mode only: the format the file is encrypted in. Default `teknik` (what Teknik servers
   * and their download page know); `ece`, the authenticated format, for servers whose recipient
   * page opens it (the profile says which).
   */
  format?: LinkFormat;
  /** Server mode only: let the server keep the key and decrypt on download. */
  saveKey: boolean;
  genDeletionKey: boolean;
  /** Legacy variant only; default `never`. */
  expireUnit?: ExpireUnit;
  /** Legacy variant only; default 1. */
  expireLength?: number;
  /** The `DNT: 1` header (both variants) and the `doNotTrack` field (current variant only). */
  doNotTrack?: boolean;
}

export interface UploadTarget {
  variant: Variant;
  addresses: ServerAddresses;
  /** Current variant only: sent as HTTP Basic auth. */
  credentials?: Credentials;
}

/** The file as the person chose it (in client mode the body sent is its ciphertext). */
export interface FileInfo {
  name: string;
  type: string;
}

export interface UploadResult {
  /** The file's address; in server mode without a saved key it ends in `#<key>`. */
  url: string;
  fileName: string;
  contentType: string;
  contentLength: number;
  key?: string;
  keySize: number;
  iv?: string;
  blockSize: number;
  /** Legacy variant only. */
  maxDownloads?: number;
  /** Legacy variant only. */
  expirationDate?: string;
  deletionKey?: string;
}

/** The request before its body: where to send, which headers, which form fields in order. */
export interface UploadRequest {
  url: string;
  headers: Record<string, string>;
  /** Form fields in send order; the file part follows them. */
  fields: Array<[string, string]>;
  /** The form field that carries the file. */
  fileField: 'file';
  /** The file name to put on the file part (the server takes the extension from it). */
  fileName: string;
}

export interface TransportRequest {
  url: string;
  headers: Record<string, string>;
  /**
   * A form (xhrTransport, fetchTransport), a streamed multipart body (streamTransport), or the
   * form's frame alone, for a transport that makes the file's bytes itself (in a worker, so that
   * the thread feeding the network is not the one that renders: platform/upload/way-stream.ts).
   */
  body: FormData | StreamBody | FramedBody;
}

/** Everything a transport needs to write the multipart body around file bytes it makes itself. */
export interface FramedBody {
  request: UploadRequest;
  boundary: string;
  /** Bytes the file part will have (its ciphertext's size in client mode). */
  fileSize: number;
}

export interface TransportResponse {
  status: number;
  contentType: string | null;
  body: string;
}

export interface TransportOptions {
  /** Bytes of the request body sent so far, when the transport can tell. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
  /** Give up after this long without any sign of progress (see each transport). */
  timeoutMs?: number;
}

/** Sends one POST and resolves with the answer, or rejects with an UploadError. */
export type Transport = (req: TransportRequest, opts: TransportOptions) => Promise<TransportResponse>;
