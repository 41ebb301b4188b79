// Firefox (MV2): the background is a page that Firefox keeps alive, with XHR, OPFS, workers and
// a clipboard, so jobs run right here.
import { browser } from 'wxt/browser';
import { type ExtensionFacts, firefoxFacts } from '../../lib/messaging/senders';
import { readClipboardHere } from '../upload/clipboard-read';
import { createRunner, type Runner } from '../upload/runner';
import type { BrowserAdapter, ToolbarButton } from './adapter';

let facts: ExtensionFacts | undefined;
let runner: Runner | undefined;
const here = () => (runner ??= createRunner(firefox));

export const firefox: BrowserAdapter = {
  senderFacts: () => (facts ??= firefoxFacts(browser.runtime.id, globalThis.location.origin)),
  requestStreams: false,
  freeSpentBuffers: true,
  get toolbarButton() {
    return (browser as unknown as { browserAction: ToolbarButton }).browserAction;
  },
  async runJob(req, report) {
    void here().run(req, report);
  },
  async abortJob(jobId) {
    here().abort(jobId);
  },
  copyText: (text) =>
    navigator.clipboard.writeText(text).then(
      () => true,
      () => false,
    ),
  async readClipboard() {
    const area = document.body.appendChild(document.createElement('textarea'));
    try {
      return await readClipboardHere(area);
    } finally {
      area.remove();
    }
  },
};
