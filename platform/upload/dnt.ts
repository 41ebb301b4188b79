// Keeps the `DNT: 1` session rules (lib/settings/dnt-rules.ts) in step with the settings.
// Session rules vanish when the browser or the extension restarts, so they are set whenever the
// background starts (install, update, browser start) and again on every settings change.
import { browser } from 'wxt/browser';
import type { Settings } from '../../lib/settings';
import { dntRules, isDntRuleId } from '../../lib/settings/dnt-rules';
import { loadSettings, settingsItem } from '../storage/settings';

/** Replaces this extension's DNT session rules by the ones `settings` call for. */
export async function applyDntRules(settings: Settings): Promise<void> {
  const dnr = browser.declarativeNetRequest;
  const rules = dntRules(settings, new URL(browser.runtime.getURL('/')).hostname);
  const existing = (await dnr.getSessionRules()).map((r) => r.id).filter(isDntRuleId);
  // Removing the new ids too keeps two overlapping updates from adding an id twice.
  await dnr.updateSessionRules({
    removeRuleIds: [...new Set([...existing, ...rules.map((r) => r.id)])],
    addRules: rules,
  });
}

let queue: Promise<void> = Promise.resolve();

/** Applies the stored settings' rules; updates run one at a time, in order. */
function sync(): Promise<void> {
  queue = queue
    .then(async () => applyDntRules(await loadSettings()))
    .catch((err) => console.error('Hushdrop: could not set the DNT rules', err));
  return queue;
}

/** Background only: set the rules now, at browser start, and after every settings change. */
export function keepDntRulesInSync(): void {
  sync();
  browser.runtime.onStartup.addListener(() => {
    sync();
  });
  settingsItem.watch(() => {
    sync();
  });
}
