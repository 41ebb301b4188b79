// Messages between the recipient page and its service worker. The key travels only here, inside
// the browser: the page hands its own address (fragment included) to the worker by postMessage.
import type { IntegrityProblem } from '../../../lib/crypto/integrity';

/** Page → worker: get the stored bytes now and have the decoded file ready at /_hushdrop/stream/<id>. */
export interface PrepareMessage {
  type: 'prepare';
  /** Random; names the download address, which therefore holds nothing secret. */
  id: string;
  /** The page's address, fragment (the key) included. */
  href: string;
  /** Absolute address to POST for the stored bytes. */
  bytes: string;
  iv: string;
  size: number;
  name: string;
  fileType: string;
}

/**
 * Page → worker, every few seconds while a download runs: keeps an idle-stopping worker alive, and
 * asks (on the port it carries) whether the worker still runs the download `id`.
 */
export interface PingMessage {
  type: 'ping';
  id: string;
}

/** Worker → page, on a ping's port: `known` false means a new worker that never had the download (the one that had it was stopped). */
export interface PingReply {
  known: boolean;
}

export type PageMessage = PrepareMessage | PingMessage;

/** Why the bytes did not arrive, for the page to say in a sentence. */
/**
 * `changed`: the authenticated format found bytes that are not the uploaded ones (`message` says how).
 * `stopped`: the browser stopped the worker mid-download (the page learns it from a ping).
 */
export type FailReason = 'gone' | 'http' | 'unreachable' | 'cut' | 'link' | 'changed' | 'stopped';

/** Worker → page, on the MessageChannel port the prepare message carried. */
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'progress'; done: number }
  | { type: 'done'; done: number }
  | {
      type: 'failed';
      reason: FailReason;
      status?: number;
      done?: number;
      message?: string;
      /** For `changed`: what was found (the page says it in its language; the worker has no messages). */
      problem?: IntegrityProblem;
    };

/** The download address for a prepared id, under the worker's scope. */
export const STREAM_PATH = 'stream/';
