import type { EvaluatedOutput } from '../../lib/payments/index';
import {
  CLOCK_TOLERANCE_S,
  clockOffsetSeconds,
  type LoadedRequest,
  secondsLeft,
} from '../../platform/payment-flow';
import { btc, formatDuration, formatSeconds, hostOf, networkName } from './format';

/**
 * The verdict and what the request asks for. Everything that came from the merchant (memo,
 * names, addresses) is rendered as Preact text, inside <bdi> so right-to-left tricks stay put.
 */

const HEADLINE = {
  verified: 'Verified',
  unsigned: 'Unsigned',
  invalid: 'Invalid',
} as const;

export function VerdictCard({ loaded, now }: { loaded: LoadedRequest; now: Date }) {
  const { evaluation, site } = loaded;
  const { verdict, merchant } = evaluation;
  const plainHttp = loaded.fetchWarnings;
  const expired = (secondsLeft(evaluation.details, now) ?? 0) < 0;
  const siteWord = site.from === 'page' ? 'the site you came from' : 'the address the request came from';
  // The host mismatch sentence is shown by the site check below, not twice.
  const warnings = evaluation.warnings.filter(
    (w) => !(merchant && w.includes('which is not the site you are on')),
  );
  return (
    <section
      class={`card verdict verdict-${verdict}${expired ? ' verdict-expired' : ''}`}
      aria-labelledby="verdict-h"
      id="verdict"
      data-verdict={verdict}
    >
      <h2 id="verdict-h">
        <span class={`badge badge-${verdict}`}>{HEADLINE[verdict]}</span>
        {expired && <span class="badge badge-invalid">Expired</span>}
        {verdict === 'verified' && merchant && (
          <span>
            Payment request from <bdi id="merchant-name">{merchant.commonName}</bdi>
          </span>
        )}
        {verdict === 'unsigned' && <span>Nothing proves who made this payment request</span>}
        {verdict === 'invalid' && <span>Do not pay this payment request</span>}
      </h2>
      {plainHttp.length > 0 && (
        <div class="callout" id="http-warning">
          {plainHttp.map((w) => (
            <p key={w} class="warn">
              Warning: {w}
            </p>
          ))}
        </div>
      )}
      {verdict === 'verified' && merchant && (
        <>
          <p>
            Signed by the holder of a certificate for <bdi>{merchant.commonName}</bdi>
            {merchant.organization ? (
              <>
                {' '}
                (<bdi>{merchant.organization}</bdi>)
              </>
            ) : null}
            , issued by <bdi id="merchant-issuer">{merchant.issuer}</bdi>
            {merchant.trustAnchor !== merchant.issuer ? (
              <>
                {' '}
                under <bdi>{merchant.trustAnchor}</bdi>
              </>
            ) : null}
            .
          </p>
          {evaluation.hostMatches === true && (
            <p class="ok" id="site-check">
              ✓ This matches {siteWord} ({site.host}).
            </p>
          )}
          {evaluation.hostMatches === false && (
            <p class="error" id="site-check">
              ✗ This certificate is not for {siteWord} ({site.host}). A valid certificate only proves a domain
              name: make sure <bdi>{merchant.commonName}</bdi> is who you mean to pay.
            </p>
          )}
        </>
      )}
      {verdict === 'unsigned' && (
        <p>
          It came from {hostOf(loaded.requestUrl)}, but no certificate says who made it, so Hushdrop shows no
          merchant name.
        </p>
      )}
      {verdict === 'invalid' && (
        <>
          <p>Hushdrop found problems that make this request untrustworthy:</p>
          <ul id="reasons">
            {evaluation.reasons.map((r) => (
              <li key={r} class="error">
                {r}
              </li>
            ))}
          </ul>
        </>
      )}
      {warnings.length > 0 && (
        <ul id="warnings" aria-label="Warnings">
          {warnings.map((w) => (
            <li key={w} class="warn">
              {w}
            </li>
          ))}
        </ul>
      )}
    </section>
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
            <span class="warn">Custom script</span>{' '}
            <span class="small muted">(not a standard address; most wallets cannot check where it goes)</span>
            <div class="mono small">{output.script.slice(0, 160) || 'empty'}</div>
          </>
        )}
      </td>
      <td class="amount">{output.amount === 0n ? 'any amount' : btc(output.amount)}</td>
    </tr>
  );
}

export function ExpiryLine({ loaded, now }: { loaded: LoadedRequest; now: Date }) {
  const { details } = loaded.evaluation;
  const left = secondsLeft(details, now);
  if (left === undefined) return <span>Does not expire.</span>;
  if (left < 0) {
    return (
      <span class="error" id="expiry">
        Expired {formatDuration(-left)} ago ({formatSeconds(details.expires!)}). Do not pay it: ask the
        merchant for a new one.
      </span>
    );
  }
  return (
    <span id="expiry" class={left < 120 ? 'warn' : ''}>
      {formatDuration(left)} left (until {formatSeconds(details.expires!)}).
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
        ? `This request says it was made ${formatDuration(-atFetch)} in the future: your computer’s clock or the merchant’s is wrong, so the time left shown here may be off.`
        : `This request says it was made ${formatDuration(atFetch)} before you opened it. If that is not so, your computer’s clock or the merchant’s is wrong, and the time left shown here may be off.`}
    </p>
  );
}

export function DetailsCard({ loaded, now }: { loaded: LoadedRequest; now: Date }) {
  const { evaluation } = loaded;
  const { details } = evaluation;
  const invalid = evaluation.verdict === 'invalid';
  return (
    <section class="card" aria-labelledby="details-h" id="details">
      <h2 id="details-h">
        {invalid ? 'What the request claims (not to be relied on)' : 'What the merchant asks for'}
      </h2>
      <dl class="facts">
        <dt>Memo</dt>
        <dd>
          {details.memo ? (
            <blockquote class="memo" id="memo">
              <bdi>{details.memo}</bdi>
            </blockquote>
          ) : (
            <span class="muted">No memo.</span>
          )}
        </dd>
        <dt>Network</dt>
        <dd id="network">{networkName(details.network)}</dd>
        <dt>Total</dt>
        <dd id="total">
          <strong>{details.total === 0n ? 'You choose the amount' : btc(details.total)}</strong>
        </dd>
        <dt>Expires</dt>
        <dd>
          <ExpiryLine loaded={loaded} now={now} />
        </dd>
        <dt>Made</dt>
        <dd>{formatSeconds(details.time)}</dd>
        <dt>Fetched from</dt>
        <dd class="mono">{loaded.requestUrl}</dd>
        {loaded.pageUrl && (
          <>
            <dt>Found on</dt>
            <dd class="mono">{loaded.pageUrl}</dd>
          </>
        )}
      </dl>
      <ClockWarning loaded={loaded} now={now} />
      <table id="outputs">
        <caption class="sr-only">Outputs: where the money goes</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Pay to</th>
            <th scope="col" class="amount">
              Amount
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
              Total
            </th>
            <td class="amount">
              <strong>{btc(details.total)}</strong>
            </td>
          </tr>
        </tfoot>
      </table>
      {details.unknownFieldCount > 0 && (
        <p class="small muted">
          The request carries {details.unknownFieldCount} field{details.unknownFieldCount === 1 ? '' : 's'}{' '}
          Hushdrop does not know; they were kept but not shown.
        </p>
      )}
    </section>
  );
}
