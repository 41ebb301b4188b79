// Chromium (MV3): the background is a service worker that sleeps when idle and has no XHR, DOM or
// clipboard, so jobs, copying and clipboard reads go to an offscreen document (offscreen.ts serves
// them there).
import { browser } from 'wxt/browser';
import { chromiumFacts, type ExtensionFacts } from '../../lib/messaging/senders';
import { requestStreamsSupported } from '../../lib/upload';
import { sendMessage } from '../messaging/send';
import type { BrowserAdapter } from './adapter';

const OFFSCREEN = 'offscreen.html';

let creating: Promise<void> | undefined;
async function ensureOffscreen(): Promise<void> {
  const offscreen = (globalThis as any).chrome.offscreen;
  if (await offscreen.hasDocument()) return;
  creating ??= offscreen
    .createDocument({
      url: OFFSCREEN,
      reasons: ['WORKERS', 'BLOBS', 'CLIPBOARD'],
      justification:
        'Encrypt and upload files without holding them in memory; copy the link; read the clipboard for the upload shortcut.',
    })
    .finally(() => {
      creating = undefined;
    });
  await creating;
}

let facts: ExtensionFacts | undefined;

export const chromium: BrowserAdapter = {
  // Offscreen documents get only part of `runtime` (no getManifest), so the addresses are built
  // from this context's own origin, which is the extension's in every context that listens.
  senderFacts: () => (facts ??= chromiumFacts(browser.runtime.id, globalThis.location.origin)),
  get requestStreams() {
    return requestStreamsSupported(globalThis.Request);
  },
  freeSpentBuffers: false,
  get toolbarButton() {
    return browser.action;
  },
  async runJob(req) {
    await ensureOffscreen();
    await sendMessage('runJob', req);
  },
  async abortJob(jobId) {
    // No document, no job to stop; one being made may be about to run it.
    await creating?.catch(() => {});
    if (!(await (globalThis as any).chrome.offscreen.hasDocument())) return;
    await sendMessage('abortJob', jobId).catch(() => {});
  },
  async copyText(text) {
    await ensureOffscreen();
    return sendMessage('copyText', text).catch(() => false);
  },
  async readClipboard() {
    await ensureOffscreen();
    return sendMessage('readClipboard');
  },
};
