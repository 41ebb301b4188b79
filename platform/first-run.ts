// The first run: a new installation opens the welcome page, where the person names the server
// uploads go to (no server is built in). Updates and reloads open nothing.
import { browser } from 'wxt/browser';

export function openWelcomeOnInstall(reason: string): void {
  if (reason !== 'install') return;
  browser.tabs.create({ url: browser.runtime.getURL('/welcome.html') }).catch(() => {});
}
