// `npm run server [-- <command>]`: runs the Hushdrop server, or manages its accounts.
//   (no command) | serve        run it; prints base_url=, api_url=, upload_url= first
//   account add <name>          make an account; prints its token once (only a hash is stored)
//   account remove <name>       remove an account from the accounts file
//   account list                list the accounts file's usernames
//   hash-token                  hash a token read from stdin (or a new one) for the config file's "accounts"
// Settings: a config file (CONFIG=path, JSON) and environment variables, which win; see server/README.md.

import { AccountsFileError, checkUsername, readAccountsFile, writeAccountsFile } from './accounts/accounts';
import { hashToken, newToken, TokenHashError } from './accounts/tokens';
import { ConfigError, loadSettings } from './config/load';
import type { ServerSettings } from './config/settings';
import { bytesReadable } from './http/responses';
import { startServer } from './server';
import { DataDirInUseError } from './storage/disk-lock';

const USAGE = `Usage: npm run server [-- serve | account add <name> | account remove <name> | account list | hash-token]
Settings come from a config file (CONFIG=/path/config.json) and environment variables (PORT, HOST, DATA_DIR,
STORAGE_URL with the AWS_* variables,
PUBLIC_URL, TRUSTED_PROXIES, MAX_UPLOAD_BYTES, REQUIRE_ACCOUNT, ACCOUNTS_FILE, ACCESS_LOG, TLS_CERT, TLS_KEY),
which win. See server/README.md.`;

class UsageError extends Error {}

function describeLimits(s: ServerSettings): string {
  const max = s.maxUploadBytes !== undefined ? bytesReadable(s.maxUploadBytes) : 'none';
  const perMinute = s.limits.requestsPerMinute || 'unlimited';
  return `size limit ${max}; ${perMinute} requests a minute per address; accounts ${s.requireAccount ? 'required' : 'optional'}`;
}

async function serve(settings: ServerSettings): Promise<void> {
  const server = await startServer(settings);
  // Scripts read the first three lines; keep their shape.
  console.log(`base_url=${server.links.baseUrl}`);
  console.log(`api_url=${server.links.apiUrl}`);
  console.log(`upload_url=${server.links.uploadUrl}`);
  console.log(
    `Hushdrop server listening on ${settings.host}:${server.port}${server.protocols ? ' (HTTPS)' : ''}; ` +
      `data in ${settings.s3 ? server.storage.description : settings.dataDir}; ${describeLimits(settings)}; ` +
      `${await server.ctx.accounts.count()} account(s). Ctrl-C stops it.`,
  );
  if (!settings.publicUrls.baseUrl && (settings.host === '0.0.0.0' || settings.host === '::'))
    console.log('Note: links name the listening address; set PUBLIC_URL to the address people use.');
  let stops = 0;
  const stop = () => {
    stops += 1;
    if (stops === 1) {
      console.log('Stopping: uploads in progress may finish (Ctrl-C again cuts them now)…');
      server.close().then(() => process.exit(0));
    } else server.close({ graceMs: 0 });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function account(settings: ServerSettings, action: string | undefined, name: string | undefined) {
  const file = settings.accountsFile;
  const accounts = await readAccountsFile(file);
  if (action === 'list') {
    console.log(accounts.length ? accounts.map((a) => a.username).join('\n') : `No accounts in ${file}.`);
    return;
  }
  if (!name) throw new UsageError(`account ${action ?? ''} needs a username.`);
  checkUsername(name);
  if (action === 'add') {
    if (accounts.some((a) => a.username === name))
      throw new AccountsFileError(`There is already an account "${name}" in ${file}.`);
    const token = newToken();
    await writeAccountsFile(file, [...accounts, { username: name, tokenHash: await hashToken(token) }]);
    console.log(`Account "${name}" added to ${file}. Its token, shown only now:\n${token}`);
    console.log(
      `Uploads use it as Basic auth, e.g. curl -u '${name}:<token>' -F file=@photo.png <api_url>/v1/Upload`,
    );
    return;
  }
  if (action === 'remove') {
    if (!accounts.some((a) => a.username === name))
      throw new AccountsFileError(`There is no account "${name}" in ${file}.`);
    await writeAccountsFile(
      file,
      accounts.filter((a) => a.username !== name),
    );
    console.log(`Account "${name}" removed from ${file}.`);
    return;
  }
  throw new UsageError(`Unknown account command "${action ?? ''}".`);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function hashTokenCommand(): Promise<void> {
  const given = process.stdin.isTTY ? '' : await readStdin();
  const token = given || newToken();
  if (!given) console.log(`token=${token}`);
  console.log(`tokenHash=${await hashToken(token)}`);
}

async function main(args: string[]): Promise<void> {
  const [command = 'serve', ...rest] = args;
  if (command === 'help' || command === '--help' || command === '-h') return void console.log(USAGE);
  if (command === 'hash-token') return hashTokenCommand();
  const settings = loadSettings();
  if (command === 'serve') return serve(settings);
  if (command === 'account') return account(settings, rest[0], rest[1]);
  throw new UsageError(`Unknown command "${command}".`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  const known =
    err instanceof ConfigError ||
    err instanceof AccountsFileError ||
    err instanceof TokenHashError ||
    err instanceof DataDirInUseError ||
    err instanceof UsageError;
  const code = (err as NodeJS.ErrnoException)?.code;
  if (known) console.error(`hushdrop server: ${(err as Error).message}`);
  else if (code === 'EADDRINUSE' || code === 'EACCES')
    console.error(
      `hushdrop server: cannot listen (${code}): ${(err as Error).message}. Choose another PORT or HOST.`,
    );
  else console.error('hushdrop server: could not start:', err);
  if (err instanceof UsageError) console.error(USAGE);
  process.exit(2);
});
