// Done of an upload in parts is idempotent: a Done repeated (its answer was lost on the way, or two
// raced) answers what the Done that made the upload answered, byte for byte, at any instance sharing the
// store, until the session would have expired; with the session's own authorization; charging nothing.
// Runs on disk and (vitest.config.ts) on S3.

import { describe, expect, it } from 'vitest';
import { MIN_PART_BYTES, NO_LIMITS } from '../../server/config/settings';
import { FINISHING_ABANDONED_MS, PartsSessions, parseSession } from '../../server/uploads/parts-sessions';
import { basic, PartsClient } from './parts-client';
import { storageUnderTest } from './storage-under-test';
import { getBytes, randomBytesOf, serversStoppedAfterEach, storedFiles } from './test-helpers';

const start = serversStoppedAfterEach();

const PART = MIN_PART_BYTES;
const FILE = randomBytesOf(2 * PART + 777, 21);
const slice = (index: number) => PartsClient.slice(FILE, PART, index);
const ALICE = { username: 'alice', token: 'alice-token-1' };
const LIFETIME_MS = 3_600_000;
const FIELDS = {
  encrypt: 'false',
  genDeletionKey: 'true',
  partsTotal: String(FILE.length),
  fileName: 'again.bin',
};

async function server(extra: Record<string, unknown> = {}, settings: Record<string, unknown> = {}) {
  return (
    await start({
      accounts: [ALICE, { username: 'bob', token: 'bob-token-1' }],
      settings: {
        parts: { partBytes: PART, sessionLifetimeMs: LIFETIME_MS, sessionsPerAddress: 4 },
        ...settings,
      },
      ...extra,
    })
  ).server;
}

/** A session with every part sent, not finished yet. */
async function allSent(client: PartsClient): Promise<string> {
  const started = await client.start(FIELDS);
  expect(started.status, started.text).toBe(201);
  const { id } = started.json;
  const puts = await Promise.all([0, 1, 2].map((i) => client.put(id, i, slice(i))));
  expect(puts.map((p) => p.status)).toEqual([204, 204, 204]);
  return id;
}

type Server = Awaited<ReturnType<typeof server>>;

/** The records of the store whose key starts with `prefix`, with their values. */
async function records(s: Server, prefix: string) {
  const found: Array<{ key: string; value: Record<string, unknown> }> = [];
  for await (const r of s.hushdrop.storage.records.list())
    if (r.key.startsWith(prefix)) found.push({ key: r.key, value: r.value });
  return found.sort((a, b) => a.key.localeCompare(b.key));
}

describe('Done of an upload in parts, repeated', () => {
  for (const variant of ['current', 'legacy'] as const) {
    it(`(${variant}) answers what the first Done answered, byte for byte; one upload is stored, and nothing is charged again`, async () => {
      // A daily quota with room for this file twice: a charge would show in its record.
      const s = await server({}, { limits: { ...NO_LIMITS, uploadBytesPerDayPerAddress: 2 * FILE.length } });
      const client = new PartsClient(
        s,
        variant,
        variant === 'current' ? basic(ALICE.username, ALICE.token) : {},
      );
      const id = await allSent(client);
      const first = await client.done(id);
      expect(first.status, first.text).toBe(200);
      expect(first.json.result.deletionKey).toMatch(/^[A-Za-z0-9]{24}$/);
      const quota = await records(s, 'quota-');
      expect(quota).toHaveLength(1);

      for (let i = 0; i < 2; i++) {
        const again = await client.done(id);
        expect(again.status).toBe(200);
        expect(again.text).toBe(first.text);
        expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
      }
      expect(await records(s, 'quota-')).toEqual(quota);
      // What is left is still this file's size: a Start of it passes, one byte more does not.
      const more = await client.start({ ...FIELDS, partsTotal: String(FILE.length + 1) });
      expect(more.status, more.text).toBe(429);
      expect(more.json.error.message).toMatch(/upload quota/);
      const rest = await client.start(FIELDS);
      expect(rest.status, rest.text).toBe(201);
      expect((await client.abort(rest.json.id)).status).toBe(204);
      expect(await storedFiles(s)).toHaveLength(1);
      expect((await s.storedBlobs()).inProgress).toBe(0);
      const download = await getBytes(first.json.result.url);
      expect(Buffer.compare(Buffer.from(download.bytes), Buffer.from(FILE))).toBe(0);

      // An Abort after Done removes nothing: the upload stays, and so does the answer.
      expect((await client.abort(id)).status).toBe(204);
      expect((await client.done(id)).text).toBe(first.text);
      expect((await s.stored(first.json.result.fileName))?.contentLength).toBe(FILE.length);
    });
  }

  it("another account, or none, gets 401 from a finished session's Done and held parts, as before Done", async () => {
    const s = await server();
    const alice = new PartsClient(s, 'current', basic(ALICE.username, ALICE.token));
    const id = await allSent(alice);
    const first = await alice.done(id);
    expect(first.status, first.text).toBe(200);
    for (const other of [
      new PartsClient(s, 'current', basic('bob', 'bob-token-1')),
      new PartsClient(s, 'current'),
    ]) {
      const done = await other.done(id);
      expect(done.status).toBe(401);
      expect(done.json.error.message).toMatch(/another account/);
      expect(done.text).not.toContain(first.json.result.deletionKey);
      expect((await other.held(id)).status).toBe(401);
    }
    // The legacy variant's address does not reach a session of the current one.
    expect((await new PartsClient(s, 'legacy').done(id)).status).toBe(404);
    expect((await alice.done(id)).text).toBe(first.text);
  });

  it('is kept until the session would have expired, holding neither address nor form; then 404, and the sweeper removes it', async () => {
    let clock = Date.UTC(2030, 0, 1);
    const s = await server({ now: () => clock }, { sweepIntervalMs: 3_600_000 });
    const client = new PartsClient(s);
    const id = await allSent(client);
    const first = await client.done(id);
    expect(first.status, first.text).toBe(200);

    const [finished] = await records(s, `parts-${id}`);
    expect(finished?.value.kind).toBe('parts-finished');
    expect(Object.keys(finished!.value).sort()).toEqual(
      ['answer', 'count', 'expiresAt', 'id', 'kind', 'partBytes', 'variant'].sort(),
    );
    expect(await records(s, 'parts-address-')).toEqual([]);

    clock += LIFETIME_MS - 1;
    await s.hushdrop.sweeper.sweep();
    expect((await client.done(id)).text).toBe(first.text);
    clock += 1;
    const late = await client.done(id);
    expect(late.status).toBe(404);
    expect(late.json.error.message).toMatch(/There is no such upload in progress/);
    expect((await client.held(id)).status).toBe(404);
    expect(await records(s, 'parts-')).toHaveLength(1);
    await s.hushdrop.sweeper.sweep();
    expect(await records(s, 'parts-')).toEqual([]);
    // The upload itself is not the session's to remove.
    expect(await storedFiles(s)).toHaveLength(1);
  });

  it('Dones racing make one upload, and every one of them answers it', async () => {
    const s = await server();
    const client = new PartsClient(s, 'current', basic(ALICE.username, ALICE.token));
    const id = await allSent(client);
    const dones = await Promise.all(Array.from({ length: 5 }, () => client.done(id)));
    expect(dones.map((d) => d.status)).toEqual([200, 200, 200, 200, 200]);
    for (const done of dones) expect(done.text).toBe(dones[0]!.text);
    expect(await storedFiles(s)).toHaveLength(1);
    expect((await s.storedBlobs()).inProgress).toBe(0);
  });

  it('a Done (or held parts) that finds another Done under way waits for how that one ends', async () => {
    const s = await server();
    const client = new PartsClient(s);
    const sessions = new PartsSessions(s.hushdrop.storage, s.hushdrop.settings.parts, () => Date.now());
    const found = async (id: string) => {
      const stored = (await s.hushdrop.storage.records.read(`parts-${id}`))!;
      return { value: parseSession(stored.value)!, version: stored.version };
    };

    // Another Done holds the session and makes the upload: the waiting ones answer its answer.
    const id = await allSent(client);
    const session = await found(id);
    expect(await sessions.claim(session)).toBe(true);
    const waiting = [client.done(id), client.held(id)];
    const answer = { status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"result":{}}' };
    await sessions.finish(session.value, answer);
    const [done, held] = await Promise.all(waiting);
    expect(done!.status).toBe(200);
    expect(done!.text).toBe(answer.body);
    expect(held!.json).toMatchObject({ id, held: [[0, 2]], finished: true });

    // Another Done holds the session and gives it back (it found parts missing): the waiting one finishes it.
    const other = await allSent(client);
    const claimed = await found(other);
    expect(await sessions.claim(claimed)).toBe(true);
    const itself = client.done(other);
    await sessions.reopen(other);
    const made = await itself;
    expect(made.status, made.text).toBe(200);
    expect(made.json.result.contentLength).toBe(FILE.length);
    expect((await client.done(other)).text).toBe(made.text);
  });

  it('a Done under way for 10 minutes is taken for one whose instance died: the session is gone (404), not busy until it expires', async () => {
    let clock = Date.now();
    const s = await server({ now: () => clock });
    const client = new PartsClient(s);
    const sessions = new PartsSessions(s.hushdrop.storage, s.hushdrop.settings.parts, () => clock);
    const id = await allSent(client);
    const stored = (await s.hushdrop.storage.records.read(`parts-${id}`))!;
    // A Done claimed it, and its instance went away before finishing.
    expect(await sessions.claim({ value: parseSession(stored.value)!, version: stored.version })).toBe(true);
    clock += FINISHING_ABANDONED_MS;
    const [done, held] = await Promise.all([client.done(id), client.held(id)]);
    expect(done.status, done.text).toBe(404);
    expect(done.text).toMatch(/no such upload in progress/);
    expect(held.status).toBe(404);
  });
});

// Only the S3 store is shared by instances (a disk folder is locked to one process).
describe.skipIf(storageUnderTest() !== 's3')('Done repeated over two instances of one store', () => {
  it('Done at A, again at B: the same answer; Dones racing at A and B make one upload', async () => {
    const a = await server();
    const b = await server({}, { s3: a.hushdrop.settings.s3 });
    const atA = new PartsClient(a, 'current', basic(ALICE.username, ALICE.token));
    const atB = new PartsClient(b, 'current', basic(ALICE.username, ALICE.token));

    const id = await allSent(atA);
    const first = await atA.done(id);
    expect(first.status, first.text).toBe(200);
    const again = await atB.done(id);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect((await new PartsClient(b, 'current', basic('bob', 'bob-token-1')).done(id)).status).toBe(401);

    const raced = await allSent(atB);
    const dones = await Promise.all([atA.done(raced), atB.done(raced), atA.done(raced), atB.done(raced)]);
    expect(dones.map((d) => d.status)).toEqual([200, 200, 200, 200]);
    for (const done of dones) expect(done.text).toBe(dones[0]!.text);
    expect(await storedFiles(a)).toHaveLength(2);
    expect((await a.storedBlobs()).inProgress).toBe(0);
    const download = await getBytes(`${b.uploadUrl}/${dones[0]!.json.result.fileName}`);
    expect(Buffer.compare(Buffer.from(download.bytes), Buffer.from(FILE))).toBe(0);
  });
});
