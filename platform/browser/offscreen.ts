// The offscreen document's side of the Chromium adapter (chromium.ts): it runs the jobs the
// background hands it, and copies and reads the clipboard for it (the worker has none).
import { messagesReady } from '../i18n-offscreen';
import { onMessage } from '../messaging/receive';
import { sendMessage } from '../messaging/send';
import { readClipboardHere } from '../upload/clipboard-read';
import { createRunner } from '../upload/runner';
import { chromium } from './chromium';

export function serveOffscreen(clipboard: HTMLTextAreaElement): void {
  const runner = createRunner(chromium);
  onMessage('runJob', async ({ data }) => {
    await messagesReady;
    void runner.run(data, (state) => {
      sendMessage('jobUpdate', state).catch(() => {});
    });
  });
  onMessage('abortJob', ({ data }) => runner.abort(data));
  onMessage('copyText', ({ data }) => {
    clipboard.value = data;
    clipboard.select();
    // The offscreen document never has focus, so navigator.clipboard is refused; execCommand works.
    const ok = document.execCommand('copy');
    clipboard.value = '';
    return ok;
  });
  onMessage('readClipboard', async () => {
    await messagesReady;
    return readClipboardHere(clipboard);
  });
}
