// The button beside a failure that leads out of it: "Open settings" when a setting is the cause (an
// address that did not answer, an account refused), "Choose another server" when the file is over
// this server's limit (trying again cannot work there).

import { t } from '../lib/i18n';
import type { WayOut } from '../lib/jobs/errors';
import { openSettings } from '../platform/open-settings';

/**
 * The page's own server choice (the popup's and the upload page's `#profile`), focused and in view;
 * false when the page has none (only one server is set up: the settings are where to add one).
 */
function chooseServerHere(): boolean {
  const choice = document.getElementById('profile');
  if (!choice) return false;
  choice.scrollIntoView({ block: 'center' });
  choice.focus();
  return true;
}

export function ErrorWayOut({
  wayOut,
  afterOpening,
}: {
  wayOut: WayOut;
  /** Runs once the settings opened (the popup closes itself). */
  afterOpening?: () => void;
}) {
  return (
    <button
      type="button"
      class="secondary way-out"
      onClick={async () => {
        if (wayOut === 'another-server' && chooseServerHere()) return;
        await openSettings();
        afterOpening?.();
      }}
    >
      {t(wayOut === 'settings' ? 'openSettings' : 'chooseAnotherServer')}
    </button>
  );
}
