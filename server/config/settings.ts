// Everything a running server is told, resolved (times in ms). The config file and environment variables
// (load.ts) produce it for deployments; tests build it in code.

import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AccountEntry } from '../accounts/accounts';
import type { S3Settings } from '../storage/s3-config';

export interface ServerLimits {
  /** Requests per address per minute, on every route (0 = no limit). */
  requestsPerMinute: number;
  /** Uploads per hour (0 = no limit). */
  uploadsPerHourPerAddress: number;
  uploadsPerHourPerAccount: number;
  /** Upload bytes per day (0 = no limit), kept in the store: shared by every instance on it. */
  uploadBytesPerDayPerAddress: number;
  uploadBytesPerDayPerAccount: number;
  /** Failed logins (wrong Basic credentials) per minute, counted before any hashing (0 = no limit). */
  failedLoginsPerMinutePerAddress: number;
  failedLoginsPerMinutePerUsername: number;
  /** Token checks (scrypt, on libuv's thread pool, which the disk needs too) at once (0 = no bound). */
  scryptConcurrency: number;
}

export interface ServerTimeouts {
  /** Time a client has to send a request's headers. */
  headersMs: number;
  /** A client that moves fewer than slowClientMinBytes in this time while the server waits on it is cut. */
  slowClientMs: number;
  slowClientMinBytes: number;
  /** Idle keep-alive connections close after this. */
  keepAliveMs: number;
  /** At shutdown, requests in progress get this long to finish before they are cut. */
  shutdownGraceMs: number;
}

/** Uploads in parts (`…/Upload/Parts`): how they are cut, how long a session lives, how many one address keeps open. */
export interface PartsSettings {
  /** Bytes of every part but the last (at least MIN_PART_BYTES: S3's smallest part). */
  partBytes: number;
  /** A session not finished this long after its start is removed with everything it stored. */
  sessionLifetimeMs: number;
  /** Sessions one client address may have open at once; one more Start gets 429 (0 = no limit). */
  sessionsPerAddress: number;
  /**
   * A part not received whole this long after its request began is cut (408), however steadily its client
   * sends (0 = no deadline): the slow-client rule alone lets a 16 MiB part take about 17 hours.
   */
  partDeadlineMs: number;
}

export const MIB = 1024 * 1024;
/** S3 refuses parts smaller than this (but the last). */
export const MIN_PART_BYTES = 5 * MIB;

export interface ServerSettings {
  /** Listening address and port (0 = a free port). */
  host: string;
  port: number;
  /** Where the disk store keeps uploads, and the accounts file by default. */
  dataDir: string;
  /** Uploads in S3-compatible object storage (STORAGE_URL=s3://bucket/prefix) instead of dataDir. */
  s3?: S3Settings;
  /**
   * Public addresses for links. `baseUrl` alone gives the others (`/api`, `/u`); none set: the listening
   * address, or what a trusted proxy reports per request.
   */
  publicUrls: { baseUrl?: string; apiUrl?: string; uploadUrl?: string };
  /** Peers whose X-Forwarded-* headers are believed (addresses or CIDR ranges). */
  trustedProxies: string[];
  /** Above it → 413 (undefined = no limit). */
  maxUploadBytes: number | undefined;
  /** Anonymous uploads are refused (401). */
  requireAccount: boolean;
  accounts: AccountEntry[];
  accountsFile: string;
  limits: ServerLimits;
  /** Every upload expires after this at the latest (0 = no maximum). */
  maxAgeMs: number;
  sweepIntervalMs: number;
  /** Bytes without a record (left by a crash) are removed once this old. */
  orphanAgeMs: number;
  timeouts: ServerTimeouts;
  parts: PartsSettings;
  /** `stdout`, `off`, or a file path. */
  accessLog: string;
  /** Certificate and key PEM files: the server speaks HTTPS itself (HTTP/2 and HTTP/1.1 unless http2 is false). */
  tls?: { certFile: string; keyFile: string; http2: boolean };
  /** HTTP/2 streams one connection may have open at once, when the server speaks HTTPS itself. */
  maxConcurrentStreams: number;
}

export const GIB = 1024 ** 3;

/** `$XDG_DATA_HOME/hushdrop/server`, else `~/.local/share/hushdrop/server`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'hushdrop', 'server');
}

export function defaultSettings(dataDir: string): ServerSettings {
  return {
    host: '127.0.0.1',
    port: 8787,
    dataDir,
    publicUrls: {},
    trustedProxies: [],
    maxUploadBytes: undefined,
    requireAccount: false,
    accounts: [],
    accountsFile: join(dataDir, 'accounts.json'),
    limits: {
      requestsPerMinute: 600,
      uploadsPerHourPerAddress: 240,
      uploadsPerHourPerAccount: 0,
      uploadBytesPerDayPerAddress: 50 * GIB,
      uploadBytesPerDayPerAccount: 0,
      failedLoginsPerMinutePerAddress: 10,
      failedLoginsPerMinutePerUsername: 30,
      scryptConcurrency: 1,
    },
    maxAgeMs: 0,
    sweepIntervalMs: 60_000,
    orphanAgeMs: 3_600_000,
    timeouts: {
      headersMs: 20_000,
      slowClientMs: 30_000,
      slowClientMinBytes: 8 * 1024,
      keepAliveMs: 30_000,
      shutdownGraceMs: 30_000,
    },
    parts: {
      partBytes: 16 * MIB,
      sessionLifetimeMs: 3_600_000,
      sessionsPerAddress: 4,
      partDeadlineMs: 600_000,
    },
    accessLog: 'stdout',
    maxConcurrentStreams: 100,
  };
}

/** No limits at all (tests that are not about limits). */
export const NO_LIMITS: ServerLimits = {
  requestsPerMinute: 0,
  uploadsPerHourPerAddress: 0,
  uploadsPerHourPerAccount: 0,
  uploadBytesPerDayPerAddress: 0,
  uploadBytesPerDayPerAccount: 0,
  failedLoginsPerMinutePerAddress: 0,
  failedLoginsPerMinutePerUsername: 0,
  scryptConcurrency: 0,
};
