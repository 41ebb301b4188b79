// An upload in parts (…/v1/Upload/Parts): Start, parts in any order and in parallel, Done gives the upload
// a one-request upload makes; every hostile request is refused with a sentence and stores nothing.
// Runs on disk and (vitest.config.ts) on S3, where parts must be at least 5 MiB.

import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MIN_PART_BYTES } from '../../server/config/settings';
import type { Storage } from '../../server/storage/types';
import { PartsSessions } from '../../server/uploads/parts-sessions';
import { basic, PartsClient, partsBase } from './parts-client';
import { storageUnderTest } from './storage-under-test';
import {
  currentUploadUrl,
  form,
  getBytes,
  legacyUploadUrl,
  post,
  randomBytesOf,
  serversStoppedAfterEach,
  storedFiles,
} from './test-helpers';

const start = serversStoppedAfterEach();

const PART = MIN_PART_BYTES;
/** Two whole parts and a short last one. */
const FILE = randomBytesOf(2 * PART + 12345, 7);
const slice = (index: number) => PartsClient.slice(FILE, PART, index);
const ACCOUNT = { username: 'alice', token: 'alice-token-1' };

function fields(extra: Record<string, string> = {}): Record<string, string> {
  return {
    encrypt: 'false',
    contentType: 'application/x-test',
    genDeletionKey: 'true',
    partsTotal: String(FILE.length),
    fileName: 'report.tar.gz',
    ...extra,
  };
}

async function server(settings: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return (
    await start({
      accounts: [ACCOUNT, { username: 'bob', token: 'bob-token-1' }],
      settings: {
        parts: { partBytes: PART, sessionLifetimeMs: 3_600_000, sessionsPerAddress: 4 },
        ...settings,
      },
      ...extra,
    })
  ).server;
}

/** The keys of the address records in the server's store (the sessions each client address holds). */
async function addressRecords(s: { hushdrop: { storage: Storage } }): Promise<string[]> {
  const keys: string[] = [];
  for await (const r of s.hushdrop.storage.records.list())
    if (r.key.startsWith('parts-address-')) keys.push(r.key);
  return keys;
}

/** The record fields an upload is compared by (random ones left out). */
function comparable(stored: Record<string, unknown>) {
  const { fileName, blobId, deletionKey, stream, bytes, bytesStored, replaceBytes, ...rest } = stored;
  return {
    ...rest,
    extension: String(fileName).replace(/^[A-Za-z0-9]+/, ''),
    keyLength: String(deletionKey).length,
  };
}

describe('an upload in parts', () => {
  for (const variant of ['current', 'legacy'] as const) {
    it(`(${variant}) takes parts out of order and in parallel, and Done makes the upload a one-request upload makes`, async () => {
      const s = await server();
      const client = new PartsClient(
        s,
        variant,
        variant === 'current' ? basic(ACCOUNT.username, ACCOUNT.token) : {},
      );
      const started = await client.start(fields());
      expect(started.status).toBe(201);
      expect(started.json).toMatchObject({ partBytes: PART, parts: 3 });
      expect(started.json.id).toMatch(/^[A-Za-z0-9]{22,}$/);
      expect(Date.parse(started.json.expiresAt)).toBeGreaterThan(Date.now());
      const { id } = started.json;
      // The last first, the other two at once.
      expect((await client.put(id, 2, slice(2))).status).toBe(204);
      const both = await Promise.all([client.put(id, 1, slice(1)), client.put(id, 0, slice(0))]);
      expect(both.map((a) => a.status)).toEqual([204, 204]);
      // A part sent again replaces it.
      expect((await client.put(id, 1, slice(1))).status).toBe(204);
      const done = await client.done(id);
      expect(done.status, done.text).toBe(200);
      const result = done.json.result;

      const oneRequest = await post(
        variant === 'current' ? currentUploadUrl(s) : legacyUploadUrl(s),
        form({
          encrypt: 'false',
          contentType: 'application/x-test',
          genDeletionKey: 'true',
          file: { bytes: FILE as Uint8Array<ArrayBuffer>, name: 'report.tar.gz' },
        }),
        variant === 'current' ? basic(ACCOUNT.username, ACCOUNT.token) : {},
      );
      expect(oneRequest.status).toBe(200);
      // The same answer, but for the random name and deletion key.
      const other = oneRequest.json.result;
      expect(Object.keys(result).sort()).toEqual(Object.keys(other).sort());
      for (const key of Object.keys(other)) {
        if (key === 'url' || key === 'fileName' || key === 'deletionKey') continue;
        expect(result[key], key).toEqual(other[key]);
      }
      expect(result.deletionKey).toHaveLength(other.deletionKey.length);
      const inParts = await s.stored(result.fileName);
      const single = await s.stored(other.fileName);
      expect(comparable(inParts as never)).toEqual(comparable(single as never));

      const download = await getBytes(result.url);
      expect(download.status).toBe(200);
      expect(Buffer.compare(Buffer.from(download.bytes), Buffer.from(FILE))).toBe(0);
      // Nothing else is left: two uploads' blobs, no write in progress.
      expect((await storedFiles(s)).sort()).toHaveLength(2);
      expect((await s.storedBlobs()).inProgress).toBe(0);
      // After Done its parts can no longer change (Done again: parts-done.test.ts).
      const late = await client.put(id, 0, slice(0));
      expect(late.status).toBe(409);
      expect(late.json.error.message).toMatch(/This upload is finished/);
    });
  }

  it('says so in the server info', async () => {
    const s = await server();
    const info = await (await fetch(`${s.baseUrl}/_hushdrop/info`)).json();
    expect(info.parts).toEqual({ partBytes: PART });
  });

  it('abort removes everything the session stored; an unknown id aborts too', async () => {
    const s = await server();
    const client = new PartsClient(s);
    const { id } = (await client.start(fields())).json;
    expect((await client.put(id, 0, slice(0))).status).toBe(204);
    expect((await s.storedBlobs()).inProgress).toBe(1);
    expect((await client.abort(id)).status).toBe(204);
    expect(await storedFiles(s)).toEqual([]);
    expect((await client.put(id, 1, slice(1))).status).toBe(404);
    expect((await client.done(id)).status).toBe(404);
    expect((await client.abort(id)).status).toBe(204);
    expect((await client.abort('A'.repeat(30))).status).toBe(204);
  });

  it('keeps no address record once its sessions end; ending one of two keeps the other slot', async () => {
    const s = await server();
    const client = new PartsClient(s);
    const one = (await client.start(fields())).json.id;
    const two = (await client.start(fields())).json.id;
    const [key] = await addressRecords(s);
    expect(await addressRecords(s)).toEqual([key]);
    expect((await client.abort(one)).status).toBe(204);
    expect(Object.keys((await s.hushdrop.storage.records.read(key))!.value.sessions as object)).toEqual([
      two,
    ]);
    await Promise.all([0, 1, 2].map((i) => client.put(two, i, slice(i))));
    expect((await client.done(two)).status).toBe(200);
    expect(await addressRecords(s)).toEqual([]);
    const three = (await client.start(fields())).json.id;
    expect(await addressRecords(s)).toEqual([key]);
    expect((await client.abort(three)).status).toBe(204);
    expect(await addressRecords(s)).toEqual([]);
  });
});

// Only the S3 store is shared by instances (a disk folder is locked to one process).
describe.skipIf(storageUnderTest() !== 's3')('an upload in parts over two instances of one store', () => {
  it('takes parts at instance A and B, and Done at B', async () => {
    const a = await server();
    const b = await server({ s3: a.hushdrop.settings.s3 });
    const atA = new PartsClient(a, 'current', basic(ACCOUNT.username, ACCOUNT.token));
    const atB = new PartsClient(b, 'current', basic(ACCOUNT.username, ACCOUNT.token));
    const { id } = (await atA.start(fields())).json;
    const puts = await Promise.all([
      atB.put(id, 2, slice(2)),
      atA.put(id, 0, slice(0)),
      atB.put(id, 1, slice(1)),
    ]);
    expect(puts.map((p) => p.status)).toEqual([204, 204, 204]);
    const done = await atB.done(id);
    expect(done.status, done.text).toBe(200);
    expect((await atA.done(id)).text).toBe(done.text);
    for (const instance of [a, b]) {
      const download = await getBytes(`${instance.uploadUrl}/${done.json.result.fileName}`);
      expect(Buffer.compare(Buffer.from(download.bytes), Buffer.from(FILE))).toBe(0);
    }
    expect((await a.storedBlobs()).inProgress).toBe(0);
  });
});

describe('an upload in parts refuses, with a sentence and nothing stored', () => {
  it('a Start with encrypt=true (or none), too large, bad partsTotal, no fileName, or a file part', async () => {
    const s = await server({ maxUploadBytes: 3 * PART });
    const client = new PartsClient(s);
    const refusals = [
      [await client.start(fields({ encrypt: 'true' })), 400, /encrypt=false/],
      [await client.start({ ...fields(), encrypt: '' }), 400, /encrypt=false/],
      [await client.start(fields({ partsTotal: String(3 * PART + 1) })), 413, /./],
      [await client.start(fields({ partsTotal: '0' })), 400, /partsTotal/],
      [await client.start(fields({ partsTotal: '1e6' })), 400, /partsTotal/],
      [await client.start(fields({ fileName: '' })), 400, /fileName/],
    ] as const;
    for (const [got, status, sentence] of refusals) {
      expect(got.status, got.text).toBe(status);
      expect(got.json.error.message).toMatch(sentence);
    }
    const withFile = await fetch(partsBase(s, 'current').path, {
      method: 'POST',
      body: form({ ...fields(), file: { bytes: new Uint8Array([1, 2, 3]), name: 'x.bin' } }),
    });
    expect(withFile.status).toBe(400);
    expect(await storedFiles(s)).toEqual([]);
  });

  it('parts of the wrong size, indexes out of range or not decimal, unknown ids, and no Content-Length', async () => {
    const s = await server();
    const client = new PartsClient(s);
    const { id } = (await client.start(fields())).json;
    const cases = [
      [await client.put(id, 0, slice(2)), 400, /has 5242880 bytes, not 12345/],
      [await client.put(id, 2, slice(0)), 400, /has 12345 bytes/],
      [await client.put(id, 3, slice(2)), 400, /from 0 to 2/],
      [await client.put(id, '01', slice(1)), 400, /without leading zeros/],
      [await client.put(id, '-1', slice(0)), 400, /decimal/],
      [await client.put(id, 'x', slice(0)), 400, /decimal/],
      [await client.put('Z'.repeat(24), 0, slice(0)), 404, /no such upload/],
      [await client.put('..%2Fetc', 0, slice(0)), 404, /no such upload/],
    ] as const;
    for (const [got, status, sentence] of cases) {
      expect(got.status, got.text).toBe(status);
      expect(got.json.error.message).toMatch(sentence);
    }
    // A streamed body has no Content-Length.
    const streamed = await fetch(`${partsBase(s, 'current').path}/${id}/2`, {
      method: 'PUT',
      body: new Blob([slice(2) as Uint8Array<ArrayBuffer>]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(411);
    expect((await streamed.json()).error.message).toMatch(/Content-Length/);
    // None of it counts: Done finds all three parts missing.
    const done = await client.done(id);
    expect(done.status).toBe(409);
    expect(done.json.error.message).toMatch(/^3 of the upload's 3 parts are missing/);
  });

  it('a part cut off mid-body leaves its index absent, and the server goes on', async () => {
    const s = await server();
    const client = new PartsClient(s);
    const { id } = (await client.start(fields())).json;
    expect((await client.put(id, 1, slice(1))).status).toBe(204);
    expect((await client.put(id, 2, slice(2))).status).toBe(204);
    // Part 0 again, cut after half of it (it had not arrived before either).
    const url = new URL(`${partsBase(s, 'current').path}/${id}/0`);
    await new Promise<void>((resolve, reject) => {
      const socket = new Socket();
      socket.once('error', reject);
      socket.connect(Number(url.port), url.hostname, () => {
        socket.write(
          `PUT ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${PART}\r\n\r\n`,
        );
        socket.write(slice(0).subarray(0, PART / 2), () => {
          socket.destroy();
          resolve();
        });
      });
    });
    const missing = await client.done(id);
    expect(missing.status, missing.text).toBe(409);
    expect(missing.json.error.message).toMatch(/^1 of the upload's 3 parts is missing/);
    expect((await client.put(id, 0, slice(0))).status).toBe(204);
    const done = await client.done(id);
    expect(done.status, done.text).toBe(200);
    const download = await getBytes(done.json.result.url);
    expect(Buffer.compare(Buffer.from(download.bytes), Buffer.from(FILE))).toBe(0);
  });

  it("another account's session, or one without the account it was started with", async () => {
    const s = await server();
    const alice = new PartsClient(s, 'current', basic(ACCOUNT.username, ACCOUNT.token));
    const bob = new PartsClient(s, 'current', basic('bob', 'bob-token-1'));
    const nobody = new PartsClient(s, 'current');
    const { id } = (await alice.start(fields())).json;
    for (const other of [bob, nobody]) {
      const put = await other.put(id, 0, slice(0));
      expect(put.status).toBe(401);
      expect(put.json.error.message).toMatch(/another account/);
      expect((await other.done(id)).status).toBe(401);
      expect((await other.abort(id)).status).toBe(401);
      const held = await other.held(id);
      expect(held.status).toBe(401);
      expect(held.json.error.message).toMatch(/another account/);
    }
    expect((await alice.held(id)).status).toBe(200);
    // The legacy variant's address does not reach a session of the current one.
    expect((await new PartsClient(s, 'legacy').put(id, 0, slice(0))).status).toBe(404);
    expect((await s.storedBlobs()).inProgress).toBe(1);
    expect((await alice.abort(id)).status).toBe(204);
  });

  it('GET of a session tells the parts held, as ranges, then that it is finished, or 404 after Abort', async () => {
    const s = await server();
    const bigger = randomBytesOf(5 * PART, 9);
    const client = new PartsClient(s, 'legacy');
    const { id, expiresAt } = (await client.start(fields({ partsTotal: String(bigger.length) }))).json;
    const held = async () => {
      const answer = await client.held(id);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.json).toMatchObject({ id, partBytes: PART, parts: 5, expiresAt });
      return answer.json.held;
    };
    expect(await held()).toEqual([]);
    for (const index of [0, 1, 3]) await client.put(id, index, PartsClient.slice(bigger, PART, index));
    expect(await held()).toEqual([
      [0, 1],
      [3, 3],
    ]);
    // A part cut off is not held.
    const cut = await client.put(id, 4, new Uint8Array(PART - 1));
    expect(cut.status).toBe(400);
    expect(await held()).toEqual([
      [0, 1],
      [3, 3],
    ]);
    for (const index of [2, 4]) await client.put(id, index, PartsClient.slice(bigger, PART, index));
    expect(await held()).toEqual([[0, 4]]);
    expect((await client.done(id)).status).toBe(200);
    // Finished: every part, and a flag that says Done may be asked again for its answer.
    expect(await held()).toEqual([[0, 4]]);
    expect((await client.held(id)).json.finished).toBe(true);
    // Unknown ids, and a session of the other variant.
    expect((await client.held('Z'.repeat(24))).status).toBe(404);
    const other = (await client.start(fields())).json.id;
    expect((await new PartsClient(s, 'current').held(other)).status).toBe(404);
    expect((await client.abort(other)).status).toBe(204);
    const gone = await client.held(other);
    expect(gone.status).toBe(404);
    expect(gone.json.error.message).toMatch(/There is no such upload in progress/);
  });

  it('Done twice, and a part racing Done', async () => {
    const s = await server();
    const client = new PartsClient(s);
    const { id } = (await client.start(fields())).json;
    await Promise.all([0, 1, 2].map((i) => client.put(id, i, slice(i))));
    const [first, second, late] = await Promise.all([
      client.done(id),
      client.done(id),
      client.put(id, 1, slice(1)),
    ]);
    // One of the two Dones makes the upload, and both answer it (parts-done.test.ts).
    expect([first.status, second.status], first.text + second.text).toEqual([200, 200]);
    expect(second.text).toBe(first.text);
    const done = first;
    // The late part either came in before Done closed the session or was refused; the bytes are whole.
    expect([204, 404, 409]).toContain(late.status);
    const download = await getBytes(done.json.result.url);
    expect(Buffer.compare(Buffer.from(download.bytes), Buffer.from(FILE))).toBe(0);
    expect((await s.storedBlobs()).inProgress).toBe(0);
  });

  it('more sessions from one address than allowed: 429 with a sentence; one ended frees its place', async () => {
    const s = await server({
      parts: { partBytes: PART, sessionLifetimeMs: 3_600_000, sessionsPerAddress: 2 },
    });
    const client = new PartsClient(s);
    const first = await client.start(fields());
    expect((await client.start(fields())).status).toBe(201);
    const third = await client.start(fields());
    expect(third.status).toBe(429);
    expect(third.json.error.message).toMatch(/already has 2 uploads in parts open/);
    expect((await client.abort(first.json.id)).status).toBe(204);
    expect((await client.start(fields())).status).toBe(201);
  });
});

describe('what a Start may ask for (issue 31, findings 3 and 4)', () => {
  /** `count` form fields that no upload binds, `bytes` of values in all. */
  const junk = (count: number, bytes: number) =>
    Object.fromEntries(
      Array.from({ length: count }, (_, i) => [`junk${i}`, 'j'.repeat(Math.floor(bytes / count))]),
    );

  it('fields past 64 KiB in all are refused with a sentence, at a Start and a one-request upload; nothing is stored', async () => {
    const s = await server();
    const over = await new PartsClient(s).start(fields(junk(8, 66 * 1024)));
    expect(over.status, over.text).toBe(400);
    expect(over.json.error.message).toMatch(/64 KiB/);
    // The finding's own form: 60 fields of 16 KiB (981 KB), each one within the per-field limit.
    const huge = await new PartsClient(s).start(fields(junk(60, 60 * 16 * 1024 - 60)));
    expect([400, 413]).toContain(huge.status);
    expect(huge.json.error.message).toMatch(/64 KiB/);
    const oneRequest = await post(
      currentUploadUrl(s),
      form({
        ...junk(8, 66 * 1024),
        encrypt: 'false',
        file: { bytes: FILE.subarray(0, 1000), name: 'a.bin' },
      }),
    );
    expect(oneRequest.status, oneRequest.text).toBe(400);
    expect(oneRequest.json.error.message).toMatch(/64 KiB/);
    expect(await storedFiles(s)).toEqual([]);
    const sessions: string[] = [];
    for await (const r of s.hushdrop.storage.records.list()) sessions.push(r.key);
    expect(sessions).toEqual([]);
  });

  it('a session record holds the bound parameters only, not the form', async () => {
    const s = await server();
    const client = new PartsClient(s);
    const started = await client.start(fields({ ...junk(30, 60 * 1024), contentType: 'text/x-bound' }));
    expect(started.status, started.text).toBe(201);
    const record = await s.hushdrop.storage.records.read(`parts-${started.json.id}`);
    const text = JSON.stringify(record!.value);
    expect(text.length).toBeLessThan(4096);
    expect(text).not.toContain('junk');
    expect(text).toContain('text/x-bound');
    // And it finishes as the form said.
    await Promise.all([0, 1, 2].map((i) => client.put(started.json.id, i, slice(i))));
    const done = await client.done(started.json.id);
    expect(done.status, done.text).toBe(200);
    expect(done.json.result.contentType).toBe('text/x-bound');
  });

  it('at most 10,000 parts: a larger partsTotal answers 413 with a sentence, before anything is stored', async () => {
    const s = await server();
    const client = new PartsClient(s);
    // The finding: with no size limit and no quota, 10^15 bytes were 200 million parts, and Done counted them.
    for (const total of [10 ** 15, 10_000 * PART + 1]) {
      const refused = await client.start(fields({ partsTotal: String(total) }));
      expect(refused.status, refused.text).toBe(413);
      expect(refused.json.error.message).toMatch(/at most 10,000 parts/);
    }
    expect(await storedFiles(s)).toEqual([]);
    const most = await client.start(fields({ partsTotal: String(10_000 * PART) }));
    expect(most.status, most.text).toBe(201);
    expect(most.json.parts).toBe(10_000);
    expect((await client.put(most.json.id, 9_999, slice(0))).status).toBe(204);
    const done = await client.done(most.json.id);
    expect(done.status).toBe(409);
    expect(done.json.error.message).toMatch(/^9999 of the upload's 10000 parts are missing/);
    expect((await client.abort(most.json.id)).status).toBe(204);
  });
});

describe('the sweeper and uploads in parts', () => {
  it('removes an expired session with all it stored, and never a live one', async () => {
    let clock = Date.UTC(2030, 0, 1);
    const t = await start({
      now: () => clock,
      // Every open write counts as abandoned to the sweep of open uploads (older than 0 ms): only the
      // session keeps its parts. Sweeps are run by the test, one at a time, not on the timer.
      settings: {
        sweepIntervalMs: 3_600_000,
        orphanAgeMs: 0,
        parts: { partBytes: PART, sessionLifetimeMs: 3_600_000, sessionsPerAddress: 4 },
      },
    });
    const s = t.server;
    const sweep = () => s.hushdrop.sweeper.sweep();
    const client = new PartsClient(s);
    const expiring = (await client.start(fields())).json.id;
    expect((await client.put(expiring, 0, slice(0))).status).toBe(204);
    expect((await sweep()).error).toBeUndefined();
    expect((await s.storedBlobs()).inProgress).toBe(1);
    expect((await client.put(expiring, 1, slice(1))).status).toBe(204);

    // An hour on, it has expired; a session started now is live.
    clock += 3_600_000;
    const live = (await client.start(fields())).json.id;
    await Promise.all([0, 1, 2].map((i) => client.put(live, i, slice(i))));
    const report = await sweep();
    expect(report).toMatchObject({ expired: 1 });
    expect((await client.put(expiring, 2, slice(2))).status).toBe(404);
    expect((await client.done(expiring)).status).toBe(404);
    expect((await s.storedBlobs()).inProgress).toBe(1);
    const done = await client.done(live);
    expect(done.status, done.text).toBe(200);
    expect((await s.storedBlobs()).inProgress).toBe(0);
    expect(await storedFiles(s)).toHaveLength(1);
    expect(await addressRecords(s)).toEqual([]);
  });

  it('deletes an address record whose sessions all expired, and never one with a slot taken meanwhile', async () => {
    let clock = Date.UTC(2030, 0, 1);
    const t = await start({
      now: () => clock,
      settings: {
        sweepIntervalMs: 3_600_000,
        parts: { partBytes: PART, sessionLifetimeMs: 3_600_000, sessionsPerAddress: 4 },
      },
    });
    const s = t.server;
    const { records } = s.hushdrop.storage;
    const client = new PartsClient(s);
    expect((await client.start(fields())).status).toBe(201);
    const [key] = await addressRecords(s);
    clock += 3_600_000;
    // The sweeper's read is stale once a Start took a slot: its delete must lose.
    const stale = (await records.read(key))!;
    const live = (await client.start(fields())).json.id;
    const sessions = new PartsSessions(s.hushdrop.storage, s.hushdrop.settings.parts, () => clock);
    expect(await sessions.sweepRecord(key, stale)).toBe('other');
    expect(Object.keys((await records.read(key))!.value.sessions as object)).toContain(live);
    expect((await client.abort(live)).status).toBe(204);
    expect(await addressRecords(s)).toEqual([]);
    // A record whose slots all expired (their sessions not swept yet) goes when read afresh.
    expect((await client.start(fields())).status).toBe(201);
    clock += 3_600_000;
    expect(await sessions.sweepRecord(key, (await records.read(key))!)).toBe('other');
    expect(await addressRecords(s)).toEqual([]);
    // The expired sessions themselves are swept, and leave no address record behind either.
    expect(await s.hushdrop.sweeper.sweep()).toMatchObject({ expired: 2 });
    expect(await addressRecords(s)).toEqual([]);
  });
});
