// The payment page's states and the events between them (lib/payments/page-view.ts).
import { describe, expect, it } from 'vitest';
import type { LoadedRequest } from '../../lib/payments/load';
import type { AddressSource, RequestSource } from '../../lib/payments/page-input';
import { type PageView, pageReducer } from '../../lib/payments/page-view';
import { parseBitcoinUri } from '../../lib/payments/uri';

type Entry = { id: string; paidAt?: number };
const reduce = pageReducer<Entry>;

const source = (n: number): RequestSource => ({
  kind: 'request',
  requestUrl: `https://shop.example/pay/${n}`,
});
const loaded = (n: number) => ({ requestUrl: source(n).requestUrl }) as LoadedRequest;
const address: AddressSource = {
  kind: 'address',
  address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
  network: 'main',
  uri: parseBitcoinUri('bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT'),
};
const EMPTY: PageView<Entry> = { state: 'empty' };

describe('the payment page states', () => {
  it('an address alone waits for the person: confirm when allowed, else the permission question', () => {
    expect(reduce(EMPTY, { type: 'offered', source: source(1), allowed: true })).toEqual({
      state: 'confirm',
      source: source(1),
    });
    expect(reduce(EMPTY, { type: 'offered', source: source(1), allowed: false })).toEqual({
      state: 'permission',
      source: source(1),
    });
  });

  it('fetching, then the request with its history entry, or the history error', () => {
    const s = source(1);
    const loading = reduce(EMPTY, { type: 'fetching', source: s });
    expect(loading).toEqual({ state: 'loading', source: s });
    expect(reduce(loading, { type: 'fetched', source: s, loaded: loaded(1), entry: { id: 'a' } })).toEqual({
      state: 'loaded',
      source: s,
      loaded: loaded(1),
      entry: { id: 'a' },
    });
    expect(
      reduce(loading, { type: 'fetched', source: s, loaded: loaded(1), historyError: 'refused' }),
    ).toEqual({ state: 'loaded', source: s, loaded: loaded(1), historyError: 'refused' });
  });

  it('drops the outcome of a request the person has since replaced', () => {
    const first = source(1);
    const second = source(2);
    const loadingSecond = reduce(reduce(EMPTY, { type: 'fetching', source: first }), {
      type: 'fetching',
      source: second,
    });
    expect(reduce(loadingSecond, { type: 'fetched', source: first, loaded: loaded(1) })).toBe(loadingSecond);
    expect(reduce(loadingSecond, { type: 'failed', source: first, message: 'late', retry: true })).toBe(
      loadingSecond,
    );
    const shownAddress = reduce(loadingSecond, { type: 'address', source: address });
    expect(shownAddress).toEqual({ state: 'address', source: address });
    expect(reduce(shownAddress, { type: 'fetched', source: second, loaded: loaded(2) })).toBe(shownAddress);
  });

  it('a failure keeps its request for another try; one without a request replaces anything', () => {
    const s = source(3);
    const loading = reduce(EMPTY, { type: 'fetching', source: s });
    expect(reduce(loading, { type: 'failed', source: s, message: 'No answer.', retry: true })).toEqual({
      state: 'failed',
      source: s,
      message: 'No answer.',
      retry: true,
    });
    expect(reduce(loading, { type: 'failed', message: 'Unreadable.', retry: false })).toEqual({
      state: 'failed',
      message: 'Unreadable.',
      retry: false,
    });
  });

  it('paid marks the shown request only', () => {
    const s = source(4);
    const shown = reduce(reduce(EMPTY, { type: 'fetching', source: s }), {
      type: 'fetched',
      source: s,
      loaded: loaded(4),
      entry: { id: 'e' },
    });
    expect(reduce(shown, { type: 'paid', entry: { id: 'e', paidAt: 5 } })).toMatchObject({
      state: 'loaded',
      entry: { id: 'e', paidAt: 5 },
    });
    expect(reduce(EMPTY, { type: 'paid', entry: { id: 'e', paidAt: 5 } })).toBe(EMPTY);
  });
});
