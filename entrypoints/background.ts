import '../platform/i18n';
import { browser } from 'wxt/browser';
import { badgeText } from '../lib/payments/page-links';
import { UPLOAD_CLIPBOARD } from '../lib/settings/commands';
import { createMenus, onMenuClick } from '../platform/context-menu';
import { keepDntRulesInSync } from '../platform/dnt';
import { cancelJob, onJobUpdate, startJob, uploadClipboard } from '../platform/jobs/host';
import { onMessage } from '../platform/messages';
import { handOffClickedPayment } from '../platform/payments/hand-off';
import { CHECK_PAYMENT_MENU, createPaymentMenu, onPaymentMenuClick } from '../platform/payments/menu';
import { sweepClosedViewers, sweepScratch } from '../platform/scratch-files';

export default defineBackground(() => {
  keepDntRulesInSync();
  // Scratch files a crash or a closed tab left behind: encrypted copies, and plaintext (files
  // waiting for upload, decrypted downloads). Nobody holds them when the browser starts or the
  // extension is installed, updated or reloaded (each needs its own event).
  const sweepAll = () => void sweepScratch(['upload', 'open', 'staged']).catch(() => {});
  browser.runtime.onInstalled.addListener(() => {
    createMenus();
    createPaymentMenu();
    sweepAll();
  });
  browser.runtime.onStartup.addListener(sweepAll);
  browser.tabs.onRemoved.addListener(() => {
    sweepClosedViewers().catch(() => {});
  });
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
  onMessage('jobUpdate', ({ data }) => onJobUpdate(data));

  // Payment requests found by the content script: a per-tab count on the toolbar button.
  onMessage('paymentLinksFound', async ({ data, sender }) => {
    const tabId = sender.tab?.id;
    if (tabId === undefined) return;
    const action = browser.action ?? (browser as any).browserAction;
    await action.setBadgeBackgroundColor({ tabId, color: '#7a4b00' });
    await action.setBadgeText({ tabId, text: badgeText(data) });
  });
  // A person clicked a payment link: the page it was on is what the browser says, not the message.
  onMessage('openPayment', async ({ data, sender }) => {
    const url = await handOffClickedPayment({ ...data, ...(sender.url ? { pageUrl: sender.url } : {}) });
    if (!url) return;
    await browser.tabs.create({ url, index: sender.tab ? sender.tab.index + 1 : undefined });
  });
});
