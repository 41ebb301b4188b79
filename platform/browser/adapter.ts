// What differs between the browsers Hushdrop runs in, behind one interface (in the spirit of
// uBlock Origin's `vapi`). index.ts picks the implementation once, at build time; nothing else in
// the code asks which browser it is in.
import type { JobRequest, JobState, UploadSource } from '../../lib/jobs/model';
import type { ExtensionFacts } from '../../lib/messaging/senders';

/** The toolbar button: `action` (MV3), `browserAction` (Firefox's MV2). */
export interface ToolbarButton {
  setBadgeText(details: { text: string; tabId?: number }): Promise<void>;
  setBadgeBackgroundColor(details: { color: string; tabId?: number }): Promise<void>;
}

export interface BrowserAdapter {
  /** Facts that tell our contexts apart as senders of messages (lib/messaging/senders.ts). */
  senderFacts(): ExtensionFacts;
  /**
   * Whether an upload may give fetch a streamed body. Firefox builds never do: its fetch sends a
   * stream as the text "[object ReadableStream]" without an error.
   */
  readonly requestStreams: boolean;
  /**
   * Whether buffers an upload is done with are detached to free their memory at once
   * (lib/free-buffer.ts). Firefox: yes, its collector let them pile up to a third of the file.
   * Chromium: no, a detached buffer kept its memory there until the upload ended.
   */
  readonly freeSpentBuffers: boolean;
  readonly toolbarButton: ToolbarButton;

  // Background only: where jobs run that must outlive every page (Chromium: an offscreen
  // document, as the service worker sleeps and has no XHR; Firefox: the background page itself).
  /**
   * Starts a job there. Its states reach `report` where the job runs in this context (Firefox);
   * otherwise they come back as jobUpdate messages (Chromium).
   */
  runJob(req: JobRequest, report: (state: JobState) => void): Promise<void>;
  abortJob(jobId: string): Promise<void>;
  /** Copies text to the clipboard; false when the browser refused. */
  copyText(text: string): Promise<boolean>;
  /** What is on the clipboard, staged for upload (the "upload the clipboard" shortcut). */
  readClipboard(): Promise<UploadSource[]>;
}
