/**
 * Which way an encrypted upload goes, stream or disk, chosen from what this browser has measured on
 * its own earlier uploads (issue 21). Measured facts behind it (bench/README.md, row l): Chromium's
 * streamed request body is capped by its 64 KiB upload pipe (27–92 MiB/s on the test machine), so on
 * a link slower than that the stream runs at the link's rate and wins (the disk way first spends the
 * encryption time); on a faster link the disk way (encrypt into a copy, then send a File the network
 * process reads itself) can beat the stream.
 *
 * Kept per server origin (never a path): the smoothed rate of streamed uploads, the smoothed send
 * rate of the disk way (the link as a file sees it), and which way the figures last chose; and per
 * format, this browser's rate of encrypting into the copy on disk. Rates are bytes per second.
 *
 * Steadiness: each sample moves a figure by at most STEP (×1.19), whatever its value; switching away
 * from the way last chosen needs the other way to win by the MARGIN (10 %), and switching back needs
 * the same margin the other way. That band (÷0.9 twice, ×1.23) is wider than one step, so a single
 * sample, however wrong, cannot take the choice over and back. The exceptions: a figure's second
 * sample replaces a slower first (often a cold start); and a probe after REPROBE_AFTER uploads the
 * other way measures afresh (the person may have moved to another network since). Rates are held
 * down by such moments, never pushed up much: no file leaves faster than the link takes it.
 *
 * An upload in parts (a Hushdrop server that takes them: platform/upload/upload-parts.ts) chooses
 * no way and records no sample: it overlaps encrypting and sending, at about max() of the two, which
 * met or beat the stream on every link measured. These figures decide for servers without parts.
 *
 * No browser API here: the platform stores the figures (platform/storage/transport-figures.ts) and
 * records the samples (platform/upload/upload-file.ts).
 */
import type { LinkFormat } from '../crypto/link';

export type UploadWay = 'stream' | 'disk';

/** A smoothed rate, bytes per second. */
export interface Figure {
  rate: number;
  /** Samples that went into it. */
  samples: number;
  /** When the last one came (ms since the epoch). */
  at: number;
}

export interface OriginFigures {
  /** Streamed uploads: the whole request's rate. */
  stream?: Figure;
  /** The disk way's send phase: the rate of sending the encrypted copy. */
  send?: Figure;
  /** The way the figures last chose (a probe is not a choice); absent means the stream. */
  chosen?: UploadWay;
  /** Streamed uploads since the last disk send (a probe is due again after REPROBE_AFTER). */
  streamsSinceDisk?: number;
  /** Disk uploads since the last stream (with the disk chosen, the stream is tried again after REPROBE_AFTER). */
  disksSinceStream?: number;
}

export interface TransportFigures {
  origins: Record<string, OriginFigures>;
  /** Encrypting into the copy on disk, per format (GCM and CTR run at different rates). */
  encrypt: Partial<Record<LinkFormat, Figure>>;
}

export const NO_FIGURES: TransportFigures = { origins: {}, encrypt: {} };

const MIB = 1024 * 1024;
/**
 * Below this, files keep the default way and teach nothing: a few MiB are over before a rate means
 * anything (a request's start and its answer dominate), and the choice saves little there.
 */
export const MEASURED_FROM_BYTES = 8 * MIB;
/** The other way must be estimated this much faster (time × MARGIN) before the choice switches. */
export const MARGIN = 0.9;
/** A new sample's weight in the log of its figure (a quarter), with its ratio clamped to ×/÷ 2 … */
const WEIGHT = 0.25;
const CLAMP = 2;
/** … so one sample moves a figure by at most this factor. */
export const STEP = CLAMP ** WEIGHT;
/** After this many streamed uploads without a disk send, a capped stream tries the disk way once again. */
export const REPROBE_AFTER = 10;
/** Origins kept; the ones heard from least recently go first. */
const MAX_ORIGINS = 64;

/** What one finished upload measured. Times in ms; `bytes` = the bytes sent (the encrypted size). */
export type UploadSample = {
  origin: string;
  format: LinkFormat;
  bytes: number;
  /** The choice was a probe (tells the send rate), not the figures' choice. */
  probe?: boolean;
} & ({ way: 'stream'; sendMs: number } | { way: 'disk'; encryptMs: number; sendMs: number });

export interface ChoiceQuestion {
  origin: string;
  format: LinkFormat;
  /** Plaintext bytes. */
  size: number;
  /** shouldStream() said yes: without it the answer is always the disk. */
  streamable: boolean;
}

export interface Choice {
  way: UploadWay;
  /** Why, for the record and the bench: the figures say so, a probe, or too few figures (the default). */
  reason: 'cannot stream' | 'small file' | 'no figures' | 'figures' | 'probe';
}

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

/** The figures with one finished upload's sample in them (a new object; `figures` is not changed). */
export function recordSample(figures: TransportFigures, sample: UploadSample, now: number): TransportFigures {
  if (sample.bytes < MEASURED_FROM_BYTES || !usable(sample.sendMs)) return figures;
  if (sample.way === 'disk' && !usable(sample.encryptMs)) return figures;
  const old = figures.origins[sample.origin] ?? {};
  const next: OriginFigures = { ...old };
  const encrypt = { ...figures.encrypt };
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
    encrypt[sample.format] = smooth(encrypt[sample.format], rateOf(sample.bytes, sample.encryptMs), now);
  }
  if (!sample.probe) next.chosen = sample.way;
  const origins = { ...figures.origins, [sample.origin]: next };
  const byAge = Object.keys(origins).sort((a, b) => lastHeard(origins[b]!) - lastHeard(origins[a]!));
  for (const gone of byAge.slice(MAX_ORIGINS)) delete origins[gone];
  return { origins, encrypt };
}

const lastHeard = (o: OriginFigures) => Math.max(o.stream?.at ?? 0, o.send?.at ?? 0);

/**
 * The fastest stream this browser has sent to any origin: Chromium's cap, as far as it has been seen.
 * A stream near it may be held by the cap rather than by the link.
 */
function streamCap(figures: TransportFigures): number {
  return Math.max(0, ...Object.values(figures.origins).map((o) => o.stream?.rate ?? 0));
}

/** The way for one upload. */
export function chooseWay(figures: TransportFigures, q: ChoiceQuestion): Choice {
  if (!q.streamable) return { way: 'disk', reason: 'cannot stream' };
  if (q.size < MEASURED_FROM_BYTES) return { way: 'stream', reason: 'small file' };
  const origin = figures.origins[q.origin];
  const stream = origin?.stream?.rate;
  // No stream yet: the stream first (today's default), which also measures it.
  if (!stream) return { way: 'stream', reason: 'no figures' };
  // Settled on the disk way for a while: try the stream once, or a figure from a bad moment would
  // keep it from ever being measured again.
  if (origin.chosen === 'disk' && (origin.disksSinceStream ?? 0) >= REPROBE_AFTER)
    return { way: 'stream', reason: 'probe' };
  const encrypt = figures.encrypt[q.format]?.rate;
  const send = origin.send?.rate;
  // Seconds per byte each way. The disk way can win only if encrypting alone beats the stream.
  const streamTime = 1 / stream;
  const diskCouldWin = encrypt === undefined || 1 / encrypt < MARGIN * streamTime;
  if (send === undefined || encrypt === undefined || (origin.streamsSinceDisk ?? 0) >= REPROBE_AFTER) {
    // Not known (or not lately) how fast the link takes a file: try the disk way once, when the
    // stream looks held by the cap rather than by a slow link, and the disk way could win at all.
    // One stream is not enough to tell: the first may have been a cold start.
    const capped = origin.stream!.samples >= 2 && stream >= MARGIN * streamCap(figures);
    if (capped && diskCouldWin) return { way: 'disk', reason: 'probe' };
    if (send === undefined || encrypt === undefined) return { way: 'stream', reason: 'no figures' };
  }
  const diskTime = 1 / encrypt + 1 / send;
  if ((origin.chosen ?? 'stream') === 'stream')
    return { way: diskTime <= MARGIN * streamTime ? 'disk' : 'stream', reason: 'figures' };
  return { way: streamTime <= MARGIN * diskTime ? 'stream' : 'disk', reason: 'figures' };
}

/** Figures as read from storage: anything malformed is dropped rather than trusted. */
export function normalizeFigures(value: unknown): TransportFigures {
  if (!value || typeof value !== 'object') return NO_FIGURES;
  const v = value as Partial<TransportFigures>;
  const figure = (f: unknown): Figure | undefined => {
    const g = f as Figure | undefined;
    return g && Number.isFinite(g.rate) && g.rate > 0 && Number.isFinite(g.samples) && Number.isFinite(g.at)
      ? { rate: g.rate, samples: g.samples, at: g.at }
      : undefined;
  };
  const origins: Record<string, OriginFigures> = {};
  for (const [origin, o] of Object.entries(v.origins ?? {})) {
    if (!o || typeof o !== 'object') continue;
    const kept: OriginFigures = {};
    const stream = figure(o.stream);
    const send = figure(o.send);
    if (stream) kept.stream = stream;
    if (send) kept.send = send;
    if (o.chosen === 'stream' || o.chosen === 'disk') kept.chosen = o.chosen;
    if (Number.isInteger(o.streamsSinceDisk)) kept.streamsSinceDisk = o.streamsSinceDisk;
    if (Number.isInteger(o.disksSinceStream)) kept.disksSinceStream = o.disksSinceStream;
    origins[origin] = kept;
  }
  const encrypt: TransportFigures['encrypt'] = {};
  for (const format of ['teknik', 'ece'] as const) {
    const f = figure(v.encrypt?.[format]);
    if (f) encrypt[format] = f;
  }
  return { origins, encrypt };
}
