// The one typed message protocol between the extension's contexts. Payloads are JSON-safe:
// Chromium turns Blob/File/ArrayBuffer in messages into {}, so bytes travel through IndexedDB.
import { defineExtensionMessaging } from '@webext-core/messaging';
import type { Profile } from '../lib/settings';
import type { UploadOptions, Variant } from '../lib/upload';
import type { SizeLimit } from '../lib/upload/limit';

/** Where the bytes of an upload are. */
export type UploadSource =
  | { kind: 'staged'; id: string; name: string; type: string; size: number } // a File staged in OPFS (platform/staging.ts)
  | { kind: 'url'; url: string; name?: string } // fetched by the extension
  | { kind: 'text'; text: string; name: string };

export interface JobRequest {
  jobId: string;
  source: UploadSource;
  profile: Profile;
  variant: Variant;
  options: UploadOptions;
}

export interface JobState {
  id: string;
  name: string;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  phase?: 'preparing' | 'encrypting' | 'uploading';
  done: number;
  total: number;
  link?: string;
  deletionLink?: string;
  error?: string;
  warning?: string;
  profileId?: string;
  /** Set when a 413 taught us the profile's size limit. */
  learnedSizeLimit?: SizeLimit;
  startedAt: number;
}

export interface ProtocolMap {
  /** page or popup → background: start an upload that outlives the page. */
  startUpload(req: { source: UploadSource; profileId?: string }): { jobId: string } | { error: string };
  /** page or popup → background */
  cancelJob(jobId: string): void;
  /** background → offscreen document (Chromium) */
  runJob(req: JobRequest): void;
  /** background → offscreen document */
  abortJob(jobId: string): void;
  /** background → offscreen document: the worker has no clipboard */
  copyText(text: string): boolean;
  /** offscreen document → background */
  jobUpdate(state: JobState): void;
  /** content script → background: payment request links on the page (badge count) */
  paymentLinksFound(count: number): void;
  /** content script → background: a payment link was clicked */
  openPayment(req: { requestUrl: string; pageUrl: string }): void;
}

export const { sendMessage, onMessage } = defineExtensionMessaging<ProtocolMap>();
