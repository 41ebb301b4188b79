// The deployment's settings: defaults, then the config file (CONFIG, JSON), then environment variables,
// which win. Every mistake is a ConfigError with a sentence that names the key or variable; unknown keys
// are mistakes too, so a typo never silently falls back to a default.

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type AccountEntry, checkUsername } from '../accounts/accounts';
import { checkTokenHash } from '../accounts/tokens';
import { ProxyListError, proxyList } from '../http/client';
import { S3ConfigError, type S3Settings, s3Settings } from '../storage/s3-config';
import { defaultDataDir, defaultSettings, MIB, MIN_PART_BYTES, type ServerSettings } from './settings';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Refuses parts smaller than S3 takes. Settings from the config file are checked as they are read,
 * and startServer checks the settings it is given, however they were made (tests build them in code).
 */
export function checkPartBytes(partBytes: number): void {
  if (!(partBytes >= MIN_PART_BYTES))
    throw new ConfigError(`parts.partSizeMiB must be at least ${MIN_PART_BYTES / MIB} (S3's smallest part).`);
}

type Json = Record<string, unknown>;

const DAY_MS = 86_400_000;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function onlyKeys(obj: Json, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key))
      throw new ConfigError(`${where}: unknown key "${key}" (known: ${allowed.join(', ')}).`);
  }
}

function count(value: unknown, name: string, max = Number.MAX_SAFE_INTEGER): number {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0 || n > max)
    throw new ConfigError(`${name} must be a whole number from 0 to ${max}, not ${JSON.stringify(value)}.`);
  return n;
}

function text(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new ConfigError(`${name} must be a non-empty text, not ${JSON.stringify(value)}.`);
  return value.trim();
}

function flag(value: unknown, name: string): boolean {
  if (typeof value === 'boolean') return value;
  const t = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (['1', 'true', 'yes', 'on'].includes(t)) return true;
  if (['0', 'false', 'no', 'off'].includes(t)) return false;
  throw new ConfigError(`${name} must be true or false, not ${JSON.stringify(value)}.`);
}

/** An absolute http(s) URL without query or fragment, with no trailing slash. */
function publicUrl(value: unknown, name: string): string {
  const raw = text(value, name);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute URL like https://drop.example.org, not "${raw}".`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash || url.username)
    throw new ConfigError(
      `${name} must be an http or https URL without user, query or fragment, not "${raw}".`,
    );
  return url.href.replace(/\/+$/, '');
}

function proxies(value: unknown, name: string): string[] {
  const list =
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : value;
  if (!Array.isArray(list) || !list.every((s) => typeof s === 'string'))
    throw new ConfigError(`${name} must be a list of addresses or CIDR ranges.`);
  try {
    proxyList(list);
  } catch (err) {
    if (err instanceof ProxyListError) throw new ConfigError(`${name}: ${err.message}`);
    throw err;
  }
  return list;
}

function accounts(value: unknown): AccountEntry[] {
  if (!Array.isArray(value)) throw new ConfigError('accounts must be a list of {"username", "tokenHash"}.');
  return value.map((entry, i) => {
    if (!isObject(entry)) throw new ConfigError(`accounts[${i}] must be an object.`);
    if ('token' in entry)
      throw new ConfigError(
        `accounts[${i}] holds a token in clear: accounts hold only "tokenHash" (npm run server -- hash-token).`,
      );
    onlyKeys(entry, ['username', 'tokenHash'], `accounts[${i}]`);
    const username = text(entry.username, `accounts[${i}].username`);
    const tokenHash = text(entry.tokenHash, `accounts[${i}].tokenHash`);
    try {
      checkUsername(username);
      checkTokenHash(tokenHash);
    } catch (err) {
      throw new ConfigError(`accounts[${i}]: ${(err as Error).message}`);
    }
    return { username, tokenHash };
  });
}

const TOP_KEYS = [
  'host',
  'port',
  'dataDir',
  'storageUrl',
  's3',
  'publicUrl',
  'apiUrl',
  'uploadUrl',
  'trustedProxies',
  'maxUploadBytes',
  'requireAccount',
  'accounts',
  'accountsFile',
  'limits',
  'expiry',
  'timeouts',
  'parts',
  'accessLog',
  'tls',
] as const;
const LIMIT_KEYS = [
  'requestsPerMinute',
  'uploadsPerHourPerAddress',
  'uploadsPerHourPerAccount',
  'uploadBytesPerDayPerAddress',
  'uploadBytesPerDayPerAccount',
  'failedLoginsPerMinutePerAddress',
  'failedLoginsPerMinutePerUsername',
  'scryptConcurrency',
] as const;
const EXPIRY_KEYS = ['maxAgeDays', 'sweepIntervalSeconds'] as const;
const TIMEOUT_KEYS = [
  'headersSeconds',
  'slowClientSeconds',
  'slowClientMinBytes',
  'keepAliveSeconds',
  'shutdownGraceSeconds',
] as const;

const PARTS_KEYS = ['partSizeMiB', 'sessionMinutes', 'sessionsPerAddress', 'partDeadlineSeconds'] as const;

const S3_KEYS = ['endpoint', 'region', 'partSizeMiB', 'partsInFlight', 'timeoutSeconds'] as const;

/**
 * The S3 store's settings: the URL, the config file's "s3" object, and the SDK's own variables, which win
 * (AWS_ENDPOINT_URL_S3, AWS_REGION, …). Credentials come only from the environment or the SDK's chain
 * (~/.aws, instance roles), never from the config file, which is often kept in a repository.
 */
function objectStorage(url: string, fileS3: unknown, env: NodeJS.ProcessEnv): S3Settings {
  if (fileS3 !== undefined && !isObject(fileS3))
    throw new ConfigError('"s3" in the config file must be an object.');
  if (fileS3) onlyKeys(fileS3, S3_KEYS, '"s3" in the config file');
  const fromFile: Record<string, string | undefined> = {};
  if (fileS3?.endpoint !== undefined) fromFile.AWS_ENDPOINT_URL_S3 = text(fileS3.endpoint, 's3.endpoint');
  if (fileS3?.region !== undefined) fromFile.AWS_REGION = text(fileS3.region, 's3.region');
  const overrides: Partial<S3Settings> = {};
  if (fileS3?.partSizeMiB !== undefined)
    overrides.partSize = count(fileS3.partSizeMiB, 's3.partSizeMiB', 5120) * 1024 * 1024;
  if (fileS3?.partsInFlight !== undefined)
    overrides.partsInFlight = count(fileS3.partsInFlight, 's3.partsInFlight', 64);
  if (fileS3?.timeoutSeconds !== undefined) {
    // A slow store (a busy Ceph, a far region) needs longer than the default before an upload is refused.
    const ms = count(fileS3.timeoutSeconds, 's3.timeoutSeconds', 3600) * 1000;
    overrides.requestTimeoutMs = ms;
    overrides.readIdleTimeoutMs = ms;
  }
  const sdkVars = Object.fromEntries(Object.entries(env).filter(([name, v]) => name.startsWith('AWS_') && v));
  try {
    return s3Settings(url, { ...fromFile, ...sdkVars }, overrides);
  } catch (err) {
    if (err instanceof S3ConfigError) throw new ConfigError(err.message);
    throw err;
  }
}

function readConfigFile(path: string): Json {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`The config file ${path} cannot be read: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch (err) {
    throw new ConfigError(`The config file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(json)) throw new ConfigError(`The config file ${path} must hold one JSON object.`);
  onlyKeys(json, TOP_KEYS, `The config file ${path}`);
  return json;
}

/** Environment variables the server reads (the config file's keys in capitals, for the common ones). */
export const ENV_VARS = [
  'CONFIG',
  'HOST',
  'PORT',
  'DATA_DIR',
  'STORAGE_URL',
  'PUBLIC_URL',
  'TRUSTED_PROXIES',
  'MAX_UPLOAD_BYTES',
  'REQUIRE_ACCOUNT',
  'ACCOUNTS_FILE',
  'ACCESS_LOG',
  'TLS_CERT',
  'TLS_KEY',
] as const;

export function loadSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerSettings {
  if (env.ACCOUNTS !== undefined)
    throw new ConfigError(
      'ACCOUNTS (tokens in clear) is not read by the Hushdrop server: make accounts with ' +
        '`npm run server -- account add <name>`, which stores only a hash of the token.',
    );
  const configPath = env.CONFIG ? resolve(cwd, env.CONFIG) : undefined;
  const file: Json = configPath ? readConfigFile(configPath) : {};
  const fileDir = configPath ? dirname(configPath) : cwd;
  // A value from the environment (relative paths from the working folder) or else the file (from its folder).
  const pick = (envName: string, key: string) =>
    env[envName] !== undefined && env[envName] !== ''
      ? { value: env[envName] as unknown, name: envName, base: cwd }
      : file[key] !== undefined
        ? { value: file[key], name: `"${key}" in the config file`, base: fileDir }
        : undefined;
  const path = (envName: string, key: string) => {
    const p = pick(envName, key);
    return p ? resolve(p.base, text(p.value, p.name)) : undefined;
  };

  const dataDir = path('DATA_DIR', 'dataDir') ?? defaultDataDir(env);
  const s = defaultSettings(dataDir);

  const storageUrl = pick('STORAGE_URL', 'storageUrl');
  if (storageUrl) s.s3 = objectStorage(text(storageUrl.value, storageUrl.name), file.s3, env);
  else if (file.s3 !== undefined)
    throw new ConfigError('"s3" in the config file needs "storageUrl" as well.');

  const host = pick('HOST', 'host');
  if (host) s.host = text(host.value, host.name);
  const port = pick('PORT', 'port');
  if (port) s.port = count(port.value, port.name, 65535);

  const base = pick('PUBLIC_URL', 'publicUrl');
  if (base) s.publicUrls.baseUrl = publicUrl(base.value, base.name);
  if (file.apiUrl !== undefined) s.publicUrls.apiUrl = publicUrl(file.apiUrl, '"apiUrl" in the config file');
  if (file.uploadUrl !== undefined)
    s.publicUrls.uploadUrl = publicUrl(file.uploadUrl, '"uploadUrl" in the config file');
  if ((s.publicUrls.apiUrl || s.publicUrls.uploadUrl) && !s.publicUrls.baseUrl)
    throw new ConfigError('apiUrl and uploadUrl need publicUrl (the legacy variant’s base_url) as well.');

  const trusted = pick('TRUSTED_PROXIES', 'trustedProxies');
  if (trusted) s.trustedProxies = proxies(trusted.value, trusted.name);
  const max = pick('MAX_UPLOAD_BYTES', 'maxUploadBytes');
  if (max) s.maxUploadBytes = count(max.value, max.name) || undefined;
  const required = pick('REQUIRE_ACCOUNT', 'requireAccount');
  if (required) s.requireAccount = flag(required.value, required.name);
  if (file.accounts !== undefined) s.accounts = accounts(file.accounts);
  s.accountsFile = path('ACCOUNTS_FILE', 'accountsFile') ?? s.accountsFile;

  if (file.limits !== undefined) {
    if (!isObject(file.limits)) throw new ConfigError('"limits" in the config file must be an object.');
    onlyKeys(file.limits, LIMIT_KEYS, '"limits" in the config file');
    for (const key of LIMIT_KEYS) {
      if (file.limits[key] !== undefined) s.limits[key] = count(file.limits[key], `limits.${key}`);
    }
  }
  if (file.expiry !== undefined) {
    if (!isObject(file.expiry)) throw new ConfigError('"expiry" in the config file must be an object.');
    onlyKeys(file.expiry, EXPIRY_KEYS, '"expiry" in the config file');
    if (file.expiry.maxAgeDays !== undefined)
      s.maxAgeMs = count(file.expiry.maxAgeDays, 'expiry.maxAgeDays', 36500) * DAY_MS;
    if (file.expiry.sweepIntervalSeconds !== undefined)
      s.sweepIntervalMs =
        Math.max(1, count(file.expiry.sweepIntervalSeconds, 'expiry.sweepIntervalSeconds', 86400)) * 1000;
  }
  if (file.timeouts !== undefined) {
    const t = file.timeouts;
    if (!isObject(t)) throw new ConfigError('"timeouts" in the config file must be an object.');
    onlyKeys(t, TIMEOUT_KEYS, '"timeouts" in the config file');
    const seconds = (key: (typeof TIMEOUT_KEYS)[number]) => count(t[key], `timeouts.${key}`, 86400) * 1000;
    if (t.headersSeconds !== undefined) s.timeouts.headersMs = Math.max(1000, seconds('headersSeconds'));
    if (t.slowClientSeconds !== undefined) s.timeouts.slowClientMs = seconds('slowClientSeconds');
    if (t.slowClientMinBytes !== undefined)
      s.timeouts.slowClientMinBytes = count(t.slowClientMinBytes, 'timeouts.slowClientMinBytes');
    if (t.keepAliveSeconds !== undefined) s.timeouts.keepAliveMs = seconds('keepAliveSeconds');
    if (t.shutdownGraceSeconds !== undefined) s.timeouts.shutdownGraceMs = seconds('shutdownGraceSeconds');
  }
  if (file.parts !== undefined) {
    const p = file.parts;
    if (!isObject(p)) throw new ConfigError('"parts" in the config file must be an object.');
    onlyKeys(p, PARTS_KEYS, '"parts" in the config file');
    if (p.partSizeMiB !== undefined) {
      s.parts.partBytes = count(p.partSizeMiB, 'parts.partSizeMiB', 5120) * MIB;
      checkPartBytes(s.parts.partBytes);
    }
    if (p.sessionMinutes !== undefined)
      s.parts.sessionLifetimeMs =
        Math.max(1, count(p.sessionMinutes, 'parts.sessionMinutes', 10080)) * 60_000;
    if (p.sessionsPerAddress !== undefined)
      s.parts.sessionsPerAddress = count(p.sessionsPerAddress, 'parts.sessionsPerAddress');
    if (p.partDeadlineSeconds !== undefined)
      s.parts.partDeadlineMs = count(p.partDeadlineSeconds, 'parts.partDeadlineSeconds', 86400) * 1000;
  }
  const log = pick('ACCESS_LOG', 'accessLog');
  if (log) {
    const target = text(log.value, log.name);
    s.accessLog = target === 'off' || target === 'stdout' ? target : resolve(log.base, target);
  }

  const fileTls = file.tls;
  if (fileTls !== undefined && !isObject(fileTls))
    throw new ConfigError('"tls" in the config file must be an object.');
  if (fileTls)
    onlyKeys(fileTls, ['certFile', 'keyFile', 'http2', 'maxConcurrentStreams'], '"tls" in the config file');
  if (fileTls?.maxConcurrentStreams !== undefined) {
    s.maxConcurrentStreams = count(fileTls.maxConcurrentStreams, 'tls.maxConcurrentStreams', 2 ** 31 - 1);
    if (s.maxConcurrentStreams === 0)
      throw new ConfigError('tls.maxConcurrentStreams must be at least 1 (a connection needs one stream).');
  }
  const cert = env.TLS_CERT
    ? resolve(cwd, env.TLS_CERT)
    : fileTls?.certFile !== undefined
      ? resolve(fileDir, text(fileTls.certFile, 'tls.certFile'))
      : undefined;
  const key = env.TLS_KEY
    ? resolve(cwd, env.TLS_KEY)
    : fileTls?.keyFile !== undefined
      ? resolve(fileDir, text(fileTls.keyFile, 'tls.keyFile'))
      : undefined;
  if ((cert === undefined) !== (key === undefined))
    throw new ConfigError(
      'TLS needs both a certificate file and a key file (TLS_CERT and TLS_KEY, or tls.certFile and tls.keyFile).',
    );
  if (cert && key)
    s.tls = {
      certFile: cert,
      keyFile: key,
      http2: fileTls?.http2 === undefined ? true : flag(fileTls.http2, 'tls.http2'),
    };
  return s;
}
