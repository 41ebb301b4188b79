import { formatDate, t } from '../../lib/i18n';
import type { PaymentEntry } from '../../platform/storage/history';
import { btc, hostOf, verdictWord } from './format';

function reopenHref(entry: PaymentEntry): string {
  const q = new URLSearchParams({ r: entry.requestUrl });
  if (entry.pageUrl) q.set('page', entry.pageUrl);
  return `/payment.html?${q}`;
}

function status(entry: PaymentEntry, now: number): string {
  if (entry.paidAt) return t('payStatusPaid', formatDate(entry.paidAt));
  if (entry.expires !== undefined && entry.expires < now) return t('payBadgeExpired');
  return t('payStatusNotPaid');
}

/** The payment requests viewed in this browser, newest first (merchant text as text only). */
export function RecentPayments({ entries, limit = 10 }: { entries: PaymentEntry[]; limit?: number }) {
  const now = Date.now();
  const shown = entries.slice(0, limit);
  return (
    <section class="card" aria-labelledby="recent-h" id="recent">
      <h2 id="recent-h">{t('payRecentHeading')}</h2>
      {shown.length === 0 ? (
        <p class="muted">{t('payRecentNone')}</p>
      ) : (
        <table class="recent">
          <thead>
            <tr>
              <th scope="col">{t('payRecentViewed')}</th>
              <th scope="col">{t('payRecentVerdict')}</th>
              <th scope="col">{t('payRecentFrom')}</th>
              <th scope="col" class="amount">
                {t('payAmount')}
              </th>
              <th scope="col">{t('payRecentStatus')}</th>
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
                      {formatDate(entry.time)}
                      <span class="sr-only"> {t('payRecentOpenAgain')}</span>
                    </a>
                  </td>
                  <td>
                    <span class={`badge badge-${entry.verdict}`}>{verdictWord(entry.verdict)}</span>
                  </td>
                  <td>
                    {entry.verdict === 'verified' && entry.merchant ? (
                      <bdi>{entry.merchant}</bdi>
                    ) : (
                      <span>{hostOf(entry.requestUrl)}</span>
                    )}
                    {entry.network === 'test' && (
                      <span class="small muted"> {t('payRecentTestNetwork')}</span>
                    )}
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
