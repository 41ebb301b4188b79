import { describe, expect, it } from 'vitest';
import { readAtMost } from '../../lib/read-at-most';

/** A chunked answer (no Content-Length) of `chunks`, counting how many the reader pulled. */
function chunked(chunks: Uint8Array[]): { response: Response; pulled: () => number } {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
  return { response: new Response(body), pulled: () => i };
}

describe('readAtMost', () => {
  it('returns a body within the limit whole', async () => {
    const { response } = chunked([new Uint8Array([1, 2]), new Uint8Array([3])]);
    expect(await readAtMost(response, 3)).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('gives up on a chunked answer once it passes the limit, without reading the rest', async () => {
    const { response, pulled } = chunked(Array.from({ length: 100 }, () => new Uint8Array(1024)));
    expect(await readAtMost(response, 4096)).toBeUndefined();
    expect(pulled()).toBeLessThan(10);
  });

  it('refuses up front when Content-Length already says too much', async () => {
    const response = new Response('x'.repeat(10), { headers: { 'content-length': '10' } });
    expect(await readAtMost(response, 5)).toBeUndefined();
  });
});
