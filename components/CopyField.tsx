import type { Ref } from 'preact';
import { useState } from 'preact/hooks';
import { t } from '../lib/i18n';
import { CopyButton } from './CopyButton';

/**
 * A read-only value with a copy button; the value is shown as text, never as HTML. Values are often
 * links with keys: autocomplete=off keeps them out of the browser's session restore.
 */
export function CopyField({
  label,
  value,
  id,
  buttonRef,
}: {
  label: string;
  value: string;
  id: string;
  /** For a page that moves focus to the copy button (the upload page, when a job finishes). */
  buttonRef?: Ref<HTMLButtonElement>;
}) {
  const [failed, setFailed] = useState(false);
  return (
    <div>
      <label for={id}>{label}</label>
      <div class="row">
        <input
          id={id}
          class="grow mono"
          type="text"
          readOnly
          autocomplete="off"
          value={value}
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyButton
          value={value}
          text={t('copy')}
          ariaLabel={(copied) => (copied ? `${t('copiedCheck')} – ${label}` : t('copyNamed', label))}
          onFailed={() => setFailed(true)}
          buttonRef={buttonRef}
        />
      </div>
      <p class="small" role="status" aria-live="polite">
        {failed ? t('copyFailed') : ''}
      </p>
    </div>
  );
}
