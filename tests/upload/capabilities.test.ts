// What this browser knows of each server it uploads to (lib/upload/capabilities.ts): one record per
// origin, seeded by an info answer, changed by a refusal, kept in storage as data that is read back
// as untrusted; and the browser's side, the feature test for request streams, which tells a browser
// that takes a stream body from one that would turn it into text, as Firefox ESR does.
import { describe, expect, it } from 'vitest';
import {
  type Capabilities,
  capabilitiesFromRates,
  type Learned,
  learn,
  MAX_SERVERS,
  NO_CAPABILITIES,
  readCapabilities,
  requestStreamsSupported,
} from '../../lib/upload/capabilities';
import { type ServerKind, UNKNOWN_SERVER } from '../../lib/upload/server-kind';

const MIB = 1024 * 1024;
const ORIGIN = 'https://files.example';
const HUSHDROP: ServerKind = { hushdrop: true, formats: ['teknik', 'ece'], parts: true };
const OLD_HUSHDROP: ServerKind = { hushdrop: true, formats: ['teknik', 'ece'], parts: false };
const streamedSample = { way: 'stream', sendMs: 1000, format: 'teknik', bytes: 64 * MIB } as const;

let now = 1_000;
/** A second later. */
function tick(): number {
  now += 1000;
  return now;
}
/** What is known after each lesson of ORIGIN in turn, a second apart. */
function taught(lessons: Learned[], from: Capabilities = NO_CAPABILITIES): Capabilities {
  let caps = from;
  for (const lesson of lessons) caps = learn(caps, ORIGIN, lesson, tick());
  return caps;
}
const record = (caps: Capabilities) => caps.servers[ORIGIN];

describe('a server’s record', () => {
  it('an info answer says whether it takes parts, and which link formats', () => {
    expect(record(taught([{ kind: 'info', answer: HUSHDROP }]))).toMatchObject({
      parts: true,
      formats: ['teknik', 'ece'],
      infoAt: now,
    });
    // No answer (a Teknik server): no parts, Teknik's format.
    expect(record(taught([{ kind: 'info', answer: UNKNOWN_SERVER }]))).toMatchObject({
      parts: false,
      formats: ['teknik'],
    });
    expect(record(taught([{ kind: 'info', answer: OLD_HUSHDROP }]))?.parts).toBe(false);
  });

  it('a Start refused as unknown turns parts off until the next info answer', () => {
    const refused = taught([{ kind: 'info', answer: HUSHDROP }, { kind: 'parts-refused' }]);
    expect(record(refused)?.parts).toBe(false);
    // Other uploads do not bring it back …
    expect(record(taught([{ kind: 'sent', streamed: false }], refused))?.parts).toBe(false);
    // … a new answer does.
    expect(record(taught([{ kind: 'info', answer: HUSHDROP }], refused))?.parts).toBe(true);
  });

  it('a refused stream is remembered across uploads to that origin', () => {
    const refused = taught([{ kind: 'stream-refused' }]);
    expect(record(refused)?.streamRefused).toBe(true);
    const later = taught(
      [
        { kind: 'sent', streamed: false },
        { kind: 'parts-refused' },
        { kind: 'sent', streamed: false, sample: { ...streamedSample, way: 'disk', encryptMs: 100 } },
      ],
      refused,
    );
    expect(record(later)?.streamRefused).toBe(true);
    // Another origin's is its own.
    expect(learn(refused, 'https://other.example', { kind: 'stream-refused' }, now).servers[ORIGIN]).toEqual(
      record(refused),
    );
  });

  it('a refused stream is forgotten on a new info answer, whatever it says', () => {
    for (const answer of [HUSHDROP, UNKNOWN_SERVER]) {
      const caps = taught([{ kind: 'stream-refused' }, { kind: 'info', answer }]);
      expect(record(caps)?.streamRefused).toBeUndefined();
    }
  });

  it('a refused stream is forgotten when a stream to that origin works', () => {
    const caps = taught([{ kind: 'stream-refused' }, { kind: 'sent', streamed: true }]);
    expect(record(caps)?.streamRefused).toBeUndefined();
  });

  it('an upload that teaches nothing leaves the same object (nothing to write)', () => {
    const caps = taught([{ kind: 'info', answer: HUSHDROP }]);
    expect(learn(caps, ORIGIN, { kind: 'sent', streamed: false }, now + 1)).toBe(caps);
    expect(learn(caps, ORIGIN, { kind: 'sent', streamed: true }, now + 1)).toBe(caps);
  });

  it(`keeps the ${MAX_SERVERS} origins heard from last`, () => {
    let caps = NO_CAPABILITIES;
    for (let i = 0; i < MAX_SERVERS + 10; i++)
      caps = learn(caps, `https://h${i}.example`, { kind: 'info', answer: UNKNOWN_SERVER }, tick());
    // An old one heard from again stays.
    caps = learn(caps, 'https://h5.example', { kind: 'stream-refused' }, tick());
    caps = learn(caps, 'https://new.example', { kind: 'stream-refused' }, tick());
    const kept = Object.keys(caps.servers);
    expect(kept.length).toBe(MAX_SERVERS);
    expect(kept).toContain('https://h5.example');
    expect(kept).toContain('https://new.example');
    expect(kept).not.toContain('https://h11.example');
  });
});

describe('reading what storage holds', () => {
  it('keeps what is sound and drops what is malformed', () => {
    const good = taught([
      { kind: 'info', answer: HUSHDROP },
      { kind: 'stream-refused' },
      { kind: 'sent', streamed: false, sample: { ...streamedSample, way: 'disk', encryptMs: 100 } },
    ]);
    expect(readCapabilities(JSON.parse(JSON.stringify(good)))).toEqual(good);
    for (const odd of [undefined, 'x', [], { servers: 'x' }])
      expect(readCapabilities(odd)).toEqual(NO_CAPABILITIES);
    const bad = readCapabilities({
      servers: {
        [ORIGIN]: {
          at: 5,
          infoAt: 'yesterday',
          parts: 'yes',
          formats: ['ece', 'rot13', 'teknik'],
          streamRefused: 1,
          rates: { stream: { rate: -1, samples: 1, at: 1 }, send: { rate: 'fast' }, chosen: 'pigeon' },
        },
        'https://no-age.example': { parts: true },
      },
      encrypt: { teknik: { rate: Number.NaN, samples: 1, at: 1 }, ece: { rate: 5, samples: 1, at: 1 } },
    });
    expect(bad).toEqual({
      servers: { [ORIGIN]: { at: 5, formats: ['teknik', 'ece'], rates: {} } },
      encrypt: { ece: { rate: 5, samples: 1, at: 1 } },
    });
  });

  it('the rates an older version kept alone become the records’ rates', () => {
    const figure = { rate: 27 * MIB, samples: 3, at: 7_000 };
    const old = {
      origins: { [ORIGIN]: { stream: figure, chosen: 'stream', streamsSinceDisk: 3 } },
      encrypt: { teknik: { ...figure, rate: 500 * MIB } },
    };
    expect(capabilitiesFromRates(old)).toEqual({
      servers: { [ORIGIN]: { at: 7_000, rates: { stream: figure, chosen: 'stream', streamsSinceDisk: 3 } } },
      encrypt: { teknik: { ...figure, rate: 500 * MIB } },
    });
    expect(capabilitiesFromRates(undefined)).toEqual(NO_CAPABILITIES);
  });
});

describe('requestStreamsSupported', () => {
  it("says yes for Node's fetch Request, which streams request bodies", () => {
    expect(requestStreamsSupported(Request)).toBe(true);
  });

  it('says no for a Request that ignores duplex and turns the stream into text (as Firefox ESR)', () => {
    // What Firefox ESR 153 does, measured: no `duplex` read, the body becomes the string
    // "[object ReadableStream]" with Content-Type text/plain.
    class TextifyingRequest {
      readonly headers = new Headers();
      constructor(_url: string, init: { body?: unknown }) {
        if (init.body !== undefined) {
          String(init.body);
          this.headers.set('Content-Type', 'text/plain;charset=UTF-8');
        }
      }
    }
    expect(requestStreamsSupported(TextifyingRequest as unknown as typeof Request)).toBe(false);
  });

  it('says no when there is no Request, or when making one throws', () => {
    expect(requestStreamsSupported(undefined)).toBe(false);
    class Throwing {
      constructor() {
        throw new TypeError('streams are not supported');
      }
    }
    expect(requestStreamsSupported(Throwing as unknown as typeof Request)).toBe(false);
  });
});
