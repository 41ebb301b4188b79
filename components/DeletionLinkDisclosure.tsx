// The deletion link, folded away under "Deletion link (keep it private)" in a quieter style than
// the share link, so the one cannot be taken for the other and shared by mistake.
import type { ComponentChildren } from 'preact';
import { t } from '../lib/i18n';

export function DeletionLinkDisclosure({ children }: { children: ComponentChildren }) {
  return (
    <details class="deletion-link">
      <summary>{t('deletionLinkPrivate')}</summary>
      {children}
    </details>
  );
}
