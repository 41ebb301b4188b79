// Everything a running server is told, resolved (times in ms). The config file and environment variables
// (load.ts) produce it for deployments; tests build it in code.

import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AccountEntry } from '../accounts/accounts';
import type { S3Settings } from '../storage/s3-config';
import { type ConfigFile, configSchema, TLS_DEFAULTS } from './schema';

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
  /** `GET /_hushdrop/metrics` (Prometheus text) answers requests with `Authorization: Bearer <token>`; absent: off. */
  metrics?: { token: string };
  /** Certificate and key PEM files: the server speaks HTTPS itself (HTTP/2 and HTTP/1.1 unless http2 is false). */
  tls?: { certFile: string; keyFile: string; http2: boolean };
  /** Streams an HTTP/2 connection may have open at once (more are refused). */
  maxConcurrentStreams: number;
}

export const GIB = 1024 ** 3;

/** `$XDG_DATA_HOME/hushdrop/server`, else `~/.local/share/hushdrop/server`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'hushdrop', 'server');
}

const SECOND = 1000;
const DAY_MS = 86_400_000;

/** What a config file gives that the schema cannot know: where relative paths lead, and the S3 and TLS settings made from its keys. */
export interface Resolved {
  dataDir: string;
  /** Absent: `<dataDir>/accounts.json`. */
  accountsFile?: string;
  accessLog?: string;
  s3?: S3Settings;
  tls?: ServerSettings['tls'];
}

/** The settings of a config the schema has read (its defaults filled in), in the server's units. */
export function settingsFrom(c: ConfigFile, where: Resolved): ServerSettings {
  return {
    host: c.host,
    port: c.port,
    dataDir: where.dataDir,
    ...(where.s3 ? { s3: where.s3 } : {}),
    publicUrls: {
      ...(c.publicUrl ? { baseUrl: c.publicUrl } : {}),
      ...(c.apiUrl ? { apiUrl: c.apiUrl } : {}),
      ...(c.uploadUrl ? { uploadUrl: c.uploadUrl } : {}),
    },
    trustedProxies: c.trustedProxies,
    maxUploadBytes: c.maxUploadBytes || undefined,
    requireAccount: c.requireAccount,
    accounts: c.accounts,
    accountsFile: where.accountsFile ?? join(where.dataDir, 'accounts.json'),
    limits: { ...c.limits },
    maxAgeMs: c.expiry.maxAgeDays * DAY_MS,
    sweepIntervalMs: Math.max(1, c.expiry.sweepIntervalSeconds) * SECOND,
    orphanAgeMs: 3_600_000,
    timeouts: {
      headersMs: Math.max(1, c.timeouts.headersSeconds) * SECOND,
      slowClientMs: c.timeouts.slowClientSeconds * SECOND,
      slowClientMinBytes: c.timeouts.slowClientMinBytes,
      keepAliveMs: c.timeouts.keepAliveSeconds * SECOND,
      shutdownGraceMs: c.timeouts.shutdownGraceSeconds * SECOND,
    },
    parts: {
      partBytes: c.parts.partSizeMiB * MIB,
      sessionLifetimeMs: Math.max(1, c.parts.sessionMinutes) * 60 * SECOND,
      sessionsPerAddress: c.parts.sessionsPerAddress,
      partDeadlineMs: c.parts.partDeadlineSeconds * SECOND,
    },
    accessLog: where.accessLog ?? c.accessLog,
    ...(c.metrics?.token ? { metrics: { token: c.metrics.token } } : {}),
    ...(where.tls ? { tls: where.tls } : {}),
    maxConcurrentStreams: c.tls?.maxConcurrentStreams ?? TLS_DEFAULTS.maxConcurrentStreams,
  };
}

/** The schema's defaults (an empty config file), with the data folder given. */
export function defaultSettings(dataDir: string): ServerSettings {
  return settingsFrom(configSchema.parse({}), { dataDir });
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
