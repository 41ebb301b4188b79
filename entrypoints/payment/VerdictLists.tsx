// The parts of a verdict card that every kind of request shows alike: the card with its heading
// and badges, why a request is invalid, and the warnings that go with any verdict. Untrusted words
// are rendered as text.
import type { ComponentChildren } from 'preact';
import { t } from '../../lib/i18n';
import { verdictWord } from './format';

type Verdict = 'verified' | 'unsigned' | 'invalid';

/** The verdict card: its badge, an Expired badge when the request has expired, the heading, the body. */
export function VerdictSection(props: {
  verdict: Verdict;
  expired: boolean;
  kind?: string;
  heading: ComponentChildren;
  children: ComponentChildren;
}) {
  const { verdict, expired } = props;
  return (
    <section
      class={`card verdict verdict-${verdict}${expired ? ' verdict-expired' : ''}`}
      aria-labelledby="verdict-h"
      id="verdict"
      data-verdict={verdict}
      data-kind={props.kind}
    >
      <h2 id="verdict-h">
        <span class={`badge badge-${verdict}`}>{verdictWord(verdict)}</span>
        {expired && <span class="badge badge-invalid">{t('payBadgeExpired')}</span>}
        {props.heading}
      </h2>
      {props.children}
    </section>
  );
}

export function InvalidReasons({ reasons }: { reasons: readonly string[] }) {
  return (
    <>
      <p>{t('payInvalidText')}</p>
      <ul id="reasons">
        {reasons.map((r) => (
          <li key={r} class="error">
            {r}
          </li>
        ))}
      </ul>
    </>
  );
}

export function Warnings({ warnings }: { warnings: readonly string[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul id="warnings" aria-label={t('payWarnings')}>
      {warnings.map((w) => (
        <li key={w} class="warn">
          {w}
        </li>
      ))}
    </ul>
  );
}
