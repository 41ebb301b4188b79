// The test server from a shell (`npx tsx tests/server/main.ts`): the Hushdrop server with the test-only
// switches below, for the bench and for trying clients against old Teknik behaviour. `npm run server` is
// the product (server/main.ts) and has none of them.
// Env: PORT (default 8787, 0 = a free port), HOST (the address to listen on, default 127.0.0.1), DATA_DIR (default a new temp dir), DOWNLOAD_PAGE=1, MAX_UPLOAD_BYTES,
// ACCOUNTS (`user:token,user2:token2`), DELETION (teknik, other-wording, keeps-file), CONFIG (a JSON file with
// ServerOptions; env values win over it), TLS (`1`: HTTPS with HTTP/2 and HTTP/1.1 by ALPN; `http1`: HTTPS
// with HTTP/1.1 only; default plain http), PARTS (`1`: take uploads in parts, as the product does; default
// not, as Teknik), STORAGE_URL with the AWS_* variables (uploads in S3, as for
// the product; without it on disk in DATA_DIR).

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { s3Settings } from '../../server/storage/s3-config';
import { type Account, type DeletionMode, type ServerOptions, startServer } from './server';

const DELETION_MODES: DeletionMode[] = ['teknik', 'other-wording', 'keeps-file'];

function deletionMode(text: string): DeletionMode {
  const mode = DELETION_MODES.find((m) => m === text.trim());
  return mode ?? fail(`DELETION must be one of ${DELETION_MODES.join(', ')}, got "${text}"`);
}

function fail(message: string): never {
  console.error(`reference server: ${message}`);
  process.exit(2);
}

function integer(name: string, text: string): number {
  if (!/^\d+$/.test(text.trim())) fail(`${name} must be a non-negative integer, got "${text}"`);
  return Number(text.trim());
}

/** `user:token,user2:token2`; a token may contain ':' (Basic auth splits at the first one). */
function parseAccounts(text: string): Account[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((entry) => {
      const colon = entry.indexOf(':');
      if (colon <= 0) fail(`ACCOUNTS entry "${entry}" is not user:token`);
      return { username: entry.slice(0, colon), token: entry.slice(colon + 1) };
    });
}

function tlsMode(text: string): ServerOptions['tls'] {
  const mode = text.trim().toLowerCase();
  if (mode === '' || mode === '0') return undefined;
  if (mode === '1' || mode === 'h2') return { http2: true };
  if (mode === 'http1') return { http2: false };
  fail(`TLS must be 1 (HTTP/2 and HTTP/1.1), http1 (HTTP/1.1 only) or 0, got "${text}"`);
}

/**
 * The product's settings from the config file, with the store STORAGE_URL names (or the config file's, or
 * the disk). Always set here, so that this process never takes the suite's store (HUSHDROP_TEST_STORAGE,
 * which it inherits from a test that starts it, and which means something only inside Vitest).
 */
function settingsWithStore(
  env: NodeJS.ProcessEnv,
  config: Partial<ServerOptions>,
): ServerOptions['settings'] {
  // A STORAGE_URL that cannot work throws an S3ConfigError, whose sentence main() prints.
  return { ...config.settings, s3: env.STORAGE_URL ? s3Settings(env.STORAGE_URL, env) : config.settings?.s3 };
}

function options(env: NodeJS.ProcessEnv): ServerOptions {
  const config: Partial<ServerOptions> = env.CONFIG ? JSON.parse(readFileSync(env.CONFIG, 'utf8')) : {};
  return {
    ...config,
    settings: settingsWithStore(env, config),
    port: env.PORT !== undefined ? integer('PORT', env.PORT) : (config.port ?? 8787),
    host: env.HOST || config.host,
    dataDir: env.DATA_DIR || config.dataDir || mkdtempSync(join(tmpdir(), 'hushdrop-server-')),
    maxUploadBytes:
      env.MAX_UPLOAD_BYTES !== undefined
        ? integer('MAX_UPLOAD_BYTES', env.MAX_UPLOAD_BYTES)
        : config.maxUploadBytes,
    accounts: env.ACCOUNTS !== undefined ? parseAccounts(env.ACCOUNTS) : config.accounts,
    downloadPage: env.DOWNLOAD_PAGE !== undefined ? env.DOWNLOAD_PAGE === '1' : config.downloadPage,
    deletion: env.DELETION !== undefined ? deletionMode(env.DELETION) : config.deletion,
    tls: env.TLS !== undefined ? tlsMode(env.TLS) : config.tls,
    // It stands in for a Teknik server, which takes no uploads in parts, unless PARTS=1 says otherwise.
    noParts: env.PARTS !== undefined ? env.PARTS !== '1' : (config.noParts ?? true),
  };
}

async function main(): Promise<void> {
  const opts = options(process.env);
  const server = await startServer(opts);
  // Scripts read the first three lines; keep their shape.
  console.log(`base_url=${server.baseUrl}`);
  console.log(`api_url=${server.apiUrl}`);
  console.log(`upload_url=${server.uploadUrl}`);
  if (server.tls) {
    // Trust exactly this certificate: curl --cacert <tls_cert>, Chromium
    // --ignore-certificate-errors-spki-list=<tls_spki>.
    console.log(`tls_cert=${server.tls.certificatePath}`);
    console.log(`tls_spki=${server.tls.spkiSha256}`);
    console.log(`tls_alpn=${server.tls.protocols.join(',')}`);
  }
  const accounts = opts.accounts?.length ?? 0;
  const limit = opts.maxUploadBytes !== undefined ? `${opts.maxUploadBytes} bytes` : 'none';
  const store = opts.settings?.s3 ? server.hushdrop.storage.description : opts.dataDir;
  console.log(
    `Hushdrop reference upload server listening; data in ${store}; size limit ${limit}; ` +
      `${accounts} account(s). Ctrl-C stops it.`,
  );
  const stop = () => {
    server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
