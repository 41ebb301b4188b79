import { browser } from 'wxt/browser';
import { createMenus, onMenuClick } from '../platform/context-menu';
import { cancelJob, onJobUpdate, startJob } from '../platform/jobs/host';
import { onMessage } from '../platform/messages';

export default defineBackground(() => {
  browser.runtime.onInstalled.addListener(() => createMenus());
  browser.contextMenus.onClicked.addListener((info, tab) => {
    onMenuClick(info, tab);
  });
  browser.notifications.onClicked.addListener((id) => {
    if (id.startsWith('job-')) browser.tabs.create({ url: browser.runtime.getURL('/history.html') });
  });

  onMessage('startUpload', async ({ data }) => ({ jobId: await startJob(data.source, data.profileId) }));
  onMessage('cancelJob', ({ data }) => cancelJob(data));
  onMessage('jobUpdate', ({ data }) => onJobUpdate(data));
});
