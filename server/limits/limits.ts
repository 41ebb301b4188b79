// Request and upload-count limits per address and per account, answered with 429 and Retry-After. Counted
// in memory by each server instance (several instances behind one balancer each allow the configured
// amounts; a reverse proxy's own request limits are the shared ones). The daily byte quotas are kept in the
// store instead (byte-quotas.ts).

import type { ServerLimits } from '../config/settings';
import { addressKey } from '../http/client';
import type { Admission } from './admission';
import { SlidingWindow } from './window';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const windowOf = (limit: number, ms: number) => (limit > 0 ? new SlidingWindow(limit, ms) : null);

export class Limits {
  private readonly requests: SlidingWindow | null;
  private readonly uploadsByAddress: SlidingWindow | null;
  private readonly uploadsByAccount: SlidingWindow | null;

  constructor(limits: ServerLimits) {
    this.requests = windowOf(limits.requestsPerMinute, MINUTE);
    this.uploadsByAddress = windowOf(limits.uploadsPerHourPerAddress, HOUR);
    this.uploadsByAccount = windowOf(limits.uploadsPerHourPerAccount, HOUR);
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
}
