// The one planner (lib/upload/plan.ts) as a table: each row is an upload (mode, format, size), what
// is known of its server, what the browser can do and what was measured, and the ways it must be
// tried in, each with its reason. Then when the server's info is asked first, and how the ways are
// tried in order.
import { describe, expect, it } from 'vitest';
import type { ServerRecord } from '../../lib/upload/capabilities';
import {
  asksInfoFirst,
  type BrowserFigures,
  Declined,
  INFO_KEPT_MS,
  learnedFrom,
  learnedFromSent,
  type PlannedWay,
  type PlanQuestion,
  planUpload,
  type Sent,
  tryInOrder,
  type UploadWay,
  type WayJob,
  type WayName,
} from '../../lib/upload/plan';
import type { UploadResult } from '../../lib/upload/types';

const MIB = 1024 * 1024;
const HTTPS = 'https://files.example';
const HTTP = 'http://127.0.0.1:8787';
const NOW = 1_800_000_000_000;
const figure = (mibps: number) => ({ rate: mibps * MIB, samples: 3, at: NOW });

/** Servers as their records say. */
const NOTHING_KNOWN = undefined;
const NO_INFO_ANSWER: ServerRecord = { infoAt: NOW, parts: false, formats: ['teknik'], at: NOW };
const HUSHDROP_WITHOUT_PARTS: ServerRecord = {
  infoAt: NOW,
  parts: false,
  formats: ['teknik', 'ece'],
  at: NOW,
};
const HUSHDROP: ServerRecord = { infoAt: NOW, parts: true, formats: ['teknik', 'ece'], at: NOW };
const REFUSED_A_STREAM: ServerRecord = { ...NO_INFO_ANSWER, streamRefused: true };
/** Its rates say the disk way wins: a stream held at 27 MiB/s, a link taking a file at 110, encryption at 500. */
const FAST_LINK: ServerRecord = {
  ...NO_INFO_ANSWER,
  rates: { stream: figure(27), send: figure(110), chosen: 'disk', streamsSinceDisk: 0 },
};
/** Settled on the disk way for REPROBE_AFTER uploads: the stream is probed once more. */
const DISK_FOR_LONG: ServerRecord = { ...FAST_LINK, rates: { ...FAST_LINK.rates, disksSinceStream: 10 } };

const CHROMIUM = { requestStreams: true };
const FIREFOX = { requestStreams: false };
/** The server's upload page: no copy on disk, no request streams (it runs in any engine). */
const PAGE = { requestStreams: false, copyOnDisk: false };
const NO_FIGURES: BrowserFigures = { encrypt: {}, streamCap: 0 };
const MEASURED: BrowserFigures = { encrypt: { teknik: figure(500) }, streamCap: 27 * MIB };

const parts: PlannedWay = { way: 'parts', reason: 'server takes parts' };
const stream = (reason: PlannedWay['reason']): PlannedWay => ({ way: 'stream', reason });
const disk = (reason: PlannedWay['reason']): PlannedWay => ({ way: 'disk', reason });
const ifRefused = disk('if the stream is refused');

type Row = [
  what: string,
  mode: PlanQuestion['mode'],
  format: PlanQuestion['format'],
  mib: number,
  origin: string | undefined,
  server: ServerRecord | undefined,
  browser: PlanQuestion['browser'],
  figures: BrowserFigures,
  ways: PlannedWay[],
];

// biome-ignore format: a table reads best as one row a line
const TABLE: Row[] = [
  ['not encrypted: sent as it is',                  'none',   'teknik', 16,  HTTPS, HUSHDROP,               CHROMIUM, NO_FIGURES, [disk('not encrypted')]],
  ['server mode: sent as it is, never in parts',    'server', 'teknik', 512, HTTPS, HUSHDROP,               CHROMIUM, MEASURED,   [disk('not encrypted')]],
  ['16 MiB, nothing known of the server: no Start', 'client', 'teknik', 16,  HTTP,  NOTHING_KNOWN,          FIREFOX,  NO_FIGURES, [disk('cannot stream')]],
  ['16 MiB, no info answer: no Start',              'client', 'teknik', 16,  HTTP,  NO_INFO_ANSWER,         FIREFOX,  NO_FIGURES, [disk('cannot stream')]],
  ['16 MiB, info lists no parts: no Start',         'client', 'ece',    16,  HTTPS, HUSHDROP_WITHOUT_PARTS, CHROMIUM, NO_FIGURES, [stream('no figures'), ifRefused]],
  ['16 MiB to a server with parts, Firefox',        'client', 'teknik', 16,  HTTP,  HUSHDROP,               FIREFOX,  NO_FIGURES, [parts, disk('cannot stream')]],
  ['16 MiB to a server with parts, Chromium',       'client', 'ece',    16,  HTTPS, HUSHDROP,               CHROMIUM, NO_FIGURES, [parts, stream('no figures'), ifRefused]],
  ['just under 8 MiB: one request, and no rates',   'client', 'teknik', 7.99, HTTPS, HUSHDROP,              CHROMIUM, MEASURED,   [stream('small file'), ifRefused]],
  ['exactly 8 MiB to a server with parts',          'client', 'teknik', 8,   HTTP,  HUSHDROP,               CHROMIUM, NO_FIGURES, [parts, disk('cannot stream')]],
  ['a server that refused a stream: the disk',      'client', 'teknik', 16,  HTTPS, REFUSED_A_STREAM,       CHROMIUM, NO_FIGURES, [disk('cannot stream')]],
  ['plain http: no HTTP/2, no stream',              'client', 'teknik', 1,   HTTP,  NOTHING_KNOWN,          CHROMIUM, NO_FIGURES, [disk('cannot stream')]],
  ['an address that is not a URL',                  'client', 'teknik', 1,   undefined, NOTHING_KNOWN,      CHROMIUM, NO_FIGURES, [disk('cannot stream')]],
  ['rates say the disk way wins: no stream at all', 'client', 'teknik', 64,  HTTPS, FAST_LINK,              CHROMIUM, MEASURED,   [disk('figures')]],
  ['same rates, parts still first',                 'client', 'teknik', 64,  HTTPS, { ...FAST_LINK, parts: true }, CHROMIUM, MEASURED, [parts, disk('figures')]],
  ['the page, 1 byte to a server with parts: parts', 'client', 'ece',    1 / MIB, HTTPS, HUSHDROP,           PAGE,     NO_FIGURES, [parts, disk('cannot stream')]],
  ['the page, 7 MiB to a server with parts: parts', 'client', 'ece',    7,   HTTP,  HUSHDROP,               PAGE,     NO_FIGURES, [parts, disk('cannot stream')]],
  ['the page, a server without parts: one request', 'client', 'ece',    7,   HTTP,  HUSHDROP_WITHOUT_PARTS, PAGE,     NO_FIGURES, [disk('cannot stream')]],
  ['long on the disk way: the stream probed',       'client', 'teknik', 64,  HTTPS, DISK_FOR_LONG,          CHROMIUM, MEASURED,   [stream('probe'), ifRefused]],
];

describe('planUpload', () => {
  it.each(TABLE)('%s', (_what, mode, format, mib, origin, server, browser, figures, ways) => {
    const size = Math.round(mib * MIB);
    expect(planUpload({ mode, format, size, origin, server, browser, figures })).toEqual(ways);
  });

  it('every plan ends with the disk way, which never declines', () => {
    for (const [, mode, format, mib, origin, server, browser, figures] of TABLE)
      expect(
        planUpload({ mode, format, size: mib * MIB, origin, server, browser, figures }).at(-1)?.way,
      ).toBe('disk');
  });
});

describe('asksInfoFirst', () => {
  const ask = (mode: PlanQuestion['mode'], mib: number, server: ServerRecord | undefined, now = NOW) =>
    asksInfoFirst({ mode, size: mib * MIB, server }, now);

  it('asks before an encrypted upload that could go in parts, when the server was never asked', () => {
    expect(ask('client', 16, NOTHING_KNOWN)).toBe(true);
    // A record made by a refusal or a rate, without an answer.
    expect(ask('client', 16, { streamRefused: true, at: NOW })).toBe(true);
  });

  it('does not ask again while an answer, or the lack of one, stands', () => {
    expect(ask('client', 16, NO_INFO_ANSWER)).toBe(false);
    expect(ask('client', 16, HUSHDROP, NOW + INFO_KEPT_MS - 1)).toBe(false);
    expect(ask('client', 16, HUSHDROP, NOW + INFO_KEPT_MS)).toBe(true);
    // A clock set back: the answer is not trusted to be recent.
    expect(ask('client', 16, HUSHDROP, NOW - 1)).toBe(true);
  });

  it('never for an upload that cannot go in parts: not encrypted, or under 8 MiB', () => {
    expect(ask('none', 512, NOTHING_KNOWN)).toBe(false);
    expect(ask('server', 512, NOTHING_KNOWN)).toBe(false);
    expect(ask('client', 7.99, NOTHING_KNOWN)).toBe(false);
  });
});

describe('tryInOrder', () => {
  const result = { url: 'https://files.example/u/a', fileName: 'a' } as UploadResult;
  const job = {} as WayJob;
  /** Ways that answer as scripted, noting each try. */
  function ways(script: Partial<Record<WayName, () => Sent | Declined>>, tried: WayName[]) {
    const way = (name: WayName): UploadWay => ({
      send: async () => {
        tried.push(name);
        const answer = script[name];
        if (!answer) throw new Error(`${name} was not to be tried`);
        return answer();
      },
    });
    return { parts: way('parts'), stream: way('stream'), disk: way('disk') };
  }
  const plan: PlannedWay[] = [parts, stream('no figures'), ifRefused];

  it('stops at the first way that sends', async () => {
    const tried: WayName[] = [];
    const declines: Declined[] = [];
    const sent = await tryInOrder(plan, ways({ parts: () => ({ result }) }, tried), job, (d) =>
      declines.push(d),
    );
    expect(sent.planned).toEqual(parts);
    expect(tried).toEqual(['parts']);
    expect(declines).toEqual([]);
  });

  it('tells each decline, awaited, before the next way', async () => {
    const tried: WayName[] = [];
    const told: string[] = [];
    const script = {
      parts: () => new Declined('no parts'),
      stream: () => new Declined('stream refused'),
      disk: () => ({ result }),
    };
    const sent = await tryInOrder(plan, ways(script, tried), job, async (d) => {
      await Promise.resolve();
      told.push(`${d.reason} before ${tried.length}`);
    });
    expect(sent.planned).toEqual(ifRefused);
    expect(tried).toEqual(['parts', 'stream', 'disk']);
    expect(told).toEqual(['no parts before 1', 'stream refused before 2']);
  });

  it('a failure ends the upload: no other way sends the file again', async () => {
    const tried: WayName[] = [];
    const script = {
      parts: () => {
        throw new Error('Part 2 of 3 was refused (HTTP 413).');
      },
    };
    await expect(tryInOrder(plan, ways(script, tried), job, () => {})).rejects.toThrow(/Part 2 of 3/);
    expect(tried).toEqual(['parts']);
  });

  it('says so plainly if every way declined (a plan that does not end with the disk way)', async () => {
    const script = { stream: () => new Declined('stream refused') };
    await expect(tryInOrder([stream('no figures')], ways(script, []), job, () => {})).rejects.toThrow(
      /Every way planned for this upload declined it \(stream: stream refused\)/,
    );
  });
});

describe('what a way teaches of the server', () => {
  it('a Start refused as unknown, and a refused stream, are remembered; the rest say nothing of it', () => {
    expect(learnedFrom(new Declined('no parts'))).toEqual({ kind: 'parts-refused' });
    expect(learnedFrom(new Declined('stream refused'))).toEqual({ kind: 'stream-refused' });
    expect(learnedFrom(new Declined('parts busy'))).toBeUndefined();
    expect(learnedFrom(new Declined('no worker'))).toBeUndefined();
  });

  it('a sent upload: whether it streamed, and what it measured (a probe marked as such)', () => {
    const sealed = { format: 'teknik' as const, bytes: 64 * MIB };
    const measured = { way: 'stream' as const, sendMs: 2000 };
    expect(learnedFromSent(stream('probe'), { result, measured }, sealed)).toEqual({
      kind: 'sent',
      streamed: true,
      sample: { way: 'stream', sendMs: 2000, format: 'teknik', bytes: 64 * MIB, probe: true },
    });
    // In parts: nothing measured; sent as it is: no cipher, nothing measured.
    expect(learnedFromSent(parts, { result }, sealed)).toEqual({ kind: 'sent', streamed: false });
    expect(learnedFromSent(disk('not encrypted'), { result }, undefined)).toEqual({
      kind: 'sent',
      streamed: false,
    });
  });
  const result = { url: 'https://files.example/u/a', fileName: 'a' } as UploadResult;
});
