// The upload page's jobs. A File cannot travel in a message, so the page that holds the files
// picked, dropped or pasted there runs their jobs itself, with the runner every job uses, and
// reports each state to the background as the offscreen document does: the job shows in the popup
// and the badge, and ends with the same notification and the same words.
import type { JobState } from '../../lib/jobs/model';
import { vapi } from '../browser';
import { onMessage } from '../messaging/receive';
import { sendMessage } from '../messaging/send';
import { createRunner, type RunRequest } from './runner';

const runner = createRunner({ requestStreams: vapi.requestStreams });
let listening = false;

/** Runs a job here; `show` gets each state as it is reported. */
export function runOnPage(req: RunRequest, show: (state: JobState) => void): Promise<JobState> {
  if (!listening) {
    listening = true;
    // Cancel in the popup: the background asks every page; the one that runs the job stops it.
    onMessage('abortJob', ({ data }) => {
      if (runner.has(data)) runner.abort(data);
    });
  }
  return runner.run(req, (state) => {
    show(state);
    sendMessage('jobUpdate', state).catch(() => {});
  });
}

export function cancelOnPage(jobId: string): void {
  runner.abort(jobId);
}
