// How the background learns that an upload page went away: the page holds a port open while it
// lives (page-jobs.ts), and a port ends when its page closes, reloads or leaves. Unlike listening
// to every tab's navigations, this wakes the service worker for upload pages only.
import { browser } from 'wxt/browser';
import { senderAllowed } from '../../lib/messaging/senders';
import { vapi } from '../browser';

export const PAGE_JOBS_PORT = 'hushdrop-page-jobs';

/** Background: calls `gone` with the tab of an upload page whose port ended. */
export function onPageJobsPort(gone: (tabId: number) => void): void {
  browser.runtime.onConnect.addListener((port) => {
    const tabId = port.sender?.tab?.id;
    if (port.name !== PAGE_JOBS_PORT || tabId === undefined) return;
    if (!senderAllowed(['upload-page'], port.sender, vapi.senderFacts())) {
      port.disconnect();
      return;
    }
    port.onDisconnect.addListener(() => gone(tabId));
  });
}
