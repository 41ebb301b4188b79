// The copy button of a link: it says "Copied ✓" for two seconds right where it was clicked, then
// its own words again (a notice far away at the top of the page was easy to miss).
import type { Ref } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../lib/i18n';

const COPIED_FOR_MS = 2000;

export function CopyButton({
  value,
  text,
  label,
  ariaLabel,
  onFailed,
  buttonRef,
  secondary = false,
}: {
  value: string;
  /** The button's visible words before and after the feedback ("Copy link", "Copy"). */
  text: string;
  /** What is copied, for the accessible name ("Copy link – photo.jpg"); the visible words come first. */
  label?: string;
  /** The accessible name when `label` does not make it (it must contain the visible words). */
  ariaLabel?: (copied: boolean) => string;
  onFailed: () => void;
  buttonRef?: Ref<HTMLButtonElement>;
  secondary?: boolean;
}) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const words = copied ? t('copiedCheck') : text;
  return (
    <button
      ref={buttonRef}
      type="button"
      class={secondary ? 'secondary' : undefined}
      aria-label={ariaLabel ? ariaLabel(copied) : label ? `${words} – ${label}` : undefined}
      onClick={() => navigator.clipboard.writeText(value).then(() => setCopied(true), onFailed)}
    >
      {words}
    </button>
  );
}
