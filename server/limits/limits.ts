// Rate limits and quotas per address and per account, answered with 429 and Retry-After. Counted in memory
// by each server instance (several instances behind one balancer each allow the configured amounts).

import type { ServerLimits } from '../config/settings';
import { addressKey } from '../http/client';
import { bytesReadable } from '../http/responses';
import { SlidingWindow } from './window';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export type Admission = { ok: true } | { ok: false; message: string; retryAfterMs: number };

export interface ByteBudget {
  /** Bytes this upload may have at most (Infinity when unlimited). */
  bytes: number;
  message: string;
  /** When an upload of `size` bytes would fit. */
  retryAfterMs(size: number): number;
}

const windowOf = (limit: number, ms: number) => (limit > 0 ? new SlidingWindow(limit, ms) : null);

export class Limits {
  private readonly requests: SlidingWindow | null;
  private readonly uploadsByAddress: SlidingWindow | null;
  private readonly uploadsByAccount: SlidingWindow | null;
  private readonly bytesByAddress: SlidingWindow | null;
  private readonly bytesByAccount: SlidingWindow | null;

  constructor(limits: ServerLimits) {
    this.requests = windowOf(limits.requestsPerMinute, MINUTE);
    this.uploadsByAddress = windowOf(limits.uploadsPerHourPerAddress, HOUR);
    this.uploadsByAccount = windowOf(limits.uploadsPerHourPerAccount, HOUR);
    this.bytesByAddress = windowOf(limits.uploadBytesPerDayPerAddress, DAY);
    this.bytesByAccount = windowOf(limits.uploadBytesPerDayPerAccount, DAY);
  }

  /** One request from `address` (every route but health). */
  admitRequest(address: string, now: number): Admission {
    const taken = this.requests?.take(addressKey(address), 1, now) ?? { ok: true };
    if (taken.ok) return taken;
    return { ok: false, message: 'Too many requests from your address.', retryAfterMs: taken.retryAfterMs };
  }

  /** One more upload from this address or account, if the hourly counts allow it. */
  admitUpload(address: string, username: string | undefined, now: number): Admission {
    const byAccount = username !== undefined ? this.uploadsByAccount : null;
    const accountCheck = byAccount?.check(username!, 1, now) ?? { ok: true };
    if (!accountCheck.ok)
      return {
        ok: false,
        message: 'This account has made too many uploads this hour.',
        retryAfterMs: accountCheck.retryAfterMs,
      };
    const taken = this.uploadsByAddress?.take(addressKey(address), 1, now) ?? { ok: true };
    if (!taken.ok)
      return {
        ok: false,
        message: 'Too many uploads from your address this hour.',
        retryAfterMs: taken.retryAfterMs,
      };
    byAccount?.add(username!, 1, now);
    return { ok: true };
  }

  /** What is left of the daily byte quotas: the smaller of the address's and the account's. */
  uploadBytesLeft(address: string, username: string | undefined, now: number): ByteBudget {
    const key = addressKey(address);
    const byAccount = username !== undefined ? this.bytesByAccount : null;
    const addressLeft = this.bytesByAddress?.remaining(key, now) ?? Number.POSITIVE_INFINITY;
    const accountLeft = byAccount?.remaining(username!, now) ?? Number.POSITIVE_INFINITY;
    const account = accountLeft < addressLeft;
    const window = account ? byAccount : this.bytesByAddress;
    const who = account ? 'This account' : 'Your address';
    const bytes = Math.min(addressLeft, accountLeft);
    return {
      bytes,
      message: `${who} has used its upload quota for today (${bytesReadable(window?.limit ?? 0)} a day; ${bytesReadable(bytes)} left).`,
      retryAfterMs: (size) => {
        const verdict = window?.check(account ? username! : key, size, now);
        return verdict && !verdict.ok ? verdict.retryAfterMs : 0;
      },
    };
  }

  /** Counts a stored upload's bytes against the daily quotas. */
  chargeUpload(address: string, username: string | undefined, bytes: number, now: number): void {
    this.bytesByAddress?.add(addressKey(address), bytes, now);
    if (username !== undefined) this.bytesByAccount?.add(username, bytes, now);
  }
}
