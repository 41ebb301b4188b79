// Chromium's offscreen document: runs uploads that must outlive the popup and the sleeping
// service worker, and copies and reads the clipboard (the worker has none).
import { readClipboardHere } from '../../platform/clipboard-read';
import { messagesReady } from '../../platform/i18n-offscreen';
import { abortJob, runJob } from '../../platform/jobs/runner';
import { onMessage, sendMessage } from '../../platform/messages';

onMessage('runJob', async ({ data }) => {
  await messagesReady;
  runJob(data, (state) => {
    sendMessage('jobUpdate', state).catch(() => {});
  });
});
onMessage('abortJob', ({ data }) => abortJob(data));
onMessage('copyText', ({ data }) => {
  const area = document.getElementById('clipboard') as HTMLTextAreaElement;
  area.value = data;
  area.select();
  // The offscreen document never has focus, so navigator.clipboard is refused; execCommand works.
  const ok = document.execCommand('copy');
  area.value = '';
  return ok;
});
onMessage('readClipboard', async () => {
  await messagesReady;
  return readClipboardHere(document.getElementById('clipboard') as HTMLTextAreaElement);
});
