// The server's config, as one schema (zod): every key of the config file with its type, its checks, its
// default, the environment variable that overrides it, and the words of the README's table (`table.ts`
// writes the table from here; a test keeps the README's in step). load.ts reads the file and the
// environment through it and resolves the result into ServerSettings.
//
// Every check's message is a sentence in which `{name}` stands for where the value came from (`PORT`,
// `"port" in the config file`, `limits.requestsPerMinute`) and `{input}` for the value, as JSON.

import { z } from 'zod';
import { checkUsername } from '../accounts/accounts';
import { checkTokenHash } from '../accounts/tokens';
import { ProxyListError, proxyList } from '../http/client';

/** What the README's table says of a key: its variable, its meaning, and its default where the value does not say it. */
export interface KeyDoc {
  env?: string;
  doc: string;
  /** The default as the table shows it, when the schema has none or shows it badly. */
  shown?: string;
}

const say = (message: string) => ({
  error: (issue: { input?: unknown }) => message.replace('{input}', JSON.stringify(issue.input) ?? 'nothing'),
});

/** A whole number from `min` to `max`; numeric text (the environment's) is read as one. */
function count(max = Number.MAX_SAFE_INTEGER, min = 0, below?: string) {
  const wrong = say(`{name} must be a whole number from ${min} to ${max}, not {input}.`);
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number(wrong)
      .int(wrong)
      .min(min, below ? say(below) : wrong)
      .max(max, wrong),
  );
}

/** Non-empty text, trimmed. */
const text = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string(say('{name} must be a non-empty text, not {input}.'))
      .min(1, say('{name} must be a non-empty text, not "".')),
  );

const FLAG_WORDS: Record<string, boolean> = {
  '1': true,
  true: true,
  yes: true,
  on: true,
  '0': false,
  false: false,
  no: false,
  off: false,
};
/** true or false, or the words the environment uses for them. */
const flag = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (FLAG_WORDS[v.trim().toLowerCase()] ?? v) : v),
    z.boolean(say('{name} must be true or false, not {input}.')),
  );

/** An absolute http(s) URL without user, query or fragment; the trailing slash dropped. */
const publicUrl = () =>
  text()
    .refine(
      (v) => URL.canParse(v),
      say('{name} must be an absolute URL like https://drop.example.org, not {input}.'),
    )
    .refine((v) => {
      if (!URL.canParse(v)) return true; // the check before says so
      const url = new URL(v);
      return (
        (url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash && !url.username
      );
    }, say('{name} must be an http or https URL without user, query or fragment, not {input}.'))
    .transform((v) => (URL.canParse(v) ? new URL(v).href.replace(/\/+$/, '') : v));

/** Addresses or CIDR ranges: a list, or text separated by commas (the environment's). */
const proxies = () =>
  z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : v,
    z
      .array(z.string(), say('{name} must be a list of addresses or CIDR ranges.'))
      .superRefine((list, ctx) => {
        try {
          proxyList(list);
        } catch (err) {
          if (!(err instanceof ProxyListError)) throw err;
          ctx.addIssue({ code: 'custom', message: `{name}: ${err.message}`, input: list });
        }
      }),
  );

/** An http(s) address of an S3 store. */
export const endpointSchema = z.string().refine((v) => {
  if (!URL.canParse(v)) return false;
  const { protocol } = new URL(v);
  return protocol === 'http:' || protocol === 'https:';
}, say('{name} must be an http:// or https:// address, not {input}.'));

// Bucket names as S3 allows them (3–63 of a-z 0-9 . -, starting and ending with a letter or digit).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const STORAGE_URL = /^s3:\/\/([^/?#]+)(?:\/([^?#]*))?$/;

/** `s3://bucket/some/prefix`: a bucket name S3 allows, and a prefix without `.` or `..` segments. */
export const storageUrlSchema = z
  .string()
  .trim()
  .regex(STORAGE_URL, say('{name} must look like s3://<bucket>/<prefix>, not {input}.'))
  // (Each check runs even when the one before failed: they look only at URLs of the right shape.)
  .superRefine((url, ctx) => {
    const bucket = STORAGE_URL.exec(url)?.[1];
    if (bucket !== undefined && !BUCKET.test(bucket))
      ctx.addIssue({
        code: 'custom',
        input: url,
        message: `{name} names the bucket ${JSON.stringify(bucket)}, which is not a valid S3 bucket name (3–63 of a–z, 0–9, '.', '-').`,
      });
  })
  .refine(
    (url) =>
      !(STORAGE_URL.exec(url)?.[2] ?? '').split('/').some((segment) => segment === '.' || segment === '..'),
    say(`The prefix in {name} must not contain '.' or '..' segments.`),
  );

/** The bucket and a prefix that is '' or ends in '/' of a URL the schema took. */
export function splitStorageUrl(url: string): { bucket: string; prefix: string } {
  const match = STORAGE_URL.exec(url.trim())!;
  const path = (match[2] ?? '').replace(/^\/+/, '');
  return { bucket: match[1]!, prefix: path === '' || path.endsWith('/') ? path : `${path}/` };
}

const PART_SIZE_FLOOR = "{name} must be at least 5 (S3's smallest part: at least 5242880 bytes).";

const doc = (d: KeyDoc): Record<string, unknown> & KeyDoc => ({ ...d });

/** An object that takes only its keys: an unknown key (a typo) is a mistake, never a silent default. */
function object<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `{name}: unknown key ${JSON.stringify(issue.keys[0])} (known: ${Object.keys(shape).join(', ')}).`
        : '{name} must be an object.',
  });
}

const account = object({
  username: text().superRefine((v, ctx) => {
    try {
      checkUsername(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `{name}: ${(err as Error).message}`, input: v });
    }
  }),
  tokenHash: text().superRefine((v, ctx) => {
    try {
      checkTokenHash(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `{name}: ${(err as Error).message}`, input: v });
    }
  }),
});

/** Defaults the settings need even where the config file has no "tls" object. */
export const TLS_DEFAULTS = { maxConcurrentStreams: 100 };

export const configSchema = object({
  host: text()
    .default('127.0.0.1')
    .meta(doc({ env: 'HOST', doc: 'where it listens. Keep it on loopback behind a proxy' })),
  port: count(65535)
    .default(8787)
    .meta(doc({ env: 'PORT', doc: 'its port; `0` = a free port' })),
  dataDir: text()
    .optional()
    .meta(
      doc({
        env: 'DATA_DIR',
        shown: '`$XDG_DATA_HOME/hushdrop/server`, else `~/.local/share/hushdrop/server`',
        doc: 'uploads (`files/`), their records (`records/`), `accounts.json`; one server per folder (a second one is refused)',
      }),
    ),
  storageUrl: text()
    .pipe(storageUrlSchema)
    .optional()
    .meta(
      doc({
        env: 'STORAGE_URL',
        doc: 'uploads and records in S3-compatible storage (`s3://<bucket>/<prefix>`) instead of `dataDir` (below)',
      }),
    ),
  s3: object({
    endpoint: text()
      .pipe(endpointSchema)
      .optional()
      .meta(
        doc({
          env: 'AWS_ENDPOINT_URL_S3',
          shown: "AWS's for the region",
          doc: 'the store’s address (path-style); the SDK’s variable wins',
        }),
      ),
    region: text()
      .optional()
      .meta(
        doc({ env: 'AWS_REGION', shown: '`us-east-1`', doc: 'the store’s region; the SDK’s variable wins' }),
      ),
    partSizeMiB: count(5120, 5, PART_SIZE_FLOOR)
      .default(8)
      .meta(doc({ doc: 'MiB of each part an upload streams into the store' })),
    partsInFlight: count(64, 1)
      .default(2)
      .meta(doc({ doc: 'parts sent at once; an upload holds (parts in flight + 2) × part size in memory' })),
    timeoutSeconds: count(3600)
      .default(20)
      .meta(doc({ doc: 'how long the store may take to answer one request before the client gets 503' })),
  })
    .optional()
    .meta(
      doc({
        doc: 'the S3 store (with `storageUrl`); credentials only from `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY` or the SDK’s sources',
      }),
    ),
  publicUrl: publicUrl()
    .optional()
    .meta(
      doc({
        env: 'PUBLIC_URL',
        shown: 'the listening address',
        doc: 'the public `base_url`; `api_url` and `upload_url` are it plus `/api` and `/u`',
      }),
    ),
  apiUrl: publicUrl()
    .optional()
    .meta(
      doc({ shown: '`publicUrl` + `/api`', doc: 'the current variant’s `api_url`, when it is elsewhere' }),
    ),
  uploadUrl: publicUrl()
    .optional()
    .meta(
      doc({ shown: '`publicUrl` + `/u`', doc: 'the current variant’s `upload_url`, when it is elsewhere' }),
    ),
  trustedProxies: proxies()
    .default([])
    .meta(
      doc({
        env: 'TRUSTED_PROXIES',
        shown: 'none',
        doc: 'addresses or CIDR ranges (comma-separated in the variable) whose `X-Forwarded-For`, `-Proto` and `-Host` are believed; from anyone else those headers are ignored',
      }),
    ),
  maxUploadBytes: count()
    .default(0)
    .meta(
      doc({
        env: 'MAX_UPLOAD_BYTES',
        shown: 'no limit',
        doc: 'larger uploads get 413 with Teknik’s JSON error (`0` = no limit)',
      }),
    ),
  requireAccount: flag()
    .default(false)
    .meta(
      doc({
        env: 'REQUIRE_ACCOUNT',
        doc: 'uploads need an account (current variant, Basic auth); the legacy variant, which has no auth, is then closed',
      }),
    ),
  accounts: z
    .array(account, say('{name} must be a list of {"username", "tokenHash"}.'))
    .default([])
    .meta(
      doc({
        shown: 'none',
        doc: '`{"username", "tokenHash"}` entries (`hash-token` makes a hash); never a token in clear',
      }),
    ),
  accountsFile: text()
    .optional()
    .meta(
      doc({
        env: 'ACCOUNTS_FILE',
        shown: '`<dataDir>/accounts.json`',
        doc: 'the file the `account` commands write; read again when it changes',
      }),
    ),
  limits: object({
    requestsPerMinute: count()
      .default(600)
      .meta(
        doc({
          doc: 'requests per address, on every route. For every limit: `0` = none; over it, 429 with `Retry-After` and a sentence; IPv6 addresses count by their /64; counted per server process',
        }),
      ),
    uploadsPerHourPerAddress: count()
      .default(240)
      .meta(doc({ doc: 'uploads per address' })),
    uploadsPerHourPerAccount: count()
      .default(0)
      .meta(doc({ doc: 'uploads per account' })),
    uploadBytesPerDayPerAddress: count()
      .default(50 * 1024 ** 3)
      .meta(doc({ shown: '50 GiB', doc: 'bytes uploaded per address' })),
    uploadBytesPerDayPerAccount: count()
      .default(0)
      .meta(doc({ doc: 'bytes uploaded per account' })),
    failedLoginsPerMinutePerAddress: count()
      .default(10)
      .meta(
        doc({
          doc: 'wrong tokens per address; counted before a token is hashed, and a token verified before is never held up by them',
        }),
      ),
    failedLoginsPerMinutePerUsername: count()
      .default(30)
      .meta(doc({ doc: 'wrong tokens per username, from any address' })),
    scryptConcurrency: count()
      .default(1)
      .meta(
        doc({
          doc: 'token checks (scrypt) at once, each on one of Node’s four I/O threads, which the disk needs too (`0` = no bound)',
        }),
      ),
  })
    .prefault({})
    .meta(
      doc({
        doc: '`0` = none. Over a limit: 429 with `Retry-After` and a sentence. IPv6 addresses count by their /64. **Shared or not:** the two daily byte quotas are kept in the store, so every instance on one store counts the same bytes (an upload reserves its bytes when it starts: a Start its declared size, a one-request upload its bytes as they arrive; an abort gives nothing back); requests, uploads an hour and failed logins are counted by each server process (with N instances, N times the amount: set request limits in the proxy, below)',
      }),
    ),
  expiry: object({
    maxAgeDays: count(36500)
      .default(0)
      .meta(
        doc({
          shown: 'none',
          doc: 'every upload goes after this many days at the latest (`0` = no maximum)',
        }),
      ),
    sweepIntervalSeconds: count(86400)
      .default(60)
      .meta(
        doc({
          doc: 'the sweeper removes expired uploads (date or views) this often, whether or not anyone asks for them',
        }),
      ),
  })
    .prefault({})
    .meta(doc({ doc: 'expiry' })),
  timeouts: object({
    headersSeconds: count(86400)
      .default(20)
      .meta(doc({ doc: 'time a client has to send a request’s headers (at least 1)' })),
    slowClientSeconds: count(86400)
      .default(30)
      .meta(
        doc({
          doc: 'a client that sends or reads less than `slowClientMinBytes` in this time while the server waits on it is cut (408)',
        }),
      ),
    slowClientMinBytes: count()
      .default(8192)
      .meta(doc({ doc: 'see `slowClientSeconds`' })),
    keepAliveSeconds: count(86400)
      .default(30)
      .meta(doc({ doc: 'idle keep-alive connections close after this' })),
    shutdownGraceSeconds: count(86400)
      .default(30)
      .meta(doc({ doc: 'at a stop, uploads in progress get this long to finish before they are cut' })),
  })
    .prefault({})
    .meta(doc({ doc: 'timeouts' })),
  parts: object({
    partSizeMiB: count(5120, 5, PART_SIZE_FLOOR)
      .default(16)
      .meta(doc({ doc: 'uploads in parts (below): every part but the last has this many MiB (at least 5)' })),
    sessionMinutes: count(10080)
      .default(60)
      .meta(
        doc({
          doc: 'a session not finished this many minutes after its start is removed with all it stored',
        }),
      ),
    sessionsPerAddress: count()
      .default(4)
      .meta(
        doc({
          doc: 'one more Start from an address with this many sessions open gets 429 (`0` = no limit; counted in the store, so across instances)',
        }),
      ),
    partDeadlineSeconds: count(86400)
      .default(600)
      .meta(
        doc({
          doc: 'a part not received whole this many seconds after its request began is cut with 408, however steadily it comes (`0` = no deadline). An upload has at most 10,000 parts (S3’s limit): with 16 MiB parts, 156.25 GiB',
        }),
      ),
  })
    .prefault({})
    .meta(doc({ doc: 'uploads in parts' })),
  accessLog: text()
    .default('stdout')
    .meta(
      doc({
        env: 'ACCESS_LOG',
        doc: '`stdout`, `off`, or a file (appended; its folder must exist; SIGHUP opens it again)',
      }),
    ),
  metrics: object({
    token: text()
      .refine(
        (v) => v.length >= 24 && /^[\x21-\x7e]+$/.test(v),
        say('{name} must be at least 24 characters without spaces (e.g. from `openssl rand -hex 16`).'),
      )
      .optional()
      .meta(
        doc({
          env: 'METRICS_TOKEN',
          shown: 'none (off)',
          doc: 'the bearer token of `GET /_hushdrop/metrics` (at least 24 characters)',
        }),
      ),
  })
    .optional()
    .meta(doc({ doc: 'Prometheus metrics' })),
  tls: object({
    certFile: text()
      .optional()
      .meta(
        doc({
          env: 'TLS_CERT',
          shown: 'none',
          doc: 'serve HTTPS itself (HTTP/2 and HTTP/1.1), when no proxy does: the certificate (PEM)',
        }),
      ),
    keyFile: text()
      .optional()
      .meta(doc({ env: 'TLS_KEY', shown: 'none', doc: 'and its key (PEM)' })),
    http2: flag()
      .default(true)
      .meta(doc({ doc: '`false`: HTTPS with HTTP/1.1 only' })),
    maxConcurrentStreams: count(2 ** 31 - 1, 1, '{name} must be at least 1 (a connection needs one stream).')
      .default(TLS_DEFAULTS.maxConcurrentStreams)
      .meta(
        doc({
          doc: 'an HTTP/2 connection may have this many streams open at once (more are refused); the slow-client rule cuts each stream on its own',
        }),
      ),
  })
    .optional()
    .meta(doc({ doc: 'TLS' })),
});

/** The config file as the schema reads it (defaults filled in). */
export type ConfigFile = z.output<typeof configSchema>;

/** The schema of the key at `path` (`['limits', 'requestsPerMinute']`), with its meta. */
export function keySchema(path: readonly string[]): z.ZodType {
  let schema = configSchema as unknown as z.ZodType;
  for (const key of path) schema = sectionShape(schema)[key]!;
  return schema;
}

/** The keys of an object schema inside its optional and default wrappers, or null for a value. */
export function sectionShape(schema: z.ZodType): Record<string, z.ZodType> {
  let inner = schema as unknown as {
    shape?: Record<string, z.ZodType>;
    _zod: { def: { innerType?: unknown } };
  };
  while (!inner.shape && inner._zod.def.innerType) inner = inner._zod.def.innerType as typeof inner;
  return inner.shape ?? {};
}

/** Every key of the schema, by its path: top-level keys and the keys of its sections. */
export function keyPaths(): string[][] {
  return Object.entries(sectionShape(configSchema as never)).flatMap(([key, schema]) => {
    const section = Object.keys(sectionShape(schema));
    return section.length ? section.map((sub) => [key, sub]) : [[key]];
  });
}

/**
 * The environment variables the server reads itself, and the keys they set (the schema's `env`). The AWS
 * SDK's variables (AWS_*) reach the S3 store through the SDK's names instead (storage/s3-config.ts).
 */
export function envKeys(): { env: string; path: string[] }[] {
  return keyPaths()
    .map((path) => ({ env: (keySchema(path).meta() as KeyDoc | undefined)?.env ?? '', path }))
    .filter(({ env }) => env !== '' && !env.startsWith('AWS_'));
}
