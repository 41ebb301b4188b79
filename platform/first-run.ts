// The first run: a new installation opens the welcome page, where the person names the server
// uploads go to (no server is built in). Updates and reloads open nothing, and neither does an
// installation that finds a tested server in settings it kept (Firefox installs npm start's add-on
// anew at every start, and keeps its storage; the welcome page would only say it is set up).
import { browser } from 'wxt/browser';
import { needsSetup } from '../lib/settings';
import { loadSettings } from './storage/settings';

export async function openWelcomeOnInstall(reason: string): Promise<void> {
  if (reason !== 'install') return;
  const settings = await loadSettings().catch(() => undefined);
  if (settings && !needsSetup(settings)) return;
  await browser.tabs.create({ url: browser.runtime.getURL('/welcome.html') }).catch(() => {});
}
