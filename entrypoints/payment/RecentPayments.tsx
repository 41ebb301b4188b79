import type { PaymentEntry } from '../../platform/history';
import { btc, hostOf } from './format';

const VERDICT_WORD = { verified: 'Verified', unsigned: 'Unsigned', invalid: 'Invalid' } as const;

function reopenHref(entry: PaymentEntry): string {
  const q = new URLSearchParams({ r: entry.requestUrl });
  if (entry.pageUrl) q.set('page', entry.pageUrl);
  return `/payment.html?${q}`;
}

const when = (ms: number) =>
  new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function status(entry: PaymentEntry, now: number): string {
  if (entry.paidAt) return `Paid ${when(entry.paidAt)}`;
  if (entry.expires !== undefined && entry.expires < now) return 'Expired';
  return 'Not paid here';
}

/** The payment requests viewed in this browser, newest first (merchant text as text only). */
export function RecentPayments({ entries, limit = 10 }: { entries: PaymentEntry[]; limit?: number }) {
  const now = Date.now();
  const shown = entries.slice(0, limit);
  return (
    <section class="card" aria-labelledby="recent-h" id="recent">
      <h2 id="recent-h">Recent payment requests</h2>
      {shown.length === 0 ? (
        <p class="muted">None yet. Payment requests you open are listed here, only in this browser.</p>
      ) : (
        <table class="recent">
          <thead>
            <tr>
              <th scope="col">Viewed</th>
              <th scope="col">Verdict</th>
              <th scope="col">From</th>
              <th scope="col" class="amount">
                Amount
              </th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((entry) => {
              let total: bigint;
              try {
                total = BigInt(entry.totalSat);
              } catch {
                total = 0n;
              }
              return (
                <tr key={entry.id} data-id={entry.id} data-verdict={entry.verdict}>
                  <td>
                    <a href={reopenHref(entry)}>
                      {when(entry.time)}
                      <span class="sr-only"> (open again)</span>
                    </a>
                  </td>
                  <td>
                    <span class={`badge badge-${entry.verdict}`}>{VERDICT_WORD[entry.verdict]}</span>
                  </td>
                  <td>
                    {entry.verdict === 'verified' && entry.merchant ? (
                      <bdi>{entry.merchant}</bdi>
                    ) : (
                      <span>{hostOf(entry.requestUrl)}</span>
                    )}
                    {entry.network === 'test' && <span class="small muted"> (test network)</span>}
                  </td>
                  <td class="amount">{btc(total)}</td>
                  <td>
                    {status(entry, now)}
                    {entry.ackMemo && (
                      <div class="small muted">
                        <bdi>{entry.ackMemo.slice(0, 140)}</bdi>
                      </div>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
