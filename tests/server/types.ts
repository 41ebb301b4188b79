// Public shapes of the test server (the Hushdrop server wrapped with test-only switches). Other test suites
// code against these; keep them stable.

import type { Readable } from 'node:stream';
import type { PartsSettings, ServerSettings } from '../../server/config/settings';
import type { HushdropServer } from '../../server/server';
import type { UploadRecord } from '../../server/uploads/record';

export type Fault =
  | 'close-mid-upload'
  | 'stall'
  | 'html-500'
  | 'error-200'
  | 'too-large-413'
  /** A proxy in front of the server refuses the body: HTML 413, no limit stated (nginx's page). */
  | 'proxy-413'
  | 'malformed-json'
  /** Stores the upload as usual and starts the answer, then breaks the connection halfway through it. */
  | 'answer-then-drop'
  | 'drip';

/**
 * How deletion links answer. 'teknik' (default): Teknik's pages ("has been Deleted" / "was unable to be
 * Deleted"). 'other-wording': plain text, "File deleted" / "Wrong deletion key", both HTTP 200.
 * 'keeps-file': Teknik's success page, but the file stays and is still served.
 */
export type DeletionMode = 'teknik' | 'other-wording' | 'keeps-file';

export interface Account {
  username: string;
  token: string;
}

export interface ServerOptions {
  /** 0 or absent = a free port. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Uploads (and recorded requests) are stored under it. */
  dataDir: string;
  /** Above it → HTTP 413 with a JSON error body. */
  maxUploadBytes?: number;
  /** Basic-auth accounts for the current variant. */
  accounts?: Account[];
  /** Keep every request received (see RecordedRequest). */
  record?: boolean;
  /** Clock in ms, injectable for expiry tests (default Date.now). */
  now?: () => number;
  /** For the 'drip' fault (default 20). */
  dripIntervalMs?: number;
  /**
   * Behave like teknik.io for uploads whose key it did not keep but whose IV it knows: a GET
   * gets the HTML download page, and the bytes come from POST {upload_url}/Action/DownloadData.
   */
  downloadPage?: boolean;
  /** How deletion links answer (default 'teknik'). */
  deletion?: DeletionMode;
  /**
   * Answer like Teknik's 2016–2018 servers: the result's url ends in `#key` whenever there is a
   * key, even one the server keeps (and so serves the file decrypted).
   */
  keyInEveryUrl?: boolean;
  /**
   * Serve HTTPS with a certificate made at start: HTTP/2 and HTTP/1.1 chosen by ALPN, or
   * HTTP/1.1 alone with `http2: false`. Absent: plain http.
   */
  tls?: { http2?: boolean };
  /**
   * Any of the product's settings (limits, timeouts, public URLs, trusted proxies, …). By default the test
   * server has no rate limits or quotas, no access log, and sweeps once an hour. `parts` may name only
   * some of its settings: the others are the defaults.
   */
  settings?: Partial<Omit<ServerSettings, 'parts'>> & { parts?: Partial<PartsSettings> };
  /**
   * Answer as a server without uploads in parts does (an older Hushdrop): its info answer lists no
   * `parts`, and everything under `…/Upload/Parts` gets 404, so a client sends one request (the tests
   * of its one-request ways).
   */
  noParts?: boolean;
  /** Told after every sweep of expired uploads. */
  onSweep?: (report: { expired: number; orphans: number; error?: unknown }) => void;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** '2.0' or '1.1': the HTTP version the request came over. */
  httpVersion: string;
  /** Raw request body bytes exactly as received, on disk. */
  bodyPath: string;
  /** Grows while the body arrives; final once the request has been answered. */
  bodyBytes: number;
}

export type { Variant } from '../../server/uploads/record';

/**
 * The server's record of an upload as the store holds it (a snapshot), with its bytes read through the
 * store, so the same test checks the disk store and the S3 store.
 */
export interface StoredUpload extends Omit<UploadRecord, 'expiresAt' | 'createdAt'> {
  /** The stored bytes (ciphertext when encrypted), whole. */
  bytes(): Promise<Buffer>;
  /** The stored bytes as a stream (for files too large to hold). */
  stream(): Promise<Readable>;
  /** Whether the store still holds the bytes (false once the upload was deleted or expired). */
  bytesStored(): Promise<boolean>;
  /** Puts other bytes in their place, as a damaged disk or a store that lost bytes would hold them. */
  replaceBytes(bytes: Uint8Array): Promise<void>;
}

/** What the store holds besides records: finished blobs, and writes still in progress. */
export interface StoredBlobs {
  /** Ids of the finished blobs, sorted. */
  blobs: string[];
  /** Writes not finished yet (disk: `.part` files; S3: open multipart uploads). */
  inProgress: number;
}

export interface ReferenceServer {
  /** http://127.0.0.1:P (legacy variant's {base_url}). */
  baseUrl: string;
  /** http://127.0.0.1:P/api (current variant's {api_url}). */
  apiUrl: string;
  /** http://127.0.0.1:P/u (current variant's {upload_url}). */
  uploadUrl: string;
  /** With `tls`: the certificate clients must trust, and nothing else. */
  tls?: {
    certificatePem: string;
    /** The same PEM on disk, under the data directory. */
    certificatePath: string;
    /** For Chromium's `--ignore-certificate-errors-spki-list`. */
    spkiSha256: string;
    /** What ALPN offers. */
    protocols: string[];
  };
  /** Only filled when record: true. */
  requests: RecordedRequest[];
  /** Applies to the upload endpoints. `once` clears it after one request. */
  setFault(fault: Fault | null, opts?: { once?: boolean }): void;
  /** The server's record of an upload and its stored bytes, read through the store; undefined without a record. */
  stored(fileName: string): Promise<StoredUpload | undefined>;
  /** Every blob in the store and every write in progress, whichever store the server uses. */
  storedBlobs(): Promise<StoredBlobs>;
  /** The product server inside (its settings, storage, sweeper). */
  hushdrop: HushdropServer;
  /** Stops at once: requests in progress are cut (use hushdrop.close for a graceful stop). */
  close(): Promise<void>;
}
