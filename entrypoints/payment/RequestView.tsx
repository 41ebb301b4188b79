import { Message } from '../../components/Message';
import { plural, t } from '../../lib/i18n';
import { plainHttpWarning } from '../../lib/payments/http';
import { type EvaluatedOutput, formatTime, hostMismatchWarning } from '../../lib/payments/index';
import type { LoadedRequest } from '../../lib/payments/load';
import { CLOCK_TOLERANCE_S, clockOffsetSeconds, secondsLeft } from '../../lib/payments/timing';
import { btc, formatDuration, hostOf, networkName } from './format';
import { InvalidReasons, VerdictSection, Warnings } from './VerdictLists';

/**
 * The verdict and what the request asks for. Everything that came from the merchant (memo,
 * names, addresses) is rendered as Preact text, inside <bdi> so right-to-left tricks stay put.
 */

/**
 * What the callout says about how the request and the payment travel. Plain http is said there
 * once: a merchant on http has both a plain-http request link (the fetch's warning) and a plain-http
 * payment address (the evaluation's), and the two were one warning said twice in one card.
 */
function transportWarnings(loaded: LoadedRequest): string[] {
  const requestHttp = plainHttpWarning(new URL('http://request.invalid/'), 'request')!;
  const paymentHttp = t('payPaymentUrlPlainHttp');
  const fetchedOverHttp = loaded.fetchWarnings.some((w) => w.startsWith(requestHttp));
  const paysOverHttp = loaded.evaluation.warnings.includes(paymentHttp);
  if (fetchedOverHttp && paysOverHttp)
    return [...loaded.fetchWarnings.filter((w) => !w.startsWith(requestHttp)), t('payPlainHttpBoth')];
  return paysOverHttp ? [...loaded.fetchWarnings, paymentHttp] : loaded.fetchWarnings;
}

export function VerdictCard({ loaded, now }: { loaded: LoadedRequest; now: Date }) {
  const { evaluation, site } = loaded;
  const { verdict, merchant } = evaluation;
  const plainHttp = transportWarnings(loaded);
  const paymentHttp = t('payPaymentUrlPlainHttp');
  const expired = (secondsLeft(evaluation.details, now) ?? 0) < 0;
  const fromPage = site.from === 'page';
  // The host mismatch sentence is shown by the site check below, not twice.
  const mismatch = merchant && hostMismatchWarning(merchant.commonName, site.host);
  const warnings = evaluation.warnings.filter((w) => w !== mismatch && w !== paymentHttp);
  return (
    <VerdictSection
      verdict={verdict}
      expired={expired}
      heading={
        <>
          {verdict === 'verified' && merchant && (
            <span>
              <Message id="payVerifiedHeading" args={[<bdi id="merchant-name">{merchant.commonName}</bdi>]} />
            </span>
          )}
          {verdict === 'unsigned' && <span>{t('payUnsignedHeading')}</span>}
          {verdict === 'invalid' && <span>{t('payInvalidHeading')}</span>}
        </>
      }
    >
      {plainHttp.length > 0 && (
        <div class="callout" id="http-warning">
          {plainHttp.map((w) => (
            <p key={w} class="warn">
              {t('payWarning', w)}
            </p>
          ))}
        </div>
      )}
      {verdict === 'verified' && merchant && (
        <>
          <p>
            <Message
              id={merchant.trustAnchor !== merchant.issuer ? 'paySignedByUnder' : 'paySignedBy'}
              args={[
                <>
                  <bdi>{merchant.commonName}</bdi>
                  {merchant.organization ? (
                    <>
                      {' '}
                      (<bdi>{merchant.organization}</bdi>)
                    </>
                  ) : null}
                </>,
                <bdi id="merchant-issuer">{merchant.issuer}</bdi>,
                <bdi>{merchant.trustAnchor}</bdi>,
              ]}
            />
          </p>
          {evaluation.hostMatches === true && (
            <p class="ok" id="site-check">
              ✓ {t(fromPage ? 'paySiteMatchesPage' : 'paySiteMatchesRequest', site.host)}
            </p>
          )}
          {evaluation.hostMatches === false && (
            <p class="error" id="site-check">
              ✗{' '}
              <Message
                id={fromPage ? 'paySiteMismatchPage' : 'paySiteMismatchRequest'}
                args={[site.host, <bdi>{merchant.commonName}</bdi>]}
              />
            </p>
          )}
        </>
      )}
      {verdict === 'unsigned' && <p>{t('payUnsignedText', hostOf(loaded.requestUrl))}</p>}
      {verdict === 'invalid' && <InvalidReasons reasons={evaluation.reasons} />}
      <Warnings warnings={warnings} />
    </VerdictSection>
  );
}

function OutputRow({ output, index }: { output: EvaluatedOutput; index: number }) {
  return (
    <tr>
      <td>{index + 1}</td>
      <td>
        {output.address ? (
          <bdi class="mono">{output.address}</bdi>
        ) : (
          <>
            <span class="warn">{t('payCustomScript')}</span>{' '}
            <span class="small muted">{t('payCustomScriptNote')}</span>
            <div class="mono small">{output.script.slice(0, 160) || t('payEmpty')}</div>
          </>
        )}
      </td>
      <td class="amount">{output.amount === 0n ? t('payAnyAmount') : btc(output.amount)}</td>
    </tr>
  );
}

/** Time left until `expires` (seconds since the epoch), or how long ago it passed. */
export function ExpiryLine({ expires, now }: { expires: bigint | undefined; now: Date }) {
  const left = secondsLeft({ expires }, now);
  if (left === undefined || expires === undefined) return <span>{t('payNoExpiry')}</span>;
  if (left < 0) {
    return (
      <span class="error" id="expiry">
        {t('payExpiredAgo', formatDuration(-left), formatTime(expires))}
      </span>
    );
  }
  return (
    <span id="expiry" class={left < 120 ? 'warn' : ''}>
      {t('payTimeLeft', formatDuration(left), formatTime(expires))}
    </span>
  );
}

function ClockWarning({ loaded, now }: { loaded: LoadedRequest; now: Date }) {
  const offset = clockOffsetSeconds(loaded.evaluation.details, now);
  // Compare at the moment it was fetched: a page left open for an hour is not a clock problem.
  const atFetch = offset - Math.floor((now.getTime() - loaded.evaluatedAt.getTime()) / 1000);
  if (Math.abs(atFetch) <= CLOCK_TOLERANCE_S) return null;
  return (
    <p class="warn" id="clock-warning">
      {atFetch < 0
        ? t('payClockAhead', formatDuration(-atFetch))
        : t('payClockBehind', formatDuration(atFetch))}
    </p>
  );
}

export function DetailsCard({ loaded, now }: { loaded: LoadedRequest; now: Date }) {
  const { evaluation } = loaded;
  const { details } = evaluation;
  const invalid = evaluation.verdict === 'invalid';
  return (
    <section class="card" aria-labelledby="details-h" id="details">
      <h2 id="details-h">{t(invalid ? 'payDetailsHeadingInvalid' : 'payDetailsHeading')}</h2>
      <dl class="facts">
        <dt>{t('payMemo')}</dt>
        <dd>
          {details.memo ? (
            <blockquote class="memo" id="memo">
              <bdi>{details.memo}</bdi>
            </blockquote>
          ) : (
            <span class="muted">{t('payNoMemo')}</span>
          )}
        </dd>
        <dt>{t('payNetwork')}</dt>
        <dd id="network">{networkName(details.network)}</dd>
        <dt>{t('payTotal')}</dt>
        <dd id="total">
          <strong>{details.total === 0n ? t('payYouChoose') : btc(details.total)}</strong>
        </dd>
        <dt>{t('payExpires')}</dt>
        <dd>
          <ExpiryLine expires={details.expires} now={now} />
        </dd>
        <dt>{t('payMade')}</dt>
        <dd>{formatTime(details.time)}</dd>
        <dt>{t('payFetchedFrom')}</dt>
        <dd class="mono">{loaded.requestUrl}</dd>
        {loaded.pageUrl && (
          <>
            <dt>{t('payFoundOn')}</dt>
            <dd class="mono">{loaded.pageUrl}</dd>
          </>
        )}
      </dl>
      <ClockWarning loaded={loaded} now={now} />
      <table id="outputs">
        <caption class="sr-only">{t('payOutputsCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">{t('payPayTo')}</th>
            <th scope="col" class="amount">
              {t('payAmount')}
            </th>
          </tr>
        </thead>
        <tbody>
          {details.outputs.map((output, i) => (
            <OutputRow key={i} output={output} index={i} />
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2}>
              {t('payTotal')}
            </th>
            <td class="amount">
              <strong>{btc(details.total)}</strong>
            </td>
          </tr>
        </tfoot>
      </table>
      {details.unknownFieldCount > 0 && (
        <p class="small muted">{plural('payUnknownFields', details.unknownFieldCount)}</p>
      )}
    </section>
  );
}
