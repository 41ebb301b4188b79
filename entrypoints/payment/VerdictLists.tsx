// The parts of a verdict card that every kind of request shows alike: why a request is invalid,
// and the warnings that go with any verdict. Untrusted words are rendered as text.
import { t } from '../../lib/i18n';

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
