// The way an encrypted upload goes (stream or disk), chosen from the browser's own measurements
// (lib/upload/transport-choice.ts, issue 21). Rates below are in MiB/s and sizes in MiB, as the
// bench measured them: the stream held near 27 MiB/s by Chromium's pipe, a 1 Gbit/s link taking a
// file at about 110 MiB/s, a 200 Mbit/s one at about 24.
import { describe, expect, it } from 'vitest';
import {
  chooseWay,
  MEASURED_FROM_BYTES,
  NO_FIGURES,
  normalizeFigures,
  recordSample,
  type TransportFigures,
  type UploadSample,
} from '../../lib/upload';
import { REPROBE_AFTER, STEP } from '../../lib/upload/transport-choice';

const MIB = 1024 * 1024;
const origin = 'https://files.example:8443';
const size = 256 * MIB;
const ask = (figures: TransportFigures, more: Partial<Parameters<typeof chooseWay>[1]> = {}) =>
  chooseWay(figures, { origin, format: 'teknik', size, streamable: true, ...more });

/** A finished upload of `size` at these rates (MiB/s). */
const streamed = (mibps: number, more: Partial<UploadSample> = {}): UploadSample =>
  ({
    origin,
    format: 'teknik',
    bytes: size,
    way: 'stream',
    sendMs: (size / MIB / mibps) * 1000,
    ...more,
  }) as UploadSample;
const onDisk = (encryptMibps: number, sendMibps: number, more: Partial<UploadSample> = {}): UploadSample =>
  ({
    origin,
    format: 'teknik',
    bytes: size,
    way: 'disk',
    encryptMs: (size / MIB / encryptMibps) * 1000,
    sendMs: (size / MIB / sendMibps) * 1000,
    ...more,
  }) as UploadSample;

let now = 1_000;
/** Records each sample in turn, a second apart. */
function learn(samples: UploadSample[], from: TransportFigures = NO_FIGURES): TransportFigures {
  let figures = from;
  for (const s of samples) {
    now += 1000;
    figures = recordSample(figures, s, now);
  }
  return figures;
}

const rate = (figures: TransportFigures, which: 'stream' | 'send') =>
  (figures.origins[origin]?.[which]?.rate ?? 0) / MIB;

describe('chooseWay', () => {
  it('no data: the stream (today’s default)', () => {
    expect(ask(NO_FIGURES)).toEqual({ way: 'stream', reason: 'no figures' });
  });

  it('never the stream where shouldStream() says no, whatever the figures', () => {
    const figures = learn([streamed(200), streamed(200)]);
    expect(ask(figures, { streamable: false }).way).toBe('disk');
    expect(ask(NO_FIGURES, { streamable: false, size: 1024 })).toEqual({
      way: 'disk',
      reason: 'cannot stream',
    });
  });

  it('a small file keeps the stream and teaches nothing', () => {
    const fast = learn([streamed(27), onDisk(500, 110, { probe: true })]);
    expect(ask(fast).way).toBe('disk');
    expect(ask(fast, { size: MEASURED_FROM_BYTES - 1 })).toEqual({ way: 'stream', reason: 'small file' });
    const small = streamed(1, { bytes: MIB, sendMs: 1 });
    expect(recordSample(fast, small, 99_000)).toBe(fast);
  });

  it('a stream at the cap with no disk figures: one probe of the disk way, after a second stream', () => {
    // One stream may be a cold start: no probe on it alone.
    expect(ask(learn([streamed(27)]))).toEqual({ way: 'stream', reason: 'no figures' });
    const figures = learn([streamed(27), streamed(27)]);
    expect(ask(figures)).toEqual({ way: 'disk', reason: 'probe' });
  });

  it('a cold first stream is replaced by a faster second one, not averaged in', () => {
    const figures = learn([streamed(3.8), streamed(20)]);
    expect(rate(figures, 'stream')).toBeCloseTo(20, 5);
    // From the third sample on, one step at most.
    expect(rate(learn([streamed(100)], figures), 'stream')).toBeCloseTo(20 * STEP, 5);
  });

  it(`after ${REPROBE_AFTER} disk uploads on the disk way, the stream is tried again and measured afresh`, () => {
    // A stream figure from a bad moment made the disk way look better.
    let figures = learn([streamed(5), streamed(5), onDisk(100, 40, { probe: true }), onDisk(100, 40)]);
    expect(figures.origins[origin]!.chosen).toBe('disk');
    // Two disk uploads so far (the probe and the first chosen one).
    for (let i = 0; i < REPROBE_AFTER - 3; i++) figures = learn([onDisk(100, 40)], figures);
    expect(ask(figures).way).toBe('disk');
    figures = learn([onDisk(100, 40)], figures);
    expect(ask(figures)).toEqual({ way: 'stream', reason: 'probe' });
    // The stream now runs at 60 MiB/s: its figure is that, not one step up from 5.
    figures = learn([streamed(60, { probe: true })], figures);
    expect(rate(figures, 'stream')).toBeCloseTo(60, 5);
    expect(ask(figures).way).toBe('stream');
  });

  it('stream at the cap on a fast link: the disk way', () => {
    // The probe found the link takes a file at 110 MiB/s and encryption runs at 500 MiB/s:
    // 1/500 + 1/110 per MiB against 1/27.
    const figures = learn([streamed(27), onDisk(500, 110, { probe: true })]);
    expect(ask(figures)).toEqual({ way: 'disk', reason: 'figures' });
    // Chosen on the figures now, so it stays there as the disk sends go on.
    const after = learn([onDisk(480, 105), onDisk(520, 115)], figures);
    expect(ask(after).way).toBe('disk');
    expect(after.origins[origin]!.chosen).toBe('disk');
  });

  it('slow link: the stream (the disk way would add the encryption time)', () => {
    // 200 Mbit/s: the stream and the file both at the link's 23.8 MiB/s.
    const figures = learn([streamed(23.8), onDisk(100, 23.8, { probe: true })]);
    expect(ask(figures)).toEqual({ way: 'stream', reason: 'figures' });
    // A probe is not a choice: the origin still counts as streaming.
    expect(figures.origins[origin]!.chosen).toBe('stream');
  });

  it('a stream well below this browser’s fastest one is held by its link: no probe', () => {
    const elsewhere = 'https://fast.example';
    const figures = learn([
      streamed(80, { origin: elsewhere }),
      streamed(80, { origin: elsewhere }),
      streamed(12),
    ]);
    expect(ask(figures)).toEqual({ way: 'stream', reason: 'no figures' });
    expect(chooseWay(figures, { origin: elsewhere, format: 'teknik', size, streamable: true }).way).toBe(
      'disk',
    );
  });

  it('no probe when encrypting alone is slower than the stream', () => {
    // Encryption measured (to another origin) at 25 MiB/s: the disk way cannot beat a 27 MiB/s stream.
    const figures = learn([onDisk(25, 40, { origin: 'http://plain.example' }), streamed(27)]);
    expect(ask(figures).way).toBe('stream');
  });

  it('each format has its own encryption rate', () => {
    const figures = learn([streamed(27), streamed(27), onDisk(500, 110, { probe: true })]);
    // Nothing known of the authenticated format's encryption yet: it probes rather than assume CTR's rate.
    expect(ask(figures, { format: 'ece' })).toEqual({ way: 'disk', reason: 'probe' });
  });

  it('one outlier does not flip the choice, either way', () => {
    const onDiskNow = learn([streamed(27), onDisk(500, 110, { probe: true }), onDisk(500, 110)]);
    expect(ask(onDiskNow).way).toBe('disk');
    // One send crawled (a moment of congestion), and one encryption stalled.
    expect(ask(learn([onDisk(500, 0.01)], onDiskNow)).way).toBe('disk');
    expect(ask(learn([onDisk(0.01, 110)], onDiskNow)).way).toBe('disk');

    const streaming = learn([streamed(23.8), onDisk(100, 23.8, { probe: true }), streamed(23.8)]);
    expect(ask(streaming).way).toBe('stream');
    // One stream crawled (which makes the disk way look better) …
    expect(ask(learn([streamed(0.01)], streaming)).way).toBe('stream');
    // … and a figure moves by at most one step, whatever the sample.
    expect(rate(learn([streamed(0.01)], streaming), 'stream')).toBeCloseTo(23.8 / STEP, 5);
    expect(rate(learn([streamed(1e6)], streaming), 'stream')).toBeCloseTo(23.8 * STEP, 5);
  });

  it('a lasting change does move it: the link gets slow, and the stream comes back', () => {
    let figures = learn([streamed(27), onDisk(500, 110, { probe: true }), onDisk(500, 110)]);
    const ways: string[] = [];
    for (let i = 0; i < 30 && ask(figures).way === 'disk'; i++) {
      figures = learn([onDisk(500, 10)], figures);
      ways.push(ask(figures).way);
    }
    expect(ways.at(-1)).toBe('stream');
    // Not on the first slow send.
    expect(ways[0]).toBe('disk');
  });

  it(`after ${REPROBE_AFTER} streams at the cap, the disk way is tried again`, () => {
    let figures = learn([streamed(27), onDisk(100, 24, { probe: true })]);
    for (let i = 0; i < REPROBE_AFTER - 1; i++) figures = learn([streamed(27)], figures);
    expect(ask(figures).way).toBe('stream');
    figures = learn([streamed(27)], figures);
    expect(ask(figures)).toEqual({ way: 'disk', reason: 'probe' });
    // The probe found a faster link now (the person moved to a faster network).
    figures = learn([onDisk(500, 110, { probe: true })], figures);
    expect(ask(figures).way).toBe('disk');
  });

  it('keeps origins only, and no more than a bounded number of them', () => {
    let figures = NO_FIGURES;
    for (let i = 0; i < 100; i++)
      figures = learn([streamed(20, { origin: `https://h${i}.example` })], figures);
    const kept = Object.keys(figures.origins);
    expect(kept.length).toBeLessThanOrEqual(64);
    expect(kept).toContain('https://h99.example');
    expect(kept).not.toContain('https://h0.example');
  });
});

describe('normalizeFigures', () => {
  it('drops what is malformed and keeps what is sound', () => {
    const good = learn([streamed(27), onDisk(500, 110, { probe: true })]);
    expect(normalizeFigures(JSON.parse(JSON.stringify(good)))).toEqual(good);
    expect(normalizeFigures(undefined)).toEqual(NO_FIGURES);
    expect(normalizeFigures('x')).toEqual(NO_FIGURES);
    const bad = normalizeFigures({
      origins: {
        [origin]: { stream: { rate: -1, samples: 1, at: 1 }, send: { rate: 'fast' }, chosen: 'pigeon' },
      },
      encrypt: { teknik: { rate: Number.NaN, samples: 1, at: 1 } },
    });
    expect(bad).toEqual({ origins: { [origin]: {} }, encrypt: {} });
  });
});
