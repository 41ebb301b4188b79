// The payment page's recent list (entrypoints/payment/RecentPayments.tsx) rendered into a DOM: every
// kind of request shows its amount as the payment page does, in the request's own unit, and a request
// that leaves the amount open says so instead of showing a made-up zero.
import { parseHTML } from 'linkedom';
import { h, render } from 'preact';
import { describe, expect, it } from 'vitest';
import { RecentPayments } from '../../entrypoints/payment/RecentPayments';
import type { PaymentEntry } from '../../platform/storage/history';

const NOW = Date.UTC(2026, 10, 26, 10, 0);

function entry(over: Partial<PaymentEntry>): PaymentEntry {
  return { id: 'e', verdict: 'unsigned', reasons: [], network: 'main', totalSat: '0', time: NOW, ...over };
}

/** The amount cell of each row, in order. */
function amounts(entries: PaymentEntry[]): string[] {
  const { document } = parseHTML('<!doctype html><html><body><main></main></body></html>');
  const main = document.querySelector('main') as unknown as HTMLElement;
  render(h(RecentPayments, { entries: entries.map((e, i) => ({ ...e, id: `e${i}` })) }), main);
  return [...main.querySelectorAll('tbody td.amount')].map((td) => td.textContent ?? '');
}

describe('RecentPayments', () => {
  it('shows each kind’s amount in its own unit: sat for a bitcoin: link, msat for an invoice', () => {
    expect(
      amounts([
        entry({ kind: 'bip21', payee: 'bc1q', amount: { value: '150000', unit: 'sat' }, totalSat: '150000' }),
        entry({
          kind: 'bolt11',
          verdict: 'verified',
          payee: '03ab',
          amount: { value: '21500', unit: 'msat' },
        }),
        entry({ kind: 'bip70', requestUrl: 'https://shop.example/r', totalSat: '150000' }),
      ]),
    ).toEqual(['0.0015 BTC (150,000 sat)', '0.000000215 BTC (21.5 sat)', '0.0015 BTC']);
  });

  it('says the amount is open for a link, invoice or Lightning Address that names none, not 0 BTC', () => {
    expect(
      amounts([
        entry({ kind: 'bip21', payee: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }),
        entry({ kind: 'bolt11', verdict: 'verified', payee: '03e7156ae33b0a208d07' }),
        entry({ kind: 'lnurl', payee: 'alice@shop.example' }),
      ]),
    ).toEqual(['You choose the amount', 'You choose the amount', 'You choose the amount']);
  });
});
