// How many payment tabs a web page may have Hushdrop open. A link click reaches the background as
// a message from the content script, and a compromised renderer can send that message as often as
// it likes with no click. Each tab is harmless on its own (it fetches nothing until the person
// presses its button), but a flood of tabs is not: a page tab gets one open payment tab at a time
// and a few per minute. Pure bookkeeping; the background feeds it tab ids and the clock.

/** Payment tabs one web page tab may open in any minute. */
export const OPENS_PER_MINUTE = 3;
const MINUTE_MS = 60_000;

export type OpenVerdict = { ok: true } | { ok: false; reason: 'one-at-a-time' | 'per-minute' };

export class PaymentOpenLimit {
  /** Page tab id → the payment tab it has open ('pending' while the tab is being made). */
  private readonly held = new Map<number, number | 'pending'>();
  /** Page tab id → when it opened payment tabs within the last minute. */
  private readonly recent = new Map<number, number[]>();

  /**
   * Whether page tab `sender` may open a payment tab now; when it may, its slot is taken at once
   * (messages that arrive together cannot all pass), until `placed` or `release`.
   */
  take(sender: number, now: number): OpenVerdict {
    if (this.held.has(sender)) return { ok: false, reason: 'one-at-a-time' };
    const times = (this.recent.get(sender) ?? []).filter((at) => at > now - MINUTE_MS);
    if (times.length >= OPENS_PER_MINUTE) {
      this.recent.set(sender, times);
      return { ok: false, reason: 'per-minute' };
    }
    this.recent.set(sender, [...times, now]);
    this.held.set(sender, 'pending');
    return { ok: true };
  }

  /** The payment tab made for `sender`: it holds the slot until it closes. */
  placed(sender: number, paymentTab: number): void {
    this.held.set(sender, paymentTab);
  }

  /** No tab was made after all (nothing to open): the slot is free again. */
  release(sender: number): void {
    if (this.held.get(sender) === 'pending') this.held.delete(sender);
  }

  /** A tab closed: a payment tab frees its page's slot; a page tab's records go with it. */
  closed(tabId: number): void {
    for (const [sender, tab] of this.held) if (tab === tabId) this.held.delete(sender);
    this.held.delete(tabId);
    this.recent.delete(tabId);
  }
}
