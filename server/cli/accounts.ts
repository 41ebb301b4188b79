// `account add|remove|list|rotate <name>` and `hash-token`. Every account command says which accounts
// file it reads or changes, and where that choice came from: run without the server's CONFIG (or as
// another user), a command would quietly manage another file than the one the server reads.

import { AccountsFileError, checkUsername, readAccountsFile, writeAccountsFile } from '../accounts/accounts';
import { hashToken, newToken } from '../accounts/tokens';
import type { ServerSettings } from '../config/settings';
import { serverUser } from '../start-error';
import { COMMAND } from './name';

export class UsageError extends Error {}

/** Where the accounts file's path came from, in words. */
function fileOrigin(env: NodeJS.ProcessEnv): { words: string; defaulted: boolean } {
  if (env.ACCOUNTS_FILE) return { words: 'ACCOUNTS_FILE', defaulted: false };
  if (env.CONFIG) return { words: `the config file CONFIG=${env.CONFIG}`, defaulted: false };
  if (env.DATA_DIR) return { words: 'DATA_DIR', defaulted: false };
  return { words: `the default data folder of user ${serverUser()}`, defaulted: true };
}

function sayWhichFile(file: string, env: NodeJS.ProcessEnv): void {
  const origin = fileOrigin(env);
  console.error(`Accounts file: ${file} (from ${origin.words}).`);
  if (origin.defaulted)
    console.error(
      'Note: no CONFIG, ACCOUNTS_FILE or DATA_DIR is set. A server started with a config file, or as another ' +
        `user, reads another accounts file: run account commands as the server's user with its CONFIG, e.g. ` +
        `sudo -u hushdrop CONFIG=/etc/hushdrop/config.json ${COMMAND} account add <name>`,
    );
}

const tokenUse = (name: string) =>
  `Uploads use it as Basic auth, e.g. curl -u '${name}:<token>' -F file=@photo.png <api_url>/v1/Upload`;

export async function account(
  settings: ServerSettings,
  env: NodeJS.ProcessEnv,
  action: string | undefined,
  name: string | undefined,
): Promise<void> {
  if (!['add', 'remove', 'list', 'rotate'].includes(action ?? ''))
    throw new UsageError(`Unknown account command "${action ?? ''}".`);
  const file = settings.accountsFile;
  sayWhichFile(file, env);
  const accounts = await readAccountsFile(file);
  if (action === 'list') {
    console.log(accounts.length ? accounts.map((a) => a.username).join('\n') : `No accounts in ${file}.`);
    if (settings.accounts.length)
      console.log(`(and in the config file: ${settings.accounts.map((a) => a.username).join(', ')})`);
    return;
  }
  if (!name) throw new UsageError(`account ${action} needs a username.`);
  checkUsername(name);
  const known = accounts.some((a) => a.username === name);
  if (action === 'add') {
    if (known) throw new AccountsFileError(`There is already an account "${name}" in ${file}.`);
    const token = newToken();
    await writeAccountsFile(file, [...accounts, { username: name, tokenHash: await hashToken(token) }]);
    console.log(`Account "${name}" added to ${file}. Its token, shown only now:\n${token}`);
    console.log(tokenUse(name));
    return;
  }
  if (!known) {
    const inConfig = settings.accounts.some((a) => a.username === name);
    throw new AccountsFileError(
      inConfig
        ? `"${name}" is an account of the config file, not of ${file}: change its "tokenHash" there (${COMMAND} hash-token).`
        : `There is no account "${name}" in ${file}.`,
    );
  }
  if (action === 'remove') {
    await writeAccountsFile(
      file,
      accounts.filter((a) => a.username !== name),
    );
    console.log(`Account "${name}" removed from ${file}.`);
    return;
  }
  // rotate: one write of the whole file (a temporary file renamed over it), so a server reading it sees the
  // old token or the new one, never the account missing.
  const token = newToken();
  const tokenHash = await hashToken(token);
  await writeAccountsFile(
    file,
    accounts.map((a) => (a.username === name ? { username: name, tokenHash } : a)),
  );
  console.log(
    `The token of "${name}" was replaced in ${file}; the old one no longer works. The new one, shown only now:\n${token}`,
  );
  console.log(tokenUse(name));
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

export async function hashTokenCommand(): Promise<void> {
  const given = process.stdin.isTTY ? '' : await readStdin();
  const token = given || newToken();
  if (!given) console.log(`token=${token}`);
  console.log(`tokenHash=${await hashToken(token)}`);
}
