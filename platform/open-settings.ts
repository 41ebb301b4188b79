// The settings page, opened in its own tab (options_ui.open_in_tab): the way out of a failure that
// a setting causes, offered beside its sentence.
import { browser } from 'wxt/browser';

export function openSettings(): Promise<void> {
  return browser.runtime.openOptionsPage();
}
