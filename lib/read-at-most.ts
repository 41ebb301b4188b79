// Reads a response body of a known small kind (an info answer), giving up as soon as it passes a
// limit: a Content-Length is only a claim, and a chunked answer has none.

/** The body's bytes, or undefined once it is longer than `limit` (the rest is not read). */
export async function readAtMost(response: Response, limit: number): Promise<Uint8Array | undefined> {
  if (Number(response.headers.get('content-length') ?? 0) > limit) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array(0);
  const out = new Uint8Array(limit);
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out.subarray(0, total);
    if (total + value.length > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    out.set(value, total);
    total += value.length;
  }
}
