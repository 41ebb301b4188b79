// The payment page's states and the events between them (lib/payments/page-view.ts).
import { describe, expect, it } from 'vitest';
import { checkPaymentText, lnurlRequest } from '../../lib/payments/check';
import { parseLnurl } from '../../lib/payments/lnurl';
import type { LoadedRequest } from '../../lib/payments/load';
import type { LnurlSource, OfflineSource, RequestSource } from '../../lib/payments/page-input';
import { type PageView, pageReducer } from '../../lib/payments/page-view';

type Entry = { id: string; paidAt?: number };
const reduce = pageReducer<Entry>;

const source = (n: number): RequestSource => ({
  kind: 'request',
  requestUrl: `https://shop.example/pay/${n}`,
});
const loaded = (n: number) => ({ requestUrl: source(n).requestUrl }) as LoadedRequest;
const offline: OfflineSource = { kind: 'offline', text: 'bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT' };
const plain = checkPaymentText(offline.text, new Date());
const lnurl: LnurlSource = {
  kind: 'lnurl',
  text: 'alice@shop.example',
  target: parseLnurl('alice@shop.example'),
};
const EMPTY: PageView<Entry> = { state: 'empty' };

describe('the payment page states', () => {
  it('an address alone waits for the person: confirm when allowed, else the permission question', () => {
    for (const s of [source(1), lnurl]) {
      expect(reduce(EMPTY, { type: 'offered', source: s, allowed: true })).toEqual({
        state: 'confirm',
        source: s,
      });
      expect(reduce(EMPTY, { type: 'offered', source: s, allowed: false })).toEqual({
        state: 'permission',
        source: s,
      });
    }
  });

  it('a private address not allowed yet waits on its own card, whatever was shown', () => {
    const shown = reduce(EMPTY, { type: 'offered', source: source(2), allowed: true });
    expect(reduce(shown, { type: 'private-needed', source: source(3) })).toEqual({
      state: 'private',
      source: source(3),
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

  it('text judged offline is shown at once, whatever was going on', () => {
    const loading = reduce(EMPTY, { type: 'fetching', source: source(1) });
    expect(reduce(loading, { type: 'checked', source: offline, checked: plain, entry: { id: 'p' } })).toEqual(
      {
        state: 'checked',
        source: offline,
        checked: plain,
        entry: { id: 'p' },
      },
    );
  });

  it('an LNURL: looked up, its terms shown, then its invoice in their place', () => {
    const loading = reduce(EMPTY, { type: 'fetching', source: lnurl });
    const terms = lnurlRequest(lnurl.target);
    const shown = reduce(loading, { type: 'checked', source: lnurl, checked: terms });
    expect(shown).toEqual({ state: 'checked', source: lnurl, checked: terms });
    const invoice = { ...terms, verdict: 'verified' as const };
    expect(reduce(shown, { type: 'checked', source: lnurl, checked: invoice })).toMatchObject({
      state: 'checked',
      checked: { verdict: 'verified' },
    });
    // Not once the person has moved on to something else.
    const other = reduce(shown, { type: 'fetching', source: source(9) });
    expect(reduce(other, { type: 'checked', source: lnurl, checked: invoice })).toBe(other);
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
    const shownText = reduce(loadingSecond, { type: 'checked', source: offline, checked: plain });
    expect(shownText.state).toBe('checked');
    expect(reduce(shownText, { type: 'fetched', source: second, loaded: loaded(2) })).toBe(shownText);
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
