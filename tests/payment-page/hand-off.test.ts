// The hand-off from a clicked payment link to the payment page (platform/payments/hand-off.ts), with
// WXT's fake browser standing in for session storage.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { handOffClickedPayment, takeClickedPayment } from '../../platform/payments/hand-off';

const idOf = (pageUrl: string) => new URL(pageUrl).searchParams.get('open')!;

beforeEach(() => {
  fakeBrowser.reset();
  vi.useRealTimers();
});

describe('handing a clicked payment link to the payment page', () => {
  it('the page takes the request and the page it was on, once', async () => {
    const url = await handOffClickedPayment(
      {
        requestUrl: 'https://shop.example/pay/1',
        pageUrl: 'https://shop.example/cart',
      },
      'page',
    );
    expect(url).toMatch(/\/payment\.html\?open=[0-9a-f-]{36}$/);
    // The address holds nothing but the id.
    expect(url).not.toContain('shop.example');
    const id = idOf(url!);
    expect(await takeClickedPayment(id)).toEqual({
      requestUrl: 'https://shop.example/pay/1',
      pageUrl: 'https://shop.example/cart',
      fromMenu: false,
    });
    expect(await takeClickedPayment(id)).toBeUndefined();
    expect(await fakeBrowser.storage.session.get(null)).toEqual({});
  });

  it('each click gets its own id', async () => {
    const a = await handOffClickedPayment({ requestUrl: 'https://shop.example/pay/1' }, 'page');
    const b = await handOffClickedPayment({ requestUrl: 'https://shop.example/pay/1' }, 'page');
    expect(idOf(a!)).not.toBe(idOf(b!));
    expect(await takeClickedPayment(idOf(b!))).toEqual({
      requestUrl: 'https://shop.example/pay/1',
      fromMenu: false,
    });
    expect(await takeClickedPayment(idOf(a!))).toEqual({
      requestUrl: 'https://shop.example/pay/1',
      fromMenu: false,
    });
  });

  it('refuses a request that is not a web address, and drops a page that is not one', async () => {
    expect(await handOffClickedPayment({ requestUrl: 'javascript:alert(1)' }, 'page')).toBeUndefined();
    expect(await handOffClickedPayment({ requestUrl: 'not a url' }, 'page')).toBeUndefined();
    expect(
      await handOffClickedPayment({ requestUrl: undefined as unknown as string }, 'page'),
    ).toBeUndefined();
    const url = await handOffClickedPayment(
      { requestUrl: 'http://127.0.0.1:9/r', pageUrl: 'file:///x' },
      'page',
    );
    expect(await takeClickedPayment(idOf(url!))).toEqual({
      requestUrl: 'http://127.0.0.1:9/r',
      fromMenu: false,
    });
  });

  it('an unknown or malformed id gives nothing', async () => {
    await handOffClickedPayment({ requestUrl: 'https://shop.example/pay/1' }, 'page');
    expect(await takeClickedPayment(crypto.randomUUID())).toBeUndefined();
    expect(await takeClickedPayment('')).toBeUndefined();
    expect(await takeClickedPayment('../settings')).toBeUndefined();
  });

  it('a hand-off no page took is dropped after ten minutes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const stale = await handOffClickedPayment({ requestUrl: 'https://shop.example/old' }, 'page');
    vi.setSystemTime(Date.now() + 11 * 60_000);
    const fresh = await handOffClickedPayment({ requestUrl: 'https://shop.example/new' }, 'page');
    expect(await takeClickedPayment(idOf(stale!))).toBeUndefined();
    expect(await takeClickedPayment(idOf(fresh!))).toEqual({
      requestUrl: 'https://shop.example/new',
      fromMenu: false,
    });
  });

  it('re-checks a page’s text with the parser: text of no payment form is not handed over', async () => {
    // Our content script sends only links the classifier named; anything else is a forged message.
    expect(await handOffClickedPayment({ text: 'hello there' }, 'page')).toBeUndefined();
    expect(await handOffClickedPayment({ text: 'ftp://x.example/' }, 'page')).toBeUndefined();
    // A link of a known form that cannot be read is handed over: the payment page says why.
    const unreadable = await handOffClickedPayment({ text: ' bitcoin:?r=javascript%3Aalert(1) ' }, 'page');
    expect(await takeClickedPayment(idOf(unreadable!))).toEqual({
      text: 'bitcoin:?r=javascript%3Aalert(1)',
      fromMenu: false,
    });
    // A bitcoin: link naming a BIP70 request opens that request, as the page fetches it.
    const bip72 = await handOffClickedPayment(
      { text: 'bitcoin:?r=https%3A%2F%2Fshop.example%2Fi%2F1' },
      'page',
    );
    expect(await takeClickedPayment(idOf(bip72!))).toEqual({
      requestUrl: 'https://shop.example/i/1',
      fromMenu: false,
    });
    // Text the person selected goes on as it is, for the payment page to say what it is.
    const selected = await handOffClickedPayment({ text: 'hello there' }, 'menu');
    expect(await takeClickedPayment(idOf(selected!))).toEqual({ text: 'hello there', fromMenu: true });
  });
});
