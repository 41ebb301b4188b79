// An upload in parts whose connection breaks off (lib/upload/parts-runner.ts, held-parts.ts): against the
// real server behind the cutting front of the e2e suite, its requests recorded. The runner waits (its
// pauses are recorded here, not slept), asks the server which parts it holds, and sends only the others;
// it stops when the server no longer holds the session, or at a Cancel, and then nothing is left.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eceDecryptBytes } from '../../lib/crypto';
import { newFileCipher } from '../../lib/crypto/file-cipher';
import { backoffMs, FIRST_PAUSE_MS, LONGEST_PAUSE_MS, type Sleep } from '../../lib/upload/backoff';
import { UploadError } from '../../lib/upload/errors';
import { MIN_PART_BYTES } from '../../lib/upload/parts';
import type { PartsExchange } from '../../lib/upload/parts-runner';
import { Declined } from '../../lib/upload/plan';
import type { UploadTarget } from '../../lib/upload/types';
import { partPutsAtServer, startPartsFront } from '../e2e/support/parts-front';
import { serversStoppedAfterEach, storedFiles } from '../server/test-helpers';
import { fetchExchange } from './fetch-exchange';
import { sealedPartsUpload } from './sealed-parts';

const start = serversStoppedAfterEach();
const PART = MIN_PART_BYTES;
const PART_PUT = /\/Upload\/Parts\/[A-Za-z0-9]+\/(\d+)\?sub=api$/;
const SESSION = /\/Upload\/Parts\/([A-Za-z0-9]+)\?sub=api$/;

const LIFETIME_MS = 3_600_000;

/** The server (its requests recorded) behind the cutting front; the target is the front. */
async function serverBehindFront(now?: () => number) {
  const s = await start({
    record: true,
    ...(now ? { now } : {}),
    settings: { parts: { partBytes: PART, sessionLifetimeMs: LIFETIME_MS, sessionsPerAddress: 0 } },
  });
  const front = await startPartsFront(s.server, '127.0.0.1');
  const target: UploadTarget = { variant: 'legacy', addresses: front.addresses };
  return { server: s.server, front, target };
}

/**
 * A Sleep that records each pause and returns at once (after `each`, which plays what happens while
 * the client waits), or rejects when the upload is cancelled or failed.
 */
function recordedSleep(each: (pause: number, n: number) => void | Promise<void> = () => {}) {
  const pauses: number[] = [];
  const sleep: Sleep = async (ms, signal) => {
    pauses.push(ms);
    await each(ms, pauses.length);
    await new Promise((r) => setImmediate(r));
    if (signal.aborted) throw signal.reason;
  };
  return { pauses, sleep };
}

function upload(target: UploadTarget, plain: Uint8Array<ArrayBuffer>, more: object = {}) {
  const cipher = newFileCipher('ece');
  const waiting: boolean[] = [];
  const outcome = sealedPartsUpload(target, plain, { onWaiting: (w) => waiting.push(w), ...more }, cipher);
  return { outcome, waiting, secret: (cipher as { secret: Uint8Array }).secret };
}

describe('an upload in parts whose connection breaks off', () => {
  it('cut mid-part, then mid-another, an answer lost and the network down a while: it resumes, sends no held part again, and completes', async () => {
    const { server: s, front, target } = await serverBehindFront();
    try {
      const plain = new Uint8Array(randomBytes(4 * PART));
      // Part 1 is cut mid-body (the network then stays down for two tries), part 2's answer is lost
      // after the server stored it, part 3 is cut mid-body.
      front.drop.set(1, 1).set(3, 1);
      front.dropAnswer.set(2, 1);
      let downFor = 0;
      const { pauses, sleep } = recordedSleep(() => {
        if (pauses.length === 1) {
          front.down = true;
          downFor = 2;
        } else if (downFor > 0 && --downFor === 0) front.down = false;
      });
      const { outcome, waiting, secret } = upload(target, plain, { sleep });
      const sent = await outcome;
      if (sent instanceof Declined) throw new Error(`declined: ${sent.reason}`);
      expect(front.down).toBe(false);
      // Each part reached the server whole exactly once: none it held was sent again.
      const puts = partPutsAtServer(s.requests);
      expect([...puts.keys()].sort()).toEqual([0, 1, 2, 3, 4]);
      for (const [index, bodies] of puts) expect(bodies, `part ${index}`).toHaveLength(1);
      // The front saw the cut tries, and the client asked which parts the server holds.
      const seenPuts = (index: number) =>
        front.seen.filter((r) => r.method === 'PUT' && PART_PUT.exec(r.path)?.[1] === String(index));
      expect(seenPuts(1)).toHaveLength(2);
      expect(seenPuts(3)).toHaveLength(2);
      expect(seenPuts(2)).toHaveLength(1);
      expect(
        front.seen.filter((r) => r.method === 'GET' && SESSION.test(r.path)).length,
      ).toBeGreaterThanOrEqual(3);
      expect(waiting[0]).toBe(true);
      expect(waiting.at(-1)).toBe(false);
      // The pauses grew while the network stayed down (jittered, from 1 s doubling).
      expect(pauses.length).toBeGreaterThanOrEqual(3);
      for (const pause of pauses) expect(pause).toBeLessThanOrEqual(LONGEST_PAUSE_MS);
      expect(pauses[0]).toBeGreaterThanOrEqual(FIRST_PAUSE_MS / 2);
      expect(pauses[2]).toBeGreaterThanOrEqual(2 * FIRST_PAUSE_MS);
      const stored = await s.stored(sent.result.fileName);
      const opened = await eceDecryptBytes(new Uint8Array(await stored!.bytes()), secret);
      expect(Buffer.from(opened).equals(Buffer.from(plain))).toBe(true);
    } finally {
      await front.close();
    }
  });

  it('a session the server no longer holds ends the waiting with a sentence that says to send it again', async () => {
    const { server: s, front, target } = await serverBehindFront();
    try {
      front.drop.set(1, Number.POSITIVE_INFINITY);
      const { sleep } = recordedSleep(async (_pause, n) => {
        if (n !== 1) return;
        // While the client waits, the session goes (as the sweeper removes an expired one).
        const id = front.seen.map((r) => /\/Parts\/([A-Za-z0-9]+)\/\d+/.exec(r.path)?.[1]).find(Boolean)!;
        const aborted = await fetch(`${s.baseUrl}/v1/Upload/Parts/${id}?sub=api`, { method: 'DELETE' });
        expect(aborted.status).toBe(204);
      });
      const { outcome } = upload(target, new Uint8Array(randomBytes(3 * PART)), { sleep });
      await expect(outcome).rejects.toMatchObject({ name: 'UploadError', kind: 'session-gone', status: 404 });
      await expect(outcome).rejects.toThrow(/no longer holds this upload.*Send the file again/);
      expect(await storedFiles(s)).toEqual([]);
    } finally {
      await front.close();
    }
  });

  it('a Cancel while it waits aborts the session: nothing is left on the server', async () => {
    const { server: s, front, target } = await serverBehindFront();
    try {
      front.drop.set(1, Number.POSITIVE_INFINITY);
      const cancel = new AbortController();
      const { pauses, sleep } = recordedSleep(() => cancel.abort());
      const { outcome, waiting } = upload(target, new Uint8Array(randomBytes(3 * PART)), {
        sleep,
        signal: cancel.signal,
      });
      await expect(outcome).rejects.toMatchObject({ name: 'UploadError', kind: 'aborted' });
      expect(pauses).toHaveLength(1);
      expect(waiting).toEqual([true]);
      expect(s.requests.filter((r) => r.method === 'DELETE' && SESSION.test(r.url))).toHaveLength(1);
      expect(await storedFiles(s)).toEqual([]);
      const left: string[] = [];
      for await (const r of s.hushdrop.storage.records.list()) left.push(r.key);
      expect(left).toEqual([]);
      expect((await s.storedBlobs()).inProgress).toBe(0);
    } finally {
      await front.close();
    }
  });

  // Where Done's answer is lost: before it reached the server; after the server made the upload; and after
  // that, with the server's finished session expired while the client waited (as a server that keeps no
  // Done answer, Teknik's or an older Hushdrop, answers at once).
  const losses = {
    before: 'before it reached the server',
    after: 'after the server finished',
    expired: 'after the server finished, kept until the session expired, which it then did',
  } as const;
  for (const [lost, when] of Object.entries(losses)) {
    const sentence = lost === 'expired';
    it(`Done whose answer is lost (${when}): ${sentence ? 'a sentence says the link never arrived' : 'it asks, then gets the upload’s answer'}`, async () => {
      let shift = 0;
      const { server: s, front, target } = await serverBehindFront(() => Date.now() + shift);
      try {
        let lose = true;
        const losingDone: PartsExchange<Uint8Array<ArrayBuffer>> = async (req, options) => {
          if (req.method !== 'POST' || !SESSION.test(req.url) || !lose) return fetchExchange(req, options);
          lose = false;
          if (lost !== 'before') await fetchExchange(req, options);
          if (sentence) shift += LIFETIME_MS;
          throw new UploadError('network', 'The connection broke off.');
        };
        const { sleep } = recordedSleep();
        const plain = new Uint8Array(randomBytes(PART + 1));
        const { outcome, secret } = upload(target, plain, { sleep, exchange: losingDone });
        const dones = () => s.requests.filter((r) => r.method === 'POST' && SESSION.test(r.url));
        if (sentence) {
          await expect(outcome).rejects.toMatchObject({ kind: 'session-gone' });
          await expect(outcome).rejects.toThrow(/its link never arrived/);
          expect(dones()).toHaveLength(1);
          return;
        }
        const sent = await outcome;
        if (sent instanceof Declined) throw new Error(`declined: ${sent.reason}`);
        // Done reached the server once, or twice: the second answered what the first made.
        expect(dones()).toHaveLength(lost === 'before' ? 1 : 2);
        expect(await storedFiles(s)).toHaveLength(1);
        const stored = await s.stored(sent.result.fileName);
        const opened = await eceDecryptBytes(new Uint8Array(await stored!.bytes()), secret);
        expect(Buffer.from(opened).equals(Buffer.from(plain))).toBe(true);
        expect(sent.result.deletionKey).toBe(stored!.deletionKey);
      } finally {
        await front.close();
      }
    });
  }

  it('waits from 1 s, doubling, at most 30 s, each pause jittered between half and all of it', () => {
    const at = (random: number) => [0, 1, 2, 5, 6, 40].map((n) => backoffMs(n, () => random));
    expect(at(0)).toEqual([500, 1000, 2000, 15_000, 15_000, 15_000]);
    expect(at(0.5)).toEqual([750, 1500, 3000, 22_500, 22_500, 22_500]);
  });
});
