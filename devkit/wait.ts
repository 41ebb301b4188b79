// Waiting on a condition: what a test does instead of sleeping for a fixed time.

/**
 * Calls `probe` until it gives a value other than undefined, and returns that value; fails with a
 * sentence naming `what` after `timeout` ms. The pause between probes only spaces out the polling.
 */
export async function until<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeout = 30_000,
): Promise<T> {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`Timed out after ${timeout} ms waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
