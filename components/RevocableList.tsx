// A list of things the person allowed, each with a button that takes it back, and a status line
// that says what was taken back. Shared by the options page's sections on reachable sites and on
// payment addresses on this computer or a private network.
import { t } from '../lib/i18n';

export function RevocableList(props: {
  items: string[] | undefined;
  none: string;
  status: string;
  onRevoke: (item: string) => void;
}) {
  const { items, none, status, onRevoke } = props;
  return (
    <>
      {items?.length === 0 && <p class="muted">{none}</p>}
      {items && items.length > 0 && (
        <ul class="granted-sites">
          {items.map((item) => (
            <li key={item}>
              <span class="granted-host">{item}</span>{' '}
              <button
                type="button"
                class="secondary"
                aria-label={t('hostRevokeNamed', item)}
                onClick={() => onRevoke(item)}
              >
                {t('hostRevoke')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p class="small" role="status" aria-live="polite">
        {status}
      </p>
    </>
  );
}
