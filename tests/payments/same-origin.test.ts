// Payment traffic stays on the request's origin (lib/payments/same-origin.ts): redirects to another
// origin, opaque ones (what a browser gives an extension page) and POST redirects are refused with
// a sentence; same-origin GET redirects are followed a few hops; and payment_url must share the
// request's origin.
import { describe, expect, it } from 'vitest';
import { fetchOnOrigin, MAX_SAME_ORIGIN_HOPS, paymentUrlProblem } from '../../lib/payments/same-origin';

/** A fake server: each URL's answer, and every URL asked for, in order. */
function serve(answers: Record<string, () => Response>) {
  const asked: { url: string; redirect: RequestRedirect | undefined; method: string | undefined }[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    asked.push({ url, redirect: init.redirect, method: init.method });
    const answer = answers[url];
    if (!answer) throw new TypeError(`no answer for ${url}`);
    return answer();
  };
  return { fetch, asked };
}

const redirect = (status: number, location: string) => () =>
  new Response(null, { status, headers: { location } });

describe('fetchOnOrigin', () => {
  it('never lets the fetch follow redirects, and returns a plain answer', async () => {
    const { fetch, asked } = serve({ 'https://shop.example/r': () => new Response('ok') });
    const response = await fetchOnOrigin(fetch, 'https://shop.example/r', { method: 'GET' });
    expect(await response.text()).toBe('ok');
    expect(asked).toEqual([{ url: 'https://shop.example/r', redirect: 'manual', method: 'GET' }]);
  });

  it('refuses a 307 to another origin, naming both, and asks the other origin nothing', async () => {
    const { fetch, asked } = serve({ 'http://127.0.0.1:8/r': redirect(307, 'http://127.0.0.1:9/pay') });
    await expect(fetchOnOrigin(fetch, 'http://127.0.0.1:8/r', { method: 'POST' })).rejects.toMatchObject({
      code: 'redirect',
      message:
        "http://127.0.0.1:8 redirected to http://127.0.0.1:9. Payment traffic stays on the request's own site, so Hushdrop sent nothing to http://127.0.0.1:9.",
    });
    expect(asked.map((a) => a.url)).toEqual(['http://127.0.0.1:8/r']);
  });

  it('refuses https to http on the same host (another origin)', async () => {
    const { fetch } = serve({ 'https://shop.example/r': redirect(302, 'http://shop.example/r') });
    await expect(fetchOnOrigin(fetch, 'https://shop.example/r', {})).rejects.toMatchObject({
      code: 'redirect',
    });
  });

  it('refuses an opaque redirect (all a browser shows an extension page) naming the request’s origin', async () => {
    const opaque = Object.defineProperty(new Response(null), 'type', { value: 'opaqueredirect' });
    const { fetch } = serve({ 'https://shop.example/r': () => opaque });
    await expect(fetchOnOrigin(fetch, 'https://shop.example/r', {})).rejects.toMatchObject({
      code: 'redirect',
      message: expect.stringMatching(/^https:\/\/shop\.example answered with a redirect\./),
    });
  });

  it(`follows same-origin GET redirects, at most ${MAX_SAME_ORIGIN_HOPS} hops`, async () => {
    const { fetch, asked } = serve({
      'https://shop.example/a': redirect(301, '/b'),
      'https://shop.example/b': redirect(308, 'https://shop.example/c'),
      'https://shop.example/c': () => new Response('paid'),
    });
    expect(await (await fetchOnOrigin(fetch, 'https://shop.example/a', {})).text()).toBe('paid');
    expect(asked.map((a) => a.url)).toEqual([
      'https://shop.example/a',
      'https://shop.example/b',
      'https://shop.example/c',
    ]);
    const loop = serve({ 'https://shop.example/l': redirect(302, '/l') });
    await expect(fetchOnOrigin(loop.fetch, 'https://shop.example/l', {})).rejects.toMatchObject({
      code: 'redirect',
    });
    expect(loop.asked).toHaveLength(MAX_SAME_ORIGIN_HOPS + 1);
  });

  it('follows no redirect of a POST, even on the same origin: the Payment is sent once', async () => {
    const { fetch, asked } = serve({ 'https://shop.example/pay': redirect(307, '/pay2') });
    await expect(fetchOnOrigin(fetch, 'https://shop.example/pay', { method: 'POST' })).rejects.toMatchObject({
      code: 'redirect',
    });
    expect(asked).toHaveLength(1);
  });

  it('refuses a redirect without a usable Location', async () => {
    const { fetch } = serve({ 'https://shop.example/r': () => new Response(null, { status: 302 }) });
    await expect(fetchOnOrigin(fetch, 'https://shop.example/r', {})).rejects.toMatchObject({
      code: 'redirect',
    });
  });
});

describe('paymentUrlProblem', () => {
  it('allows only the request’s own origin', () => {
    expect(paymentUrlProblem('https://shop.example/r/1', 'https://shop.example/pay/1')).toBeUndefined();
    expect(paymentUrlProblem('https://shop.example/r/1', 'http://127.0.0.1:631/printers')).toMatch(
      /sent to http:\/\/127\.0\.0\.1:631, another site than the one it came from \(https:\/\/shop\.example\)/,
    );
    expect(paymentUrlProblem('https://shop.example/r', 'https://shop.example:8443/pay')).toBeDefined();
    expect(paymentUrlProblem('https://shop.example/r', 'not a url')).toBeDefined();
  });
});
