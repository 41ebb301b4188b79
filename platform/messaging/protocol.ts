// The one typed message protocol between the extension's contexts: what each message carries and
// who may send it. Payloads are JSON-safe: Chromium turns Blob/File/ArrayBuffer in messages into
// {}, so bytes travel through OPFS (platform/upload/staging.ts). Every context hears every
// message, content scripts included, so each message names the senders it is accepted from
// (ALLOWED_SENDERS) and `onMessage` (receive.ts) refuses all others before any handler runs.
import type { JobRequest, JobState, UploadSource } from '../../lib/jobs/model';
import type { AllowedSender } from '../../lib/messaging/senders';
import type { LinkCount } from '../../lib/payments/page-links';

export interface ProtocolMap {
  /** page or popup → background: start an upload that outlives the page. */
  startUpload(req: { source: UploadSource; profileId?: string }): { jobId: string } | { error: string };
  /** page or popup → background */
  cancelJob(jobId: string): void;
  /** background → offscreen document (Chromium) */
  runJob(req: JobRequest): void;
  /** background → where the job runs: the offscreen document, or the upload page that runs it */
  abortJob(jobId: string): void;
  /** background → offscreen document: the worker has no clipboard */
  copyText(text: string): boolean;
  /** background → offscreen document: what is on the clipboard, staged for upload (the shortcut) */
  readClipboard(): UploadSource[];
  /** offscreen document or upload page → background: a job's new state */
  jobUpdate(state: JobState): void;
  /** content script → background: payment request links on the page (badge count) */
  paymentLinksFound(count: LinkCount): void;
  /**
   * content script → background: the person clicked a payment link (the page is the sender's
   * URL): a BIP70 request to fetch, or request text (bitcoin:, lightning:, LNURL) to judge
   */
  openPayment(req: { requestUrl: string } | { text: string }): void;
}

/** Who may send each message; anything else is refused unseen by its handler. */
export const ALLOWED_SENDERS = {
  startUpload: ['page'],
  cancelJob: ['page'],
  // The background passes work to the offscreen document (Chromium); Firefox calls the runner
  // directly, so there these are never sent, but abortJob (to an upload page).
  runJob: ['background'],
  abortJob: ['background'],
  copyText: ['background'],
  readClipboard: ['background'],
  // The runner of the offscreen document (Chromium), and the upload page, which runs the jobs it
  // starts. Not the popup nor any other page.
  jobUpdate: ['offscreen', 'upload-page'],
  paymentLinksFound: ['content-script'],
  openPayment: ['content-script'],
} as const satisfies Record<keyof ProtocolMap, readonly AllowedSender[]>;
