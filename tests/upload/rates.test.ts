// The one-request way (stream or disk), chosen by the planner from the browser's own measurements
// (lib/upload/plan.ts chooseOneRequest, the rates kept in lib/upload/capabilities.ts; issue 21). Rates
// below are in MiB/s and sizes in MiB, as the bench measured them: the stream held near 27 MiB/s by
// Chromium's pipe, a 1 Gbit/s link taking a file at about 110 MiB/s, a 200 Mbit/s one at about 24.
import { describe, expect, it } from 'vitest';
import {
  type Capabilities,
  learn,
  MEASURED_FROM_BYTES,
  NO_CAPABILITIES,
  REPROBE_AFTER,
  STEP,
  type UploadSample,
} from '../../lib/upload/capabilities';
import { browserFigures, chooseOneRequest, type PlanQuestion } from '../../lib/upload/plan';

const MIB = 1024 * 1024;
const origin = 'https://files.example:8443';
const size = 256 * MIB;
type Ask = Partial<Pick<PlanQuestion, 'origin' | 'format' | 'size'>> & { streamable?: boolean };
const ask = (caps: Capabilities, { streamable = true, ...more }: Ask = {}) => {
  const at = more.origin ?? origin;
  return chooseOneRequest({
    mode: 'client',
    format: 'teknik',
    size,
    origin: at,
    server: caps.servers[at],
    browser: { requestStreams: streamable },
    figures: browserFigures(caps),
    ...more,
  });
};

type Sample = UploadSample & { origin?: string };
/** A finished upload of `size` at these rates (MiB/s). */
const streamed = (mibps: number, more: Partial<Sample> = {}): Sample =>
  ({ format: 'teknik', bytes: size, way: 'stream', sendMs: (size / MIB / mibps) * 1000, ...more }) as Sample;
const onDisk = (encryptMibps: number, sendMibps: number, more: Partial<Sample> = {}): Sample =>
  ({
    format: 'teknik',
    bytes: size,
    way: 'disk',
    encryptMs: (size / MIB / encryptMibps) * 1000,
    sendMs: (size / MIB / sendMibps) * 1000,
    ...more,
  }) as Sample;

let now = 1_000;
/** Records each sample in turn, a second apart. */
function taught(samples: Sample[], from: Capabilities = NO_CAPABILITIES): Capabilities {
  let caps = from;
  for (const { origin: at = origin, ...sample } of samples) {
    now += 1000;
    caps = learn(caps, at, { kind: 'sent', streamed: sample.way === 'stream', sample }, now);
  }
  return caps;
}

const rate = (caps: Capabilities, which: 'stream' | 'send') =>
  (caps.servers[origin]?.rates?.[which]?.rate ?? 0) / MIB;
const chosen = (caps: Capabilities) => caps.servers[origin]!.rates!.chosen;

describe('chooseOneRequest', () => {
  it('no data: the stream (today’s default)', () => {
    expect(ask(NO_CAPABILITIES)).toEqual({ way: 'stream', reason: 'no figures' });
  });

  it('never the stream where it cannot be tried, whatever the figures', () => {
    const figures = taught([streamed(200), streamed(200)]);
    expect(ask(figures, { streamable: false }).way).toBe('disk');
    expect(ask(NO_CAPABILITIES, { streamable: false, size: 1024 })).toEqual({
      way: 'disk',
      reason: 'cannot stream',
    });
  });

  it('a small file keeps the stream and teaches nothing', () => {
    const fast = taught([streamed(27), onDisk(500, 110, { probe: true })]);
    expect(ask(fast).way).toBe('disk');
    expect(ask(fast, { size: MEASURED_FROM_BYTES - 1 })).toEqual({ way: 'stream', reason: 'small file' });
    const small = streamed(1, { bytes: MIB, sendMs: 1 });
    expect(learn(fast, origin, { kind: 'sent', streamed: true, sample: small }, 99_000)).toBe(fast);
  });

  it('a stream at the cap with no disk figures: one probe of the disk way, after a second stream', () => {
    // One stream may be a cold start: no probe on it alone.
    expect(ask(taught([streamed(27)]))).toEqual({ way: 'stream', reason: 'no figures' });
    const figures = taught([streamed(27), streamed(27)]);
    expect(ask(figures)).toEqual({ way: 'disk', reason: 'probe' });
  });

  it('a cold first stream is replaced by a faster second one, not averaged in', () => {
    const figures = taught([streamed(3.8), streamed(20)]);
    expect(rate(figures, 'stream')).toBeCloseTo(20, 5);
    // From the third sample on, one step at most.
    expect(rate(taught([streamed(100)], figures), 'stream')).toBeCloseTo(20 * STEP, 5);
  });

  it(`after ${REPROBE_AFTER} disk uploads on the disk way, the stream is tried again and measured afresh`, () => {
    // A stream figure from a bad moment made the disk way look better.
    let figures = taught([streamed(5), streamed(5), onDisk(100, 40, { probe: true }), onDisk(100, 40)]);
    expect(chosen(figures)).toBe('disk');
    // Two disk uploads so far (the probe and the first chosen one).
    for (let i = 0; i < REPROBE_AFTER - 3; i++) figures = taught([onDisk(100, 40)], figures);
    expect(ask(figures).way).toBe('disk');
    figures = taught([onDisk(100, 40)], figures);
    expect(ask(figures)).toEqual({ way: 'stream', reason: 'probe' });
    // The stream now runs at 60 MiB/s: its figure is that, not one step up from 5.
    figures = taught([streamed(60, { probe: true })], figures);
    expect(rate(figures, 'stream')).toBeCloseTo(60, 5);
    expect(ask(figures).way).toBe('stream');
  });

  it('stream at the cap on a fast link: the disk way', () => {
    // The probe found the link takes a file at 110 MiB/s and encryption runs at 500 MiB/s:
    // 1/500 + 1/110 per MiB against 1/27.
    const figures = taught([streamed(27), onDisk(500, 110, { probe: true })]);
    expect(ask(figures)).toEqual({ way: 'disk', reason: 'figures' });
    // Chosen on the figures now, so it stays there as the disk sends go on.
    const after = taught([onDisk(480, 105), onDisk(520, 115)], figures);
    expect(ask(after).way).toBe('disk');
    expect(chosen(after)).toBe('disk');
  });

  it('slow link: the stream (the disk way would add the encryption time)', () => {
    // 200 Mbit/s: the stream and the file both at the link's 23.8 MiB/s.
    const figures = taught([streamed(23.8), onDisk(100, 23.8, { probe: true })]);
    expect(ask(figures)).toEqual({ way: 'stream', reason: 'figures' });
    // A probe is not a choice: the origin still counts as streaming.
    expect(chosen(figures)).toBe('stream');
  });

  it('a stream well below this browser’s fastest one is held by its link: no probe', () => {
    const elsewhere = 'https://fast.example';
    const figures = taught([
      streamed(80, { origin: elsewhere }),
      streamed(80, { origin: elsewhere }),
      streamed(12),
    ]);
    expect(ask(figures)).toEqual({ way: 'stream', reason: 'no figures' });
    expect(ask(figures, { origin: elsewhere }).way).toBe('disk');
  });

  it('no probe when encrypting alone is slower than the stream', () => {
    // Encryption measured (to another origin) at 25 MiB/s: the disk way cannot beat a 27 MiB/s stream.
    const figures = taught([onDisk(25, 40, { origin: 'http://plain.example' }), streamed(27)]);
    expect(ask(figures).way).toBe('stream');
  });

  it('each format has its own encryption rate', () => {
    const figures = taught([streamed(27), streamed(27), onDisk(500, 110, { probe: true })]);
    // Nothing known of the authenticated format's encryption yet: it probes rather than assume CTR's rate.
    expect(ask(figures, { format: 'ece' })).toEqual({ way: 'disk', reason: 'probe' });
  });

  it('one outlier does not flip the choice, either way', () => {
    const onDiskNow = taught([streamed(27), onDisk(500, 110, { probe: true }), onDisk(500, 110)]);
    expect(ask(onDiskNow).way).toBe('disk');
    // One send crawled (a moment of congestion), and one encryption stalled.
    expect(ask(taught([onDisk(500, 0.01)], onDiskNow)).way).toBe('disk');
    expect(ask(taught([onDisk(0.01, 110)], onDiskNow)).way).toBe('disk');

    const streaming = taught([streamed(23.8), onDisk(100, 23.8, { probe: true }), streamed(23.8)]);
    expect(ask(streaming).way).toBe('stream');
    // One stream crawled (which makes the disk way look better) …
    expect(ask(taught([streamed(0.01)], streaming)).way).toBe('stream');
    // … and a figure moves by at most one step, whatever the sample.
    expect(rate(taught([streamed(0.01)], streaming), 'stream')).toBeCloseTo(23.8 / STEP, 5);
    expect(rate(taught([streamed(1e6)], streaming), 'stream')).toBeCloseTo(23.8 * STEP, 5);
  });

  it('a lasting change does move it: the link gets slow, and the stream comes back', () => {
    let figures = taught([streamed(27), onDisk(500, 110, { probe: true }), onDisk(500, 110)]);
    const ways: string[] = [];
    for (let i = 0; i < 30 && ask(figures).way === 'disk'; i++) {
      figures = taught([onDisk(500, 10)], figures);
      ways.push(ask(figures).way);
    }
    expect(ways.at(-1)).toBe('stream');
    // Not on the first slow send.
    expect(ways[0]).toBe('disk');
  });

  it(`after ${REPROBE_AFTER} streams at the cap, the disk way is tried again`, () => {
    let figures = taught([streamed(27), onDisk(100, 24, { probe: true })]);
    for (let i = 0; i < REPROBE_AFTER - 1; i++) figures = taught([streamed(27)], figures);
    expect(ask(figures).way).toBe('stream');
    figures = taught([streamed(27)], figures);
    expect(ask(figures)).toEqual({ way: 'disk', reason: 'probe' });
    // The probe found a faster link now (the person moved to a faster network).
    figures = taught([onDisk(500, 110, { probe: true })], figures);
    expect(ask(figures).way).toBe('disk');
  });

  it('keeps origins only, and no more than a bounded number of them', () => {
    let figures = NO_CAPABILITIES;
    for (let i = 0; i < 100; i++)
      figures = taught([streamed(20, { origin: `https://h${i}.example` })], figures);
    const kept = Object.keys(figures.servers);
    expect(kept.length).toBeLessThanOrEqual(64);
    expect(kept).toContain('https://h99.example');
    expect(kept).not.toContain('https://h0.example');
  });
});
