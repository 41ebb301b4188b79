// The deployment's settings: the config file (CONFIG, JSON) and environment variables, which win, read
// through the one schema (schema.ts: types, checks, defaults) and resolved into ServerSettings (paths from
// where each value came from, times in ms). Every mistake is a ConfigError with a sentence that names the
// key or variable; unknown keys are mistakes too, so a typo never silently falls back to a default.

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import { COMMAND } from '../cli/name';
import { S3ConfigError, type S3Settings, s3Settings } from '../storage/s3-config';
import { jsonMistake } from './json-mistake';
import { type ConfigFile, configSchema, envKeys, keySchema } from './schema';
import { defaultDataDir, MIB, MIN_PART_BYTES, type ServerSettings, settingsFrom } from './settings';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Refuses parts smaller than S3 takes. Settings from the config file are checked by the schema, and
 * startServer checks the settings it is given, however they were made (tests build them in code).
 */
export function checkPartBytes(partBytes: number): void {
  if (!(partBytes >= MIN_PART_BYTES))
    throw new ConfigError(`parts.partSizeMiB must be at least ${MIN_PART_BYTES / MIB} (S3's smallest part).`);
}

type Path = readonly PropertyKey[];

/** Environment variables the server reads (besides the AWS SDK's), each the key the schema names. */
export const ENV_KEYS = envKeys();
export const ENV_VARS = ['CONFIG', ...ENV_KEYS.map((k) => k.env)];

/** How a sentence names a value of the config file at `path`. */
function fileName(path: Path, configPath: string): string {
  if (path.length === 0) return `The config file ${configPath}`;
  if (path.length === 1) return `"${String(path[0])}" in the config file`;
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}

/** The first issue as a sentence, `{name}` filled in. */
function sentence(error: z.ZodError, name: (path: Path) => string): string {
  // A token in clear is the worst mistake an entry of accounts can hold: say what to do instead.
  const clear = error.issues.find(
    (i) => i.code === 'unrecognized_keys' && i.keys.includes('token') && i.path[0] === 'accounts',
  );
  if (clear)
    return `${name(clear.path)} holds a token in clear: accounts hold only "tokenHash" (${COMMAND} hash-token).`;
  const issue = error.issues[0]!;
  const message = issue.message.includes('{name}') ? issue.message : `{name}: ${issue.message}`;
  return message.replace('{name}', name(issue.path));
}

function readConfigFile(path: string): unknown {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`The config file ${path} cannot be read: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(source);
  } catch {
    throw new ConfigError(`The config file ${path} is not valid JSON: ${jsonMistake(source)}.`);
  }
}

/**
 * The S3 store's settings: the URL, the config file's "s3" object, and the SDK's own variables, which win
 * (AWS_ENDPOINT_URL_S3, AWS_REGION, …). Credentials come only from the environment or the SDK's chain
 * (~/.aws, instance roles), never from the config file, which is often kept in a repository.
 */
function objectStorage(url: string, s3: ConfigFile['s3'], env: NodeJS.ProcessEnv): S3Settings {
  const fromFile: Record<string, string | undefined> = {};
  if (s3?.endpoint !== undefined) fromFile.AWS_ENDPOINT_URL_S3 = s3.endpoint;
  if (s3?.region !== undefined) fromFile.AWS_REGION = s3.region;
  const sdkVars = Object.fromEntries(Object.entries(env).filter(([name, v]) => name.startsWith('AWS_') && v));
  // A slow store (a busy Ceph, a far region) needs longer than the default before an upload is refused.
  const timeout = s3 ? s3.timeoutSeconds * 1000 : undefined;
  try {
    return s3Settings(
      url,
      { ...fromFile, ...sdkVars },
      {
        ...(s3 ? { partSize: s3.partSizeMiB * MIB, partsInFlight: s3.partsInFlight } : {}),
        ...(timeout ? { requestTimeoutMs: timeout, readIdleTimeoutMs: timeout } : {}),
      },
    );
  } catch (err) {
    if (err instanceof S3ConfigError) throw new ConfigError(err.message);
    throw err;
  }
}

export function loadSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerSettings {
  if (env.ACCOUNTS !== undefined)
    throw new ConfigError(
      'ACCOUNTS (tokens in clear) is not read by the Hushdrop server: make accounts with ' +
        `\`${COMMAND} account add <name>\`, which stores only a hash of the token.`,
    );
  const configPath = env.CONFIG ? resolve(cwd, env.CONFIG) : undefined;
  const raw = configPath ? readConfigFile(configPath) : {};
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(sentence(parsed.error, (path) => fileName(path, configPath ?? '(none)')));
  const config: ConfigFile = parsed.data;
  const fromEnv = new Set<string>();
  // Each variable is checked as its key would be, and named by itself.
  for (const { env: name, path } of ENV_KEYS) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    const checked = keySchema(path).safeParse(value);
    if (!checked.success) throw new ConfigError(sentence(checked.error, () => name));
    const [key, sub] = path;
    const into = config as Record<string, any>;
    if (sub === undefined) into[key] = checked.data;
    else {
      // A variable of a section the file leaves out (TLS_CERT without "tls"): the section with its defaults.
      if (into[key] === undefined) into[key] = keySchema([key]).parse({});
      into[key][sub] = checked.data;
    }
    fromEnv.add(path.join('.'));
  }

  // Paths from the environment are relative to the working folder, from the file to the file's folder.
  const fileDir = configPath ? dirname(configPath) : cwd;
  const path = (key: string, value: string | undefined) =>
    value === undefined ? undefined : resolve(fromEnv.has(key) ? cwd : fileDir, value);

  if (config.s3 && !config.storageUrl)
    throw new ConfigError('"s3" in the config file needs "storageUrl" as well.');
  if ((config.apiUrl || config.uploadUrl) && !config.publicUrl)
    throw new ConfigError('apiUrl and uploadUrl need publicUrl (the legacy variant’s base_url) as well.');
  const cert = path('tls.certFile', config.tls?.certFile);
  const key = path('tls.keyFile', config.tls?.keyFile);
  if ((cert === undefined) !== (key === undefined))
    throw new ConfigError(
      'TLS needs both a certificate file and a key file (TLS_CERT and TLS_KEY, or tls.certFile and tls.keyFile).',
    );

  const dataDir = path('dataDir', config.dataDir) ?? defaultDataDir(env);
  const log = config.accessLog;
  return settingsFrom(config, {
    dataDir,
    accountsFile: path('accountsFile', config.accountsFile),
    accessLog: log === 'off' || log === 'stdout' ? log : path('accessLog', log)!,
    s3: config.storageUrl ? objectStorage(config.storageUrl, config.s3, env) : undefined,
    tls: cert && key ? { certFile: cert, keyFile: key, http2: config.tls?.http2 ?? true } : undefined,
  });
}
