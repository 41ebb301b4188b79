import '../platform/i18n';
import { browser } from 'wxt/browser';
import { PaymentOpenLimit } from '../lib/payments/open-limit';
import { badgeText } from '../lib/payments/page-links';
import { UPLOAD_CLIPBOARD } from '../lib/settings/commands';
import { vapi } from '../platform/browser';
import { openWelcomeOnInstall } from '../platform/first-run';
import { onMessage } from '../platform/messaging/receive';
import { handOffClickedPayment } from '../platform/payments/hand-off';
import { CHECK_PAYMENT_MENU, createPaymentMenu, onPaymentMenuClick } from '../platform/payments/menu';
import { dropResumesOfTab } from '../platform/storage/resumes';
import { sweepClosedViewers, sweepScratch } from '../platform/storage/scratch-files';
import { createMenus, onMenuClick } from '../platform/upload/context-menu';
import { keepDntRulesInSync } from '../platform/upload/dnt';
import { cancelJob, onJobUpdate, onTabGone, startJob, uploadClipboard } from '../platform/upload/host';
import { onPageJobsPort } from '../platform/upload/page-jobs-port';

export default defineBackground(() => {
  const paymentOpens = new PaymentOpenLimit();
  keepDntRulesInSync();
  // Scratch files a crash or a closed tab left behind: encrypted copies, and plaintext (files
  // waiting for upload, decrypted downloads). Nobody holds them when the browser starts or the
  // extension is installed, updated or reloaded (each needs its own event).
  const sweepAll = () => void sweepScratch(['upload', 'open', 'staged']).catch(() => {});
  browser.runtime.onInstalled.addListener(({ reason }) => {
    createMenus();
    createPaymentMenu();
    sweepAll();
    void openWelcomeOnInstall(reason);
  });
  browser.runtime.onStartup.addListener(sweepAll);
  browser.tabs.onRemoved.addListener((tabId) => {
    paymentOpens.closed(tabId);
    sweepClosedViewers().catch(() => {});
    onTabGone(tabId).catch(() => {});
    // What its upload page kept to resume after a reload goes with the tab (the key among it).
    dropResumesOfTab(tabId).catch(() => {});
  });
  // An upload page that closes, reloads or goes elsewhere ends the jobs it ran (its port ends).
  onPageJobsPort((tabId) => void onTabGone(tabId).catch(() => {}));
  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId === CHECK_PAYMENT_MENU) onPaymentMenuClick(info, tab).catch(() => {});
    else onMenuClick(info, tab);
  });
  browser.commands.onCommand.addListener((command) => {
    if (command === UPLOAD_CLIPBOARD) uploadClipboard().catch(() => {});
  });
  browser.notifications.onClicked.addListener((id) => {
    if (id.startsWith('job-')) browser.tabs.create({ url: browser.runtime.getURL('/uploads.html') });
  });

  onMessage('startUpload', async ({ data }) => ({ jobId: await startJob(data.source, data.profileId) }));
  onMessage('cancelJob', ({ data }) => cancelJob(data));
  // From the offscreen document (no tab), or from the upload page that runs the job (its tab).
  onMessage('jobUpdate', ({ data, sender }) =>
    onJobUpdate(
      data,
      sender.tab?.id === undefined ? { kind: 'background' } : { kind: 'page', tabId: sender.tab.id },
    ),
  );

  // Payment requests found by the content script: a per-tab count on the toolbar button.
  onMessage('paymentLinksFound', async ({ data, sender }) => {
    const tabId = sender.tab?.id;
    if (tabId === undefined) return;
    await vapi.toolbarButton.setBadgeBackgroundColor({ tabId, color: '#7a4b00' });
    await vapi.toolbarButton.setBadgeText({ tabId, text: badgeText(data) });
  });
  // A payment link clicked on a page: the page it was on is what the browser says, not the message.
  // Nothing proves the click (a compromised renderer sends this message at will), so the tab it
  // opens fetches nothing by itself, and a page tab gets one such tab at a time, a few a minute.
  onMessage('openPayment', async ({ data, sender }) => {
    const pageTab = sender.tab?.id;
    if (pageTab === undefined) return;
    const verdict = paymentOpens.take(pageTab, Date.now());
    if (!verdict.ok) {
      console.warn(`Hushdrop: no payment tab opened for tab ${pageTab}: ${verdict.reason} limit`);
      return;
    }
    try {
      const url = await handOffClickedPayment(
        { ...data, ...(sender.url ? { pageUrl: sender.url } : {}) },
        'page',
      );
      const tab = url ? await browser.tabs.create({ url, index: sender.tab!.index + 1 }) : undefined;
      if (tab?.id !== undefined) paymentOpens.placed(pageTab, tab.id);
    } finally {
      paymentOpens.release(pageTab);
    }
  });
});
