import { browser } from 'wxt/browser';

/**
 * Opens an upload of the history in the viewer. The tab's address names the upload by its id,
 * never its link: the browser keeps every address a tab visits (History, sync, suggestions).
 */
export async function openInViewer(entryId: string): Promise<void> {
  await browser.tabs.create({
    url: `${browser.runtime.getURL('/viewer.html')}?entry=${encodeURIComponent(entryId)}`,
  });
}
