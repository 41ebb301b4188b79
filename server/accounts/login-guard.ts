// What a token check may cost the server. scrypt (tokens.ts) runs on libuv's thread pool, whose four
// threads also do every disk read and write: unchecked, 200 wrong tokens at once kept the health check
// waiting 10.6 s. So, in this process:
// - failed logins are limited per client address and per username, and counted BEFORE scrypt runs: a check
//   in progress counts as a failure until it succeeds, so a burst is refused (429) without any hashing;
// - at most `scryptConcurrency` checks hash at once (a semaphore, p-limit), leaving the other threads to
//   the disk;
// - a token already verified never comes here (Accounts keeps a cache), so a stranger flooding a username
//   cannot lock out the person who uses it.

import { createHash } from 'node:crypto';
import pLimit, { type LimitFunction } from 'p-limit';
import { addressKey } from '../http/client';
import type { Admission } from '../limits/admission';
import { SlidingWindow } from '../limits/window';

const MINUTE = 60_000;

export interface LoginLimits {
  /** Failed logins per client address per minute (0 = no limit). */
  failedLoginsPerMinutePerAddress: number;
  /** Failed logins per username per minute, whoever sends them (0 = no limit). */
  failedLoginsPerMinutePerUsername: number;
  /** Token checks (scrypt) running at once (0 = no bound). */
  scryptConcurrency: number;
}

/** One kind of count: failures in the last minute, plus the checks in progress, per key. */
class FailureCount {
  private readonly failures: SlidingWindow;
  private readonly checking = new Map<string, number>();

  constructor(
    readonly limit: number,
    private readonly message: string,
  ) {
    this.failures = new SlidingWindow(limit, MINUTE);
  }

  admit(key: string, now: number): Admission {
    const verdict = this.failures.check(key, (this.checking.get(key) ?? 0) + 1, now);
    if (verdict.ok) return verdict;
    return { ok: false, message: this.message, retryAfterMs: Math.min(verdict.retryAfterMs, MINUTE) };
  }

  begin(key: string): void {
    this.checking.set(key, (this.checking.get(key) ?? 0) + 1);
  }

  end(key: string, failed: boolean, now: number): void {
    const left = (this.checking.get(key) ?? 1) - 1;
    if (left > 0) this.checking.set(key, left);
    else this.checking.delete(key);
    if (failed) this.failures.add(key, 1, now);
  }
}

/** The check that was let through: run the hashing with `run`, then say how it went with `end`. */
export interface LoginCheck {
  run<T>(hash: () => Promise<T>): Promise<T>;
  end(succeeded: boolean): void;
}

export class LoginGuard {
  private readonly byAddress: FailureCount | null;
  private readonly byUsername: FailureCount | null;
  private readonly hashing: LimitFunction | null;

  constructor(
    limits: LoginLimits,
    private readonly now: () => number,
  ) {
    this.byAddress =
      limits.failedLoginsPerMinutePerAddress > 0
        ? new FailureCount(
            limits.failedLoginsPerMinutePerAddress,
            'Too many failed logins from your address.',
          )
        : null;
    this.byUsername =
      limits.failedLoginsPerMinutePerUsername > 0
        ? new FailureCount(
            limits.failedLoginsPerMinutePerUsername,
            'Too many failed logins for this username.',
          )
        : null;
    this.hashing = limits.scryptConcurrency > 0 ? pLimit(limits.scryptConcurrency) : null;
  }

  /** Lets a token check go ahead, or refuses it (nothing hashed) while these counts are used up. */
  admit(address: string, username: string): { ok: true; check: LoginCheck } | (Admission & { ok: false }) {
    const now = this.now();
    const addressId = addressKey(address);
    // Usernames are whatever a client sends: counted by a hash, so a long one costs no memory.
    const usernameId = createHash('sha256').update(username).digest('base64');
    for (const [count, key] of [
      [this.byAddress, addressId],
      [this.byUsername, usernameId],
    ] as const) {
      const verdict = count?.admit(key, now);
      if (verdict && !verdict.ok) return verdict;
    }
    this.byAddress?.begin(addressId);
    this.byUsername?.begin(usernameId);
    let ended = false;
    return {
      ok: true,
      check: {
        run: (hash) => (this.hashing ? this.hashing(hash) : hash()),
        end: (succeeded) => {
          if (ended) return;
          ended = true;
          const at = this.now();
          this.byAddress?.end(addressId, !succeeded, at);
          this.byUsername?.end(usernameId, !succeeded, at);
        },
      },
    };
  }
}
