// Rate limits and quotas: 429 with Retry-After and a sentence, per address (behind a trusted proxy, the
// address it reports) and per account, and nothing stored from a refused upload.

import { describe, expect, it } from 'vitest';
import { MIB, MIN_PART_BYTES, NO_LIMITS } from '../../server/config/settings';
import { PartsClient } from './parts-client';
import { storageUnderTest } from './storage-under-test';
import {
  bytesOf,
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

const from = (address: string) => ({ 'X-Forwarded-For': address });
const small = () => form({ encrypt: 'false', file: { bytes: bytesOf('small'), name: 's.txt' } });

describe('requests per address', () => {
  it('answers a burst from one address with 429 and Retry-After, and other addresses go on', async () => {
    const t = await start({
      settings: { trustedProxies: ['127.0.0.1'], limits: { ...NO_LIMITS, requestsPerMinute: 5 } },
    });
    const burst = await Promise.all(
      Array.from({ length: 12 }, () =>
        fetch(`${t.server.baseUrl}/u/nope1.txt`, { headers: from('203.0.113.7') }),
      ),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    const refused = burst.find((r) => r.status === 429)!;
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await refused.json()).error.message).toMatch(
      /^Too many requests from your address\. Try again in \d+ seconds?\.$/,
    );

    // An upload from that address is refused too, after its body was read, and nothing is kept.
    const upload = await post(currentUploadUrl(t.server), small(), from('203.0.113.7'));
    expect(upload.status).toBe(429);
    expect(await storedFiles(t.server)).toEqual([]);
    // Another address, and the same /64 of IPv6 counted as one.
    expect((await post(currentUploadUrl(t.server), small(), from('203.0.113.8'))).status).toBe(200);
    for (let i = 0; i < 5; i++)
      await fetch(`${t.server.baseUrl}/`, { headers: from(`2001:db8:1:2::${i + 1}`) }).then((r) => r.text());
    expect((await fetch(`${t.server.baseUrl}/`, { headers: from('2001:db8:1:2:ffff::9') })).status).toBe(429);
    expect((await fetch(`${t.server.baseUrl}/`, { headers: from('2001:db8:1:3::1') })).status).toBe(200);
    // Health is never limited (a load balancer asks it often).
    expect(
      (await fetch(`${t.server.baseUrl}/_hushdrop/health`, { headers: from('203.0.113.7') })).status,
    ).toBe(200);
  });

  it('believes X-Forwarded-For only from a configured proxy', async () => {
    const t = await start({ settings: { limits: { ...NO_LIMITS, requestsPerMinute: 3 } } });
    // No trusted proxy: every request counts for the peer (127.0.0.1), whatever it claims.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await fetch(`${t.server.baseUrl}/`, { headers: from(`198.51.100.${i}`) })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('upload quotas', () => {
  it('counts uploads per hour and bytes per day per address', async () => {
    const t = await start({
      settings: {
        trustedProxies: ['127.0.0.0/8'],
        limits: { ...NO_LIMITS, uploadsPerHourPerAddress: 2, uploadBytesPerDayPerAddress: 100_000 },
      },
    });
    const a = from('192.0.2.1');
    expect((await post(legacyUploadUrl(t.server), small(), a)).status).toBe(200);
    expect((await post(legacyUploadUrl(t.server), small(), a)).status).toBe(200);
    const third = await post(legacyUploadUrl(t.server), small(), a);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(third.json.error.message).toMatch(/^Too many uploads from your address this hour\./);
    // A wait of an hour or a day is said in minutes or hours, not in thousands of seconds.
    expect(third.json.error.message).toMatch(/ Try again in (59|60) minutes\.$/);

    const b = from('192.0.2.2');
    const big = form({ encrypt: 'false', file: { bytes: randomBytesOf(80_000), name: 'b.bin' } });
    expect((await post(currentUploadUrl(t.server), big, b)).status).toBe(200);
    const over = await post(
      currentUploadUrl(t.server),
      form({ encrypt: 'false', file: { bytes: randomBytesOf(30_000), name: 'c.bin' } }),
      b,
    );
    expect(over.status).toBe(429);
    expect(over.json.error.message).toMatch(
      /^Your address has used its upload quota for today \(97\.656 KiB a day; /,
    );
    // The quota frees up as the day's first upload ages out: about a day from now.
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(86_000);
    expect(over.json.error.message).toMatch(/ Try again in 24 hours\.$/);
    const files = await storedFiles(t.server);
    expect(files).toHaveLength(3);
  });

  it('counts an account’s uploads across addresses', async () => {
    const t = await start({
      accounts: [{ username: 'ann', token: 't0ken' }],
      settings: { trustedProxies: ['127.0.0.1'], limits: { ...NO_LIMITS, uploadsPerHourPerAccount: 1 } },
    });
    const auth = { Authorization: `Basic ${Buffer.from('ann:t0ken').toString('base64')}` };
    expect((await post(currentUploadUrl(t.server), small(), { ...auth, ...from('192.0.2.1') })).status).toBe(
      200,
    );
    const second = await post(currentUploadUrl(t.server), small(), { ...auth, ...from('192.0.2.9') });
    expect(second.status).toBe(429);
    expect(second.json.error.message).toMatch(/^This account has made too many uploads this hour\./);
    // Anonymous uploads from the same addresses are not the account's.
    expect((await post(currentUploadUrl(t.server), small(), from('192.0.2.9'))).status).toBe(200);
  });
});

/** Parts of S3's smallest size, so the same sessions run on both stores. */
const PART = MIN_PART_BYTES;
const QUOTA = 4 * PART;
const inParts = (address: string, server: Parameters<typeof storedFiles>[0]) =>
  new PartsClient(server, 'current', from(address));
const startFields = (bytes: number) => ({
  encrypt: 'false',
  partsTotal: String(bytes),
  fileName: 'q.bin',
});

/** Sends every part of session `id` (all of `bytes`, cut at PART) and finishes it: Done's answer. */
async function finish(client: PartsClient, id: string, bytes: Uint8Array) {
  const count = Math.ceil(bytes.length / PART);
  const parts = await Promise.all(
    Array.from({ length: count }, (_, i) => client.put(id, i, PartsClient.slice(bytes, PART, i))),
  );
  if (parts.some((p) => p.status !== 204)) return parts.find((p) => p.status !== 204)!;
  return client.done(id);
}

describe('daily byte quotas, reserved when an upload starts and kept in the store (issue 31, finding 1)', () => {
  const quotaServer = (extra: Record<string, unknown> = {}) =>
    start({
      settings: {
        trustedProxies: ['127.0.0.1'],
        limits: { ...NO_LIMITS, uploadBytesPerDayPerAddress: QUOTA },
        parts: { partBytes: PART, sessionLifetimeMs: 3_600_000, sessionsPerAddress: 8 },
        ...extra,
      },
    });

  it('four sessions of the whole quota started at once: one starts, three get 429, and only it finishes', async () => {
    const t = await quotaServer();
    const client = inParts('198.51.100.4', t.server);
    const file = randomBytesOf(QUOTA, 11);
    const starts = await Promise.all(Array.from({ length: 4 }, () => client.start(startFields(QUOTA))));
    expect(starts.map((a) => a.status).sort()).toEqual([201, 429, 429, 429]);
    for (const refused of starts.filter((a) => a.status === 429)) {
      expect(refused.json.error.message).toMatch(/^Your address has used its upload quota for today/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(86_000);
    }
    const dones = await Promise.all(
      starts.filter((a) => a.status === 201).map((a) => finish(client, a.json.id, file)),
    );
    expect(dones.map((d) => d.status)).toEqual([200]);
    expect(await storedFiles(t.server)).toHaveLength(1);
    // The quota is used up: neither a session nor a one-request upload gets more today.
    expect((await client.start(startFields(1))).status).toBe(429);
    expect((await post(currentUploadUrl(t.server), small(), from('198.51.100.4'))).status).toBe(429);
  });

  it('an aborted session is not refunded', async () => {
    const t = await quotaServer();
    const client = inParts('198.51.100.5', t.server);
    const first = await client.start(startFields(3 * PART));
    expect(first.status).toBe(201);
    expect((await client.abort(first.json.id)).status).toBe(204);
    const again = await client.start(startFields(2 * PART));
    expect(again.status).toBe(429);
    expect((await client.start(startFields(PART))).status).toBe(201);
  });

  it('frees up a day after it was reserved, and the sweeper then removes the quota record', async () => {
    let clock = Date.UTC(2030, 0, 1);
    const t = await start({
      now: () => clock,
      settings: {
        trustedProxies: ['127.0.0.1'],
        limits: { ...NO_LIMITS, uploadBytesPerDayPerAddress: QUOTA },
        parts: { partBytes: PART, sessionLifetimeMs: 3_600_000, sessionsPerAddress: 8 },
      },
    });
    const client = inParts('198.51.100.8', t.server);
    const quotaRecords = async () => {
      const keys: string[] = [];
      for await (const r of t.server.hushdrop.storage.records.list())
        if (r.key.startsWith('quota-')) keys.push(r.key);
      return keys;
    };
    expect((await client.start(startFields(QUOTA))).status).toBe(201);
    expect(await quotaRecords()).toHaveLength(1);
    clock += 23 * 3_600_000;
    const still = await client.start(startFields(1));
    expect(still.status).toBe(429);
    expect(still.json.error.message).toMatch(/ Try again in (59|60) minutes\.$/);
    await t.server.hushdrop.sweeper.sweep();
    expect(await quotaRecords()).toHaveLength(1);
    clock += 3_600_000;
    await t.server.hushdrop.sweeper.sweep();
    expect(await quotaRecords()).toEqual([]);
    expect((await client.start(startFields(QUOTA))).status).toBe(201);
  });

  it('three one-request uploads at once with 15.7 MiB left: not all are taken, and no more than the quota is stored', async () => {
    const t = await quotaServer({ limits: { ...NO_LIMITS, uploadBytesPerDayPerAddress: 20 * MIB } });
    const a = from('198.51.100.6');
    const upload = (bytes: number, seed: number) =>
      post(
        currentUploadUrl(t.server),
        form({ encrypt: 'false', file: { bytes: randomBytesOf(bytes, seed), name: 'u.bin' } }),
        a,
      );
    expect((await upload(4.3 * MIB, 1)).status).toBe(200);
    const three = await Promise.all([upload(6 * MIB, 2), upload(6 * MIB, 3), upload(6 * MIB, 4)]);
    const taken = three.filter((u) => u.status === 200);
    expect(taken.length).toBeLessThan(3);
    for (const refused of three.filter((u) => u.status !== 200)) {
      expect(refused.status).toBe(429);
      expect(refused.json.error.message).toMatch(/^Your address has used its upload quota for today/);
    }
    let stored = 0;
    for (const u of [...taken]) stored += (await t.server.stored(u.json.result.fileName))!.contentLength;
    expect(stored + 4.3 * MIB).toBeLessThanOrEqual(20 * MIB);
    expect(await storedFiles(t.server)).toHaveLength(1 + taken.length);
  });

  it('an account’s quota holds across its addresses', async () => {
    const t = await start({
      accounts: [{ username: 'ann', token: 't0ken' }],
      settings: {
        trustedProxies: ['127.0.0.1'],
        limits: { ...NO_LIMITS, uploadBytesPerDayPerAccount: QUOTA },
        parts: { partBytes: PART, sessionLifetimeMs: 3_600_000, sessionsPerAddress: 8 },
      },
    });
    const auth = { Authorization: `Basic ${Buffer.from('ann:t0ken').toString('base64')}` };
    const at = (address: string) => new PartsClient(t.server, 'current', { ...auth, ...from(address) });
    expect((await at('192.0.2.1').start(startFields(3 * PART))).status).toBe(201);
    const other = await at('192.0.2.2').start(startFields(2 * PART));
    expect(other.status).toBe(429);
    expect(other.json.error.message).toMatch(/^This account has used its upload quota for today/);
    // The address quota is not the account's: anonymous uploads from there go on.
    expect((await inParts('192.0.2.2', t.server).start(startFields(2 * PART))).status).toBe(201);
  });

  // Two instances share only an S3 store (a disk folder is locked to one process).
  it.skipIf(storageUnderTest() !== 's3')('is shared by two instances of one store', async () => {
    const a = await quotaServer();
    const b = await quotaServer({ s3: a.server.hushdrop.settings.s3 });
    expect((await inParts('198.51.100.7', a.server).start(startFields(3 * PART))).status).toBe(201);
    const atB = await inParts('198.51.100.7', b.server).start(startFields(2 * PART));
    expect(atB.status, atB.text).toBe(429);
    expect((await inParts('198.51.100.7', b.server).start(startFields(PART))).status).toBe(201);
  });
});

describe('views', () => {
  it('delivers a one-view link once, however many ask at the same moment', async () => {
    const t = await start();
    const made = await post(
      legacyUploadUrl(t.server),
      form({
        expireUnit: 'view',
        expireLength: '1',
        encrypt: 'false',
        file: { bytes: bytesOf('once'), name: 'o.txt' },
      }),
    );
    const answers = await Promise.all(Array.from({ length: 25 }, () => getBytes(made.json.result.url)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 404)).toHaveLength(24);
  });
});
