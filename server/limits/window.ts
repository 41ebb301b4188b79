// A sliding-window budget per key (an address, an account): how much was used in the last `windowMs`,
// and when enough of it frees up for a new amount. Kept in memory, per server instance.

interface Use {
  at: number;
  amount: number;
}

export type Take = { ok: true } | { ok: false; retryAfterMs: number };

/** Keys kept at most; past it, keys with nothing in the window are dropped first. */
const MAX_KEYS = 100_000;

export class SlidingWindow {
  private readonly uses = new Map<string, Use[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  private current(key: string, now: number): Use[] {
    const list = this.uses.get(key);
    if (!list) return [];
    const from = now - this.windowMs;
    let drop = 0;
    while (drop < list.length && list[drop]!.at <= from) drop++;
    if (drop > 0) list.splice(0, drop);
    if (list.length === 0) this.uses.delete(key);
    return list;
  }

  /** Whether `amount` fits now, without using it; when not, how long until it would. */
  check(key: string, amount: number, now: number): Take {
    const list = this.current(key, now);
    let used = list.reduce((sum, use) => sum + use.amount, 0);
    if (used + amount <= this.limit) return { ok: true };
    // More than the whole budget never fits: the soonest answer is a full window.
    if (amount > this.limit) return { ok: false, retryAfterMs: this.windowMs };
    for (const use of list) {
      used -= use.amount;
      if (used + amount <= this.limit) return { ok: false, retryAfterMs: use.at + this.windowMs - now };
    }
    return { ok: false, retryAfterMs: this.windowMs };
  }

  /** Uses `amount` if it fits. */
  take(key: string, amount: number, now: number): Take {
    const verdict = this.check(key, amount, now);
    if (verdict.ok) this.add(key, amount, now);
    return verdict;
  }

  /** Uses `amount` whether or not it fits (bytes already received). */
  add(key: string, amount: number, now: number): void {
    if (amount <= 0) return;
    if (!this.uses.has(key) && this.uses.size >= MAX_KEYS) this.prune(now);
    const list = this.current(key, now);
    list.push({ at: now, amount });
    this.uses.set(key, list);
  }

  /** What is left for `key` now. */
  remaining(key: string, now: number): number {
    const used = this.current(key, now).reduce((sum, use) => sum + use.amount, 0);
    return Math.max(0, this.limit - used);
  }

  private prune(now: number): void {
    for (const key of [...this.uses.keys()]) this.current(key, now);
    // Still full of live keys: forget the oldest (a flood of addresses must not grow memory without end).
    for (const key of this.uses.keys()) {
      if (this.uses.size < MAX_KEYS) break;
      this.uses.delete(key);
    }
  }
}
