/**
 * The one planner: how an upload travels. From the mode, the link format, the size, what is known of
 * the server (capabilities.ts), what the browser can do and what earlier uploads measured, it gives
 * the ways to try, in order, each with its reason. Each way (platform/upload/way-*.ts) is an
 * UploadWay: it sends, or declines before the server has stored anything, and the next is tried.
 *
 * - parts: client mode, MEASURED_FROM_BYTES or more (any size, where no copy on disk can be made:
 *   the server's upload page), to a server whose `/_hushdrop/info` listed parts (a Hushdrop server). Part k is sent while part k+1 is encrypted, at about max(encrypt,
 *   send), which met or beat the stream on every link measured; it records no rates. A server with
 *   no info answer (Teknik) or whose answer lists no parts is never asked to Start one.
 * - stream: client mode, a browser that takes request streams (Chromium), an https server (HTTP/2
 *   is only spoken over TLS) that has not refused one: encrypted as the network takes it.
 * - disk: encrypted into a copy on disk, then sent with progress; or, in modes none and server, the
 *   file sent as it is. It never declines, so every plan ends with it.
 *
 * Between the stream and the disk, the rates decide (issue 21): with no figures the stream, which
 * measures itself; the disk way once (a probe) when a stream looks held by Chromium's cap; then the
 * way estimated faster, switching only on a MARGIN of 10 % either way (a band wider than one step
 * of a figure, so no single sample takes the choice over and back); and the way not taken is probed
 * again after REPROBE_AFTER uploads, as the person may be on another network by then.
 */
import type { FileCipher } from '../crypto/file-cipher';
import type { LinkFormat } from '../crypto/link';
import type { PhaseProgress } from '../jobs/progress';
import {
  type Capabilities,
  type Learned,
  MEASURED_FROM_BYTES,
  type Measured,
  REPROBE_AFTER,
  type ServerRecord,
  streamCap,
} from './capabilities';
import type { SendUploadArgs } from './client';
import type { PartsSession } from './parts';
import type { Mode, UploadResult } from './types';

export type WayName = 'parts' | 'stream' | 'disk';

export type WayReason =
  /** parts: the server's info answer listed them, and no Start was refused since. */
  | 'server takes parts'
  /** disk: modes none and server send the file as it is. */
  | 'not encrypted'
  /** The stream or the disk, as the rates chose (see chooseOneRequest). */
  | 'cannot stream'
  | 'small file'
  | 'no figures'
  | 'figures'
  | 'probe'
  /** disk, behind a stream: for a server that refuses it. */
  | 'if the stream is refused';

export interface PlannedWay {
  way: WayName;
  reason: WayReason;
}

/** What this browser can do (the browser adapter says). */
export interface BrowserCapabilities {
  /** fetch takes a streamed request body (requestStreamsSupported, and not a Firefox build). */
  requestStreams: boolean;
  /**
   * It can keep a copy of the ciphertext on disk (the extension's scratch files; assumed when not
   * said). The server's upload page cannot: where the server takes parts, every file goes in parts,
   * which read the file as they send it, whatever its size.
   */
  copyOnDisk?: boolean;
}

/** What this browser measured beyond one server: its encryption rates and the fastest stream it sent. */
export interface BrowserFigures {
  encrypt: Capabilities['encrypt'];
  /** bytes per second (streamCap): a stream near it may be held by Chromium's pipe, not by the link. */
  streamCap: number;
}

export interface PlanQuestion {
  mode: Mode;
  /** Client mode: the format the file is encrypted in. */
  format: LinkFormat;
  /** Plaintext bytes. */
  size: number;
  /** The upload endpoint's origin; undefined when its address is not a URL (it then cannot stream). */
  origin: string | undefined;
  /** What is known of that origin (undefined: nothing). */
  server: ServerRecord | undefined;
  browser: BrowserCapabilities;
  figures: BrowserFigures;
}

/** The other way must be estimated this much faster (time × MARGIN) before the choice switches. */
export const MARGIN = 0.9;
/** How long an info answer, or the lack of one, stands before an upload that could go in parts asks again. */
export const INFO_KEPT_MS = 24 * 60 * 60 * 1000;

export const browserFigures = (caps: Capabilities): BrowserFigures => ({
  encrypt: caps.encrypt,
  streamCap: streamCap(caps),
});

/** The ways to try, in order; the last never declines. */
export function planUpload(q: PlanQuestion): PlannedWay[] {
  if (q.mode !== 'client') return [{ way: 'disk', reason: 'not encrypted' }];
  const plan: PlannedWay[] = [];
  const partsFrom = q.browser.copyOnDisk === false ? 0 : MEASURED_FROM_BYTES;
  if (q.size >= partsFrom && q.server?.parts === true)
    plan.push({ way: 'parts', reason: 'server takes parts' });
  const oneRequest = chooseOneRequest(q);
  plan.push(oneRequest);
  if (oneRequest.way === 'stream') plan.push({ way: 'disk', reason: 'if the stream is refused' });
  return plan;
}

/**
 * Whether to ask the server's `/_hushdrop/info` before planning: only for an upload that could go in
 * parts, when it was never asked (Test connection and the welcome page ask; a profile set up before
 * them, or by npm start, was not) or its answer is older than INFO_KEPT_MS.
 */
export function asksInfoFirst(q: Pick<PlanQuestion, 'mode' | 'size' | 'server'>, now: number): boolean {
  if (q.mode !== 'client' || q.size < MEASURED_FROM_BYTES) return false;
  const at = q.server?.infoAt;
  return at === undefined || !(now >= at && now - at < INFO_KEPT_MS);
}

/** Whether a stream can be tried: the browser takes one, the server speaks TLS and has not refused one. */
export function canStream(q: Pick<PlanQuestion, 'origin' | 'server' | 'browser'>): boolean {
  return q.browser.requestStreams && q.origin?.startsWith('https:') === true && !q.server?.streamRefused;
}

/** The one-request way: the stream or the disk, as the rates say. */
export function chooseOneRequest(q: PlanQuestion): PlannedWay {
  if (!canStream(q)) return { way: 'disk', reason: 'cannot stream' };
  if (q.size < MEASURED_FROM_BYTES) return { way: 'stream', reason: 'small file' };
  const rates = q.server?.rates;
  const stream = rates?.stream;
  // No stream yet: the stream first (the default), which also measures it.
  if (!rates || !stream) return { way: 'stream', reason: 'no figures' };
  // Settled on the disk way for a while: try the stream once, or a figure from a bad moment would
  // keep it from ever being measured again.
  if (rates.chosen === 'disk' && (rates.disksSinceStream ?? 0) >= REPROBE_AFTER)
    return { way: 'stream', reason: 'probe' };
  const encrypt = q.figures.encrypt[q.format]?.rate;
  const send = rates.send?.rate;
  // Seconds per byte each way. The disk way can win only if encrypting alone beats the stream.
  const streamTime = 1 / stream.rate;
  const diskCouldWin = encrypt === undefined || 1 / encrypt < MARGIN * streamTime;
  if (send === undefined || encrypt === undefined || (rates.streamsSinceDisk ?? 0) >= REPROBE_AFTER) {
    // Not known (or not lately) how fast the link takes a file: try the disk way once, when the
    // stream looks held by the cap rather than by a slow link, and the disk way could win at all.
    // One stream is not enough to tell: the first may have been a cold start.
    const capped = stream.samples >= 2 && stream.rate >= MARGIN * q.figures.streamCap;
    if (capped && diskCouldWin) return { way: 'disk', reason: 'probe' };
    if (send === undefined || encrypt === undefined) return { way: 'stream', reason: 'no figures' };
  }
  const diskTime = 1 / encrypt + 1 / send;
  if ((rates.chosen ?? 'stream') === 'stream')
    return { way: diskTime <= MARGIN * streamTime ? 'disk' : 'stream', reason: 'figures' };
  return { way: streamTime <= MARGIN * diskTime ? 'stream' : 'disk', reason: 'figures' };
}

// ---- The ways, as the platform implements them ----

export type DeclineReason =
  /** Start was answered 404 or 405: the server takes no uploads in parts (Teknik, an older Hushdrop). */
  | 'no parts'
  /** Start was answered 429: too many uploads in parts open from here; this one goes as one request. */
  | 'parts busy'
  /** No worker with a sync access handle could start here: nothing was written or sent. */
  | 'no worker'
  /** The server cannot take a streamed body (no HTTP/2): refused before anything was stored. */
  | 'stream refused'
  /** A session to resume (parts-runner.ts) that the server no longer holds: the file goes as a new upload. */
  | 'session gone';

/** A way's answer when it did not send, and nothing reached the server's store: try the next way. */
export class Declined {
  constructor(
    readonly reason: DeclineReason,
    /** What was seen, for a developer (never shown as the failure: the next way runs). */
    readonly detail = '',
  ) {}
}

/** What a decline teaches of the server, to be remembered; undefined when it says nothing of it. */
export function learnedFrom(declined: Declined): Learned | undefined {
  if (declined.reason === 'no parts') return { kind: 'parts-refused' };
  if (declined.reason === 'stream refused') return { kind: 'stream-refused' };
  return undefined;
}

/** One upload as every way takes it. */
export interface WayJob {
  /** The file as chosen: what is encrypted, or sent as it is. */
  file: Blob;
  /** The same bytes as a File with a path on disk where the job has one (sent as it is only). */
  pathBacked?: () => Promise<Blob | undefined>;
  /** Client mode: how the file is encrypted. */
  cipher?: FileCipher;
  /** What every request of the upload shares: where, the options, the file's name and type, the IV, Cancel, silence. */
  request: Omit<SendUploadArgs, 'body' | 'transport' | 'onProgress'>;
  onProgress: (p: PhaseProgress) => void;
  /** Detach each ciphertext once written, so its memory goes back at once (the browser adapter says). */
  freeSpent: boolean;
  /** The parts way only: a session an earlier life of the page started for this file and cipher, resumed. */
  resume?: PartsSession;
  /**
   * The parts way only: the session is started (or resumed), before any part is sent: what a resume
   * after a reload needs can be kept now (parts-runner.ts).
   */
  onSession?(session: PartsSession): void | Promise<void>;
}

export interface Sent {
  result: UploadResult;
  /** What a one-request way with a cipher measured, for the rates. */
  measured?: Measured;
  /** Removes what the upload left on disk: after the link is shown, or before a failure is told. */
  cleanup?: () => Promise<void>;
}

/** A way an upload can travel: it sends (or fails with the upload's error), or it declines. */
export interface UploadWay {
  send(job: WayJob): Promise<Sent | Declined>;
}

/**
 * What a sent upload teaches of its server: that a stream worked there, and what a one-request way
 * measured of an encrypted file (`sealed`: its format, and the bytes sent) for the rates.
 */
export function learnedFromSent(
  planned: PlannedWay,
  sent: Sent,
  sealed: { format: LinkFormat; bytes: number } | undefined,
): Learned {
  const streamed = planned.way === 'stream';
  if (!sealed || !sent.measured) return { kind: 'sent', streamed };
  return {
    kind: 'sent',
    streamed,
    sample: { ...sent.measured, ...sealed, probe: planned.reason === 'probe' },
  };
}

/**
 * Tries the planned ways in order until one sends. Each decline is told to `onDeclined` (which
 * remembers what it says of the server), and awaited, before the next way is tried; a failure ends
 * the upload.
 */
export async function tryInOrder(
  plan: readonly PlannedWay[],
  ways: Readonly<Record<WayName, UploadWay>>,
  job: WayJob,
  onDeclined: (declined: Declined) => unknown,
): Promise<{ sent: Sent; planned: PlannedWay }> {
  const seen: string[] = [];
  for (const planned of plan) {
    const outcome = await ways[planned.way].send(job);
    if (!(outcome instanceof Declined)) return { sent: outcome, planned };
    seen.push(`${planned.way}: ${outcome.reason}`);
    await onDeclined(outcome);
  }
  // A plan ends with the disk way, which never declines: this is a slip, said plainly.
  throw new Error(`Every way planned for this upload declined it (${seen.join('; ')}).`);
}
