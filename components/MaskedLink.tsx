// A link shown in a list with its secret as dots until "Show" (the screen may be shared, and the
// key opens the file). The dots are not the key: while hidden, the key is nowhere in the page.
import { useState } from 'preact/hooks';
import { t } from '../lib/i18n';
import type { MaskedLink as Masked } from '../lib/upload/masked-links';

export function MaskedLink({ link, masked, name }: { link: string; masked: Masked; name: string }) {
  const [shown, setShown] = useState(false);
  if (!masked.hidden) return <div class="small mono masked-link">{link}</div>;
  return (
    <div class="row masked-link">
      <span class="small mono">
        {shown ? (
          link
        ) : (
          <>
            {masked.before}
            <span aria-hidden="true">••••••••</span>
            <span class="sr-only">{t('keyHidden')}</span>
            {masked.after}
          </>
        )}
      </span>
      <button
        type="button"
        class="secondary small-button"
        aria-pressed={shown}
        aria-label={t(shown ? 'hideKeyOf' : 'showKeyOf', name)}
        onClick={() => setShown(!shown)}
      >
        {t(shown ? 'hideKey' : 'showKey')}
      </button>
    </div>
  );
}
