/**
 * What this browser knows of the servers it uploads to, one record per server origin (never a path),
 * and of itself. The planner (plan.ts) reads it; nothing else decides how an upload travels.
 *
 * A server's record holds what its `/_hushdrop/info` answer said (uploads in parts, link formats) and
 * when it was asked; whether it refused a streamed upload; and the rates uploads to it measured. A
 * Start refused as unknown (404/405) turns `parts` off; a refused stream is remembered until a new
 * info answer or a stream that works. This browser's own figure is how fast it encrypts, per format.
 * Kept in IndexedDB by platform/storage/capabilities.ts, as the offscreen document, where uploads
 * also run, has no extension storage; every change here is a pure function of the old record.
 *
 * The rates (issue 21, bench/README.md row l): Chromium's streamed request body is capped by its
 * 64 KiB upload pipe (27–92 MiB/s on the test machine), so on a link slower than that the stream runs
 * at the link's rate and wins; on a faster one the disk way (encrypt into a copy, then send a File
 * the network process reads itself) can beat it. Per origin: the smoothed rate of streamed uploads,
 * the smoothed send rate of the disk way, and which way the figures last chose. Rates are bytes per
 * second. Steadiness: each sample moves a figure by at most STEP (×1.19), whatever its value; a
 * figure's second sample replaces a slower first (often a cold start). How the planner weighs them,
 * with its margin and its probes, is in plan.ts.
 */
import type { LinkFormat } from '../crypto/link';
import type { ServerKind } from './server-kind';

/** A smoothed rate, bytes per second. */
export interface Figure {
  rate: number;
  /** Samples that went into it. */
  samples: number;
  /** When the last one came (ms since the epoch). */
  at: number;
}

export type OneRequestWay = 'stream' | 'disk';

/** The rates uploads to one origin measured (uploads in parts measure none). */
export interface ServerRates {
  /** Streamed uploads: the whole request's rate. */
  stream?: Figure;
  /** The disk way's send phase: the rate of sending the encrypted copy. */
  send?: Figure;
  /** The way the figures last chose (a probe is not a choice); absent means the stream. */
  chosen?: OneRequestWay;
  /** Streamed uploads since the last disk send (the disk way is probed again after REPROBE_AFTER). */
  streamsSinceDisk?: number;
  /** Disk uploads since the last stream (with the disk chosen, the stream is tried again after REPROBE_AFTER). */
  disksSinceStream?: number;
}

/** What is known of one server origin. */
export interface ServerRecord {
  /** When its `/_hushdrop/info` was last asked (ms since the epoch); absent: never. */
  infoAt?: number;
  /** It takes uploads in parts: that answer listed them, and no Start was refused as unknown since. */
  parts?: boolean;
  /** The client-encrypted link formats that answer listed (Teknik's alone when none answered). */
  formats?: LinkFormat[];
  /** It refused a streamed upload, and neither a new info answer nor a stream that worked came since. */
  streamRefused?: boolean;
  rates?: ServerRates;
  /** When anything was last learned of it: beyond MAX_SERVERS, the least recent go first. */
  at: number;
}

export interface Capabilities {
  servers: Record<string, ServerRecord>;
  /** This browser encrypting into the copy on disk, per format (GCM and CTR run at different rates). */
  encrypt: Partial<Record<LinkFormat, Figure>>;
}

export const NO_CAPABILITIES: Capabilities = { servers: {}, encrypt: {} };

const MIB = 1024 * 1024;
/**
 * Below this, an upload goes as one request and teaches nothing: a few MiB are over before a rate
 * means anything (a request's start and its answer dominate), and parts would save nothing.
 */
export const MEASURED_FROM_BYTES = 8 * MIB;
/** A new sample's weight in the log of its figure (a quarter), with its ratio clamped to ×/÷ 2 … */
const WEIGHT = 0.25;
const CLAMP = 2;
/** … so one sample moves a figure by at most this factor. */
export const STEP = CLAMP ** WEIGHT;
/** After this many uploads one way without the other, the other is probed again (plan.ts). */
export const REPROBE_AFTER = 10;
/** Server origins kept; the ones heard from least recently go first. */
export const MAX_SERVERS = 64;

/** What one finished one-request upload of an encrypted file measured: each phase's time, in ms. */
export type Measured = { way: 'stream'; sendMs: number } | { way: 'disk'; encryptMs: number; sendMs: number };

/** A measured upload, for the rates; `bytes` = the bytes sent (the encrypted size). */
export type UploadSample = {
  format: LinkFormat;
  bytes: number;
  /** The way was a probe (tells the other way's rate), not the figures' choice. */
  probe?: boolean;
} & Measured;

/** What one question or upload taught of one origin. */
export type Learned =
  /** A new `/_hushdrop/info` answer, or UNKNOWN_SERVER when none came. */
  | { kind: 'info'; answer: ServerKind }
  /** Start was answered 404/405: no uploads in parts there. */
  | { kind: 'parts-refused' }
  /** A streamed upload was refused before anything was stored (no HTTP/2 there). */
  | { kind: 'stream-refused' }
  /** An upload went through, streamed or not, with what it measured (if anything). */
  | { kind: 'sent'; streamed: boolean; sample?: UploadSample };

function smooth(old: Figure | undefined, rate: number, now: number): Figure {
  if (!old) return { rate, samples: 1, at: now };
  // A first sample is often a cold start (a new connection, the worker's first run), which holds a
  // rate down and never pushes it up past what the link takes: a faster second one replaces it.
  if (old.samples === 1 && rate > old.rate) return { rate, samples: 2, at: now };
  const ratio = Math.min(CLAMP, Math.max(1 / CLAMP, rate / old.rate));
  return { rate: old.rate * ratio ** WEIGHT, samples: old.samples + 1, at: now };
}

const rateOf = (bytes: number, ms: number) => (bytes * 1000) / ms;
const usable = (ms: number) => Number.isFinite(ms) && ms > 0;

/** The rates with one sample in them, and this browser's encryption rate; undefined when it teaches nothing. */
function withSample(
  old: ServerRates,
  encrypt: Capabilities['encrypt'],
  sample: UploadSample,
  now: number,
): { rates: ServerRates; encrypt: Capabilities['encrypt'] } | undefined {
  if (sample.bytes < MEASURED_FROM_BYTES || !usable(sample.sendMs)) return undefined;
  if (sample.way === 'disk' && !usable(sample.encryptMs)) return undefined;
  const next: ServerRates = { ...old };
  const encrypting = { ...encrypt };
  if (sample.way === 'stream') {
    // A stream after many disk uploads measures it afresh, as a late probe of the disk way does.
    const stale = (old.disksSinceStream ?? 0) >= REPROBE_AFTER;
    next.stream = smooth(stale ? undefined : old.stream, rateOf(sample.bytes, sample.sendMs), now);
    next.streamsSinceDisk = (old.streamsSinceDisk ?? 0) + 1;
    next.disksSinceStream = 0;
  } else {
    // A probe after many streams measures the link afresh: the old figure may be from another network.
    const stale = (old.streamsSinceDisk ?? 0) >= REPROBE_AFTER;
    next.send = smooth(stale ? undefined : old.send, rateOf(sample.bytes, sample.sendMs), now);
    next.streamsSinceDisk = 0;
    next.disksSinceStream = (old.disksSinceStream ?? 0) + 1;
    encrypting[sample.format] = smooth(
      encrypting[sample.format],
      rateOf(sample.bytes, sample.encryptMs),
      now,
    );
  }
  if (!sample.probe) next.chosen = sample.way;
  return { rates: next, encrypt: encrypting };
}

/** The record of `origin` as `learned` leaves it: a new object; `caps` is not changed. */
export function learn(caps: Capabilities, origin: string, learned: Learned, now: number): Capabilities {
  const old: ServerRecord = caps.servers[origin] ?? { at: now };
  let record: ServerRecord = { ...old, at: now };
  let encrypt = caps.encrypt;
  switch (learned.kind) {
    case 'info': {
      // A new answer: whatever was refused may have changed since (a new server, a new proxy).
      const { streamRefused: _, ...rest } = record;
      record = { ...rest, infoAt: now, parts: learned.answer.parts, formats: [...learned.answer.formats] };
      break;
    }
    case 'parts-refused':
      record.parts = false;
      break;
    case 'stream-refused':
      record.streamRefused = true;
      break;
    case 'sent': {
      const measured = learned.sample && withSample(old.rates ?? {}, caps.encrypt, learned.sample, now);
      // Nothing new (a small file, a refusal already forgotten): the same object, so nothing is written.
      if (!measured && !(learned.streamed && old.streamRefused)) return caps;
      if (learned.streamed) delete record.streamRefused;
      if (measured) {
        record.rates = measured.rates;
        encrypt = measured.encrypt;
      }
      break;
    }
  }
  const servers = { ...caps.servers, [origin]: record };
  const byAge = Object.keys(servers).sort((a, b) => servers[b]!.at - servers[a]!.at);
  for (const gone of byAge.slice(MAX_SERVERS)) delete servers[gone];
  return { servers, encrypt };
}

/**
 * The fastest stream this browser has sent to any origin: Chromium's cap, as far as it has been seen.
 * A stream near it may be held by the cap rather than by the link.
 */
export function streamCap(caps: Capabilities): number {
  return Math.max(0, ...Object.values(caps.servers).map((s) => s.rates?.stream?.rate ?? 0));
}

/**
 * The feature test for request streams (the browser's side of streaming): a browser that supports
 * them reads the `duplex` option and does not turn the stream into text (a text body would get a
 * `text/plain` Content-Type). Firefox fails it: it would send the text "[object ReadableStream]".
 * It says nothing about a server: Chromium passes it and still cannot stream to an HTTP/1.1 server,
 * which only trying shows (and the record then remembers).
 */
export function requestStreamsSupported(RequestImpl: typeof Request | undefined): boolean {
  if (typeof RequestImpl !== 'function' || typeof ReadableStream !== 'function') return false;
  try {
    let duplexRead = false;
    const request = new RequestImpl('https://hushdrop.invalid/', {
      method: 'POST',
      body: new ReadableStream(),
      get duplex() {
        duplexRead = true;
        return 'half';
      },
    } as RequestInit);
    return duplexRead && !request.headers.has('Content-Type');
  } catch {
    return false;
  }
}

// ---- Reading what storage holds: anything malformed is dropped rather than trusted. ----

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function readFigure(f: unknown): Figure | undefined {
  return isObject(f) && finite(f.rate) && f.rate > 0 && finite(f.samples) && finite(f.at)
    ? { rate: f.rate, samples: f.samples, at: f.at }
    : undefined;
}

function readRates(o: unknown): ServerRates | undefined {
  if (!isObject(o)) return undefined;
  const kept: ServerRates = {};
  const stream = readFigure(o.stream);
  const send = readFigure(o.send);
  if (stream) kept.stream = stream;
  if (send) kept.send = send;
  if (o.chosen === 'stream' || o.chosen === 'disk') kept.chosen = o.chosen;
  if (Number.isInteger(o.streamsSinceDisk)) kept.streamsSinceDisk = o.streamsSinceDisk as number;
  if (Number.isInteger(o.disksSinceStream)) kept.disksSinceStream = o.disksSinceStream as number;
  return kept;
}

function readEncrypt(v: unknown): Capabilities['encrypt'] {
  const encrypt: Capabilities['encrypt'] = {};
  for (const format of ['teknik', 'ece'] as const) {
    const f = readFigure(isObject(v) ? v[format] : undefined);
    if (f) encrypt[format] = f;
  }
  return encrypt;
}

function readRecord(r: unknown): ServerRecord | undefined {
  if (!isObject(r) || !finite(r.at)) return undefined;
  const kept: ServerRecord = { at: r.at };
  if (finite(r.infoAt)) kept.infoAt = r.infoAt;
  if (typeof r.parts === 'boolean') kept.parts = r.parts;
  if (Array.isArray(r.formats))
    kept.formats = (['teknik', 'ece'] as const).filter((f) => (r.formats as unknown[]).includes(f));
  if (r.streamRefused === true) kept.streamRefused = true;
  const rates = readRates(r.rates);
  if (rates) kept.rates = rates;
  return kept;
}

/** Capabilities as read from storage. */
export function readCapabilities(value: unknown): Capabilities {
  if (!isObject(value) || !isObject(value.servers)) return NO_CAPABILITIES;
  const servers: Record<string, ServerRecord> = {};
  for (const [origin, r] of Object.entries(value.servers)) {
    const record = readRecord(r);
    if (record) servers[origin] = record;
  }
  return { servers, encrypt: readEncrypt(value.encrypt) };
}

/**
 * The rates an older version kept on their own (`{ origins: {<origin>: rates}, encrypt }`), as
 * records: nothing else was known of those servers then.
 */
export function capabilitiesFromRates(value: unknown): Capabilities {
  if (!isObject(value) || !isObject(value.origins)) return NO_CAPABILITIES;
  const servers: Record<string, ServerRecord> = {};
  for (const [origin, o] of Object.entries(value.origins)) {
    const rates = readRates(o);
    if (!rates) continue;
    servers[origin] = { rates, at: Math.max(rates.stream?.at ?? 0, rates.send?.at ?? 0) };
  }
  return { servers, encrypt: readEncrypt(value.encrypt) };
}
