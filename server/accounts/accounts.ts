// The server's accounts: username → scrypt hash of the token, from the config and from the accounts file
// that `npm run server -- account add` writes. The file is read again when it changes, so accounts added
// while the server runs work at once.

import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Admission } from '../limits/admission';
import type { LoginGuard } from './login-guard';
import { checkTokenHash, hashToken, newToken, verifyToken } from './tokens';

export interface AccountEntry {
  username: string;
  tokenHash: string;
}

export class AccountsFileError extends Error {
  override readonly name = 'AccountsFileError';
}

const USERNAME = /^[^\s:]{1,64}$/u;
/** Verified credentials remembered (by a hash of them), so scrypt runs once per token, not per upload. */
const VERIFIED_CACHE_SIZE = 1000;

export function checkUsername(username: string): void {
  if (!USERNAME.test(username))
    throw new AccountsFileError(
      `"${username}" cannot be a username: use 1–64 characters without spaces or ":".`,
    );
}

function checkEntries(entries: unknown, where: string): AccountEntry[] {
  if (!Array.isArray(entries)) throw new AccountsFileError(`${where}: "accounts" must be a list.`);
  return entries.map((entry, i) => {
    const e = entry as Partial<AccountEntry>;
    if (typeof e?.username !== 'string' || typeof e.tokenHash !== 'string')
      throw new AccountsFileError(`${where}: account ${i + 1} needs "username" and "tokenHash".`);
    checkUsername(e.username);
    try {
      checkTokenHash(e.tokenHash);
    } catch (err) {
      throw new AccountsFileError(`${where}: account "${e.username}": ${(err as Error).message}`);
    }
    return { username: e.username, tokenHash: e.tokenHash };
  });
}

/** The accounts in a file (`{"accounts": [...]}`); an absent file has none. */
export async function readAccountsFile(path: string): Promise<AccountEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new AccountsFileError(`The accounts file ${path} cannot be read: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AccountsFileError(`The accounts file ${path} is not valid JSON.`);
  }
  return checkEntries((json as { accounts?: unknown })?.accounts, `The accounts file ${path}`);
}

/** Writes the file whole (temporary file, then rename), readable by the server's user only. */
export async function writeAccountsFile(path: string, accounts: AccountEntry[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify({ accounts }, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, path);
}

// Checked against for unknown usernames, so a wrong name takes as long as a wrong token.
let decoyHash: Promise<string> | undefined;

/** A token check: the account, a wrong username or token, or refused before any hashing (too many failures). */
export type Verified =
  | { ok: true; username: string }
  | { ok: false; why: 'wrong' }
  | { ok: false; why: 'limited'; refusal: Admission & { ok: false } };

export class Accounts {
  private fromFile: AccountEntry[] = [];
  private fileStamp = '';
  private readonly verified = new Map<string, string>();

  constructor(
    private readonly configured: readonly AccountEntry[],
    private readonly file: string | undefined,
    /** Limits failed logins and the hashing they cost (none: every check hashes at once). */
    private readonly guard?: LoginGuard,
  ) {
    checkEntries(configured, 'The config');
  }

  /** Reads the accounts file if it changed since the last read. */
  private async refresh(): Promise<void> {
    if (!this.file) return;
    const info = await stat(this.file).catch(() => null);
    const stamp = info ? `${info.mtimeMs}:${info.size}:${info.ino}` : 'absent';
    if (stamp === this.fileStamp) return;
    this.fromFile = await readAccountsFile(this.file);
    this.fileStamp = stamp;
    this.verified.clear();
  }

  /** Loads the file once at start, so a broken one stops the start with its sentence. */
  async init(): Promise<void> {
    await this.refresh();
  }

  async count(): Promise<number> {
    await this.refresh();
    return this.configured.length + this.fromFile.length;
  }

  /**
   * Whether `token` is `username`'s token, asked from `address`. A token verified before answers at once,
   * whatever strangers send; any other check counts as a failure until it succeeds, and is refused before
   * hashing while the failed logins of the address or the username are used up (login-guard.ts).
   */
  async verify(username: string, token: string, address: string): Promise<Verified> {
    await this.refresh();
    const cacheKey = createHash('sha256').update(`${username}\0${token}`).digest('base64');
    if (this.verified.get(cacheKey) === username) return { ok: true, username };
    const admitted = this.guard?.admit(address, username);
    if (admitted && !admitted.ok) return { ok: false, why: 'limited', refusal: admitted };
    const check = admitted?.check;
    let succeeded = false;
    try {
      const hash = () => this.hashMatches(username, token);
      succeeded = await (check ? check.run(hash) : hash());
    } finally {
      check?.end(succeeded);
    }
    if (!succeeded) return { ok: false, why: 'wrong' };
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.clear();
    this.verified.set(cacheKey, username);
    return { ok: true, username };
  }

  /** scrypt of `token` against the account's hash (against a decoy for an unknown name: as slow). */
  private async hashMatches(username: string, token: string): Promise<boolean> {
    const entry = [...this.configured, ...this.fromFile].find((a) => a.username === username);
    if (!entry) {
      decoyHash ??= hashToken(newToken());
      await verifyToken(token, await decoyHash);
      return false;
    }
    return verifyToken(token, entry.tokenHash);
  }
}
