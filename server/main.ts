// `hushdrop-server [<command>]` (installed), `npm run server [-- <command>]` (in the repository): runs the
// Hushdrop server, or does an operator's chores on the store and accounts the server's settings name.
//   (no command) | serve        run it; prints base_url=, api_url=, upload_url= first
//   account add|remove|rotate <name>, account list    the accounts file (tokens shown once, hashes stored)
//   hash-token                  hash a token read from stdin (or a new one) for the config file's "accounts"
//   uploads list [--json]       the uploads (name, size, account, created, expiry, views; never a key)
//   uploads remove <link|name>  take one upload down
// Settings: a config file (CONFIG=path, JSON) and environment variables, which win; see the README.
// Every failure is one sentence on stderr (exit 2 at start, 1 for a command that could not do its job).

import { account, hashTokenCommand, UsageError } from './cli/accounts';
import { COMMAND } from './cli/name';
import { serve } from './cli/serve';
import { CommandError, listUploads, removeUpload } from './cli/uploads';
import { loadSettings } from './config/load';

const USAGE = `Usage: ${COMMAND} [serve | account add|remove|rotate <name> | account list | hash-token
       | uploads list [--json] | uploads remove <link or name>]
Settings come from a config file (CONFIG=/path/config.json) and environment variables (PORT, HOST, DATA_DIR,
STORAGE_URL with the AWS_* variables, PUBLIC_URL, TRUSTED_PROXIES, MAX_UPLOAD_BYTES, REQUIRE_ACCOUNT,
ACCOUNTS_FILE, ACCESS_LOG, METRICS_TOKEN, TLS_CERT, TLS_KEY), which win. Run the commands as the server's
user with its CONFIG, so that they use its data folder and accounts file.`;

async function uploads(action: string | undefined, rest: string[]): Promise<void> {
  const settings = loadSettings();
  if (action === 'list') return listUploads(settings, rest.includes('--json'));
  if (action === 'remove') return removeUpload(settings, rest[0]);
  throw new UsageError(`Unknown uploads command "${action ?? ''}".`);
}

async function main(args: string[]): Promise<void> {
  const [command = 'serve', ...rest] = args;
  if (command === 'help' || command === '--help' || command === '-h') return void console.log(USAGE);
  if (command === 'hash-token') return hashTokenCommand();
  if (command === 'uploads') return uploads(rest[0], rest.slice(1));
  if (command === 'serve') return serve(loadSettings());
  if (command === 'account') return account(loadSettings(), process.env, rest[0], rest[1]);
  throw new UsageError(`Unknown command "${command}".`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  // One sentence, never a stack trace: the errors the server and its commands expect (ConfigError,
  // StartError, DataDirInUseError, AccountsFileError, StorageError…) are written as sentences, and an
  // unexpected one is said by its message.
  console.error(`hushdrop server: ${err instanceof Error ? err.message : String(err)}`);
  if (err instanceof UsageError) console.error(USAGE);
  process.exit(err instanceof CommandError ? 1 : 2);
});
