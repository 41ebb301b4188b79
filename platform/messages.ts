// The one typed message protocol between the extension's contexts. Payloads are JSON-safe:
// Chromium turns Blob/File/ArrayBuffer in messages into {}, so bytes travel through OPFS (staging.ts).
// Every context hears every message, content scripts included, so each message names the senders
// it is accepted from (ALLOWED_SENDERS) and `onMessage` refuses all others before any handler runs.
import { defineExtensionMessaging } from '@webext-core/messaging';
import { browser } from 'wxt/browser';
import { type ExtensionFacts, type SenderKind, senderAllowed } from '../lib/messaging/senders';
import type { LinkCount } from '../lib/payments/page-links';
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
  /** background → offscreen document: what is on the clipboard, staged for upload (the shortcut) */
  readClipboard(): UploadSource[];
  /** offscreen document → background */
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
  // directly, so there these are never sent at all.
  runJob: ['background'],
  abortJob: ['background'],
  copyText: ['background'],
  readClipboard: ['background'],
  // Only the offscreen document; Firefox has none, so a jobUpdate there is always refused.
  jobUpdate: ['offscreen'],
  paymentLinksFound: ['content-script'],
  openPayment: ['content-script'],
} as const satisfies Record<keyof ProtocolMap, readonly SenderKind[]>;

/** A message refused for its sender; the sender's promise rejects with it. */
export class RefusedMessage extends Error {
  override name = 'RefusedMessage';
}

let facts: ExtensionFacts | undefined;
function thisExtension(): ExtensionFacts {
  // Offscreen documents get only part of `runtime` (no getManifest), so the addresses are built
  // from this context's own origin, which is the extension's in every context that listens.
  const origin = globalThis.location.origin;
  facts ??= import.meta.env.FIREFOX
    ? { id: browser.runtime.id, origin }
    : {
        id: browser.runtime.id,
        origin,
        backgroundUrl: `${origin}/background.js`,
        offscreenUrl: `${origin}/offscreen.html`,
      };
  return facts;
}

const messaging = defineExtensionMessaging<ProtocolMap>();

export const sendMessage = messaging.sendMessage;

/** Handles one message type, from the senders ALLOWED_SENDERS names for it only. */
export const onMessage: typeof messaging.onMessage = (type, handler) =>
  messaging.onMessage(type, (message) => {
    if (!senderAllowed(ALLOWED_SENDERS[type], message.sender, thisExtension()))
      throw new RefusedMessage(`Hushdrop does not accept "${String(type)}" from this sender.`);
    return handler(message);
  });
