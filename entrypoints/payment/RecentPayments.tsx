import { formatDate, t } from '../../lib/i18n';
import { formatAmountForPeople } from '../../lib/payments/amounts';
import type { PaymentEntry } from '../../platform/storage/history';
import { btc, hostOf, verdictWord } from './format';

function reopenHref(entry: PaymentEntry): string {
  const q = new URLSearchParams(entry.requestUrl ? { r: entry.requestUrl } : { uri: entry.text ?? '' });
  if (entry.pageUrl) q.set('page', entry.pageUrl);
  return `/payment.html?${q}`;
}

/** Who asks: the verified merchant, else the payee (address, node, Lightning Address), else the host. */
function fromOf(entry: PaymentEntry): string {
  if (entry.verdict === 'verified' && entry.merchant) return entry.merchant;
  if (entry.requestUrl) return hostOf(entry.requestUrl);
  return entry.payee ?? '';
}

function amountOf(entry: PaymentEntry): string {
  try {
    if (entry.amount)
      return formatAmountForPeople({ value: BigInt(entry.amount.value), unit: entry.amount.unit });
    // A link, invoice or LNURL without an amount leaves it to the payer, as its page says; its
    // totalSat is only a placeholder 0.
    if (entry.kind && entry.kind !== 'bip70') return t('payYouChoose');
    return btc(BigInt(entry.totalSat));
  } catch {
    return btc(0n);
  }
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
              const from = fromOf(entry);
              return (
                <tr
                  key={entry.id}
                  data-id={entry.id}
                  data-verdict={entry.verdict}
                  data-kind={entry.kind ?? 'bip70'}
                >
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
                    {entry.requestUrl ? (
                      <bdi>{from}</bdi>
                    ) : (
                      // Node keys and addresses are long: their start is enough to tell them apart here.
                      <bdi class="mono small">{from.length > 24 ? `${from.slice(0, 24)}…` : from}</bdi>
                    )}
                    {entry.network && entry.network !== 'main' && (
                      <span class="small muted"> {t('payRecentTestNetwork')}</span>
                    )}
                  </td>
                  <td class="amount">{amountOf(entry)}</td>
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
