// The upload page's jobs. A File cannot travel in a message, so the page that holds the files
// picked, dropped or pasted there runs their jobs itself, with the runner every job uses, and
// reports each state to the background as the offscreen document does: the job shows in the popup
// and the badge, and ends with the same notification and the same words.
import { browser } from 'wxt/browser';
import type { JobState } from '../../lib/jobs/model';
import { vapi } from '../browser';
import { onMessage } from '../messaging/receive';
import { sendMessage } from '../messaging/send';
import { PAGE_JOBS_PORT } from './page-jobs-port';
import { createRunner, type RunRequest } from './runner';
import type { Resumable } from './upload-file';

const runner = createRunner(vapi);
let running = 0;
let listening = false;
let port: ReturnType<typeof browser.runtime.connect> | undefined;
let leaveListened = false;
/**
 * From `beforeunload` until a `pageshow`: the page is going, and reports nothing more. Firefox stops
 * its requests as a reload begins, before `pagehide`, so a job's "cancelled" failure could reach the
 * background ahead of the port's end, which ends it as closed or left (page-jobs.e2e under load).
 */
let leaving = false;

/**
 * Holds the port for as long as this page lives (closing, reloading or leaving it ends it; the
 * background then ends the jobs that were still running here). A sleeping service worker drops it:
 * connected again while jobs run, which wakes it.
 */
function holdPort(): void {
  if (port) return;
  if (!leaveListened) {
    leaveListened = true;
    // Said at once rather than when the browser tears the page down: Firefox 140 kept a reloading
    // page's port open for over 30 s, and its job with it.
    addEventListener('pagehide', () => port?.disconnect());
    addEventListener('beforeunload', () => {
      leaving = true;
    });
    addEventListener('pageshow', () => {
      leaving = false;
    });
  }
  port = browser.runtime.connect({ name: PAGE_JOBS_PORT });
  port.onDisconnect.addListener(() => {
    port = undefined;
    if (running > 0) holdPort();
  });
}

/**
 * Runs a job here; `show` gets each state as it is reported. An upload in parts keeps what it needs to
 * resume after a reload (`resumable`).
 */
export async function runOnPage(
  req: RunRequest,
  show: (state: JobState) => void,
  resumable?: Resumable,
): Promise<JobState> {
  holdPort();
  if (!listening) {
    listening = true;
    // Cancel in the popup: the background asks every page; the one that runs the job stops it.
    onMessage('abortJob', ({ data }) => {
      if (runner.has(data)) runner.abort(data);
    });
  }
  running++;
  try {
    return await runner.run(
      req,
      (state) => {
        show(state);
        if (!leaving) sendMessage('jobUpdate', state).catch(() => {});
      },
      resumable,
    );
  } finally {
    running--;
  }
}

export function cancelOnPage(jobId: string): void {
  runner.abort(jobId);
}
