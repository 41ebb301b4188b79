// Wrong passwords cost the caller, not the server (issue 31, finding 5). Every wrong Basic token ran scrypt
// on libuv's four threads, which also do the disk's I/O: 200 wrong tokens at once from one address kept
// `/_hushdrop/health` waiting 10.6 s. Failed logins are now limited per address and per username before
// any hashing, scrypt runs behind a small semaphore, and a token already verified is never delayed.
// Disk only: what is measured is the thread pool the disk store shares with scrypt (S3 answers health over
// the network).

import { describe, expect, it } from 'vitest';
import { NO_LIMITS } from '../../server/config/settings';
import type { ReferenceServer } from './server';
import {
  bytesOf,
  currentUploadUrl,
  form,
  post,
  serversStoppedAfterEach,
  type UploadAnswer,
} from './test-helpers';

const start = serversStoppedAfterEach();

const ALICE = { username: 'alice', token: 'alice-right-token-1' };
const FLOOD = 200;

const basic = (username: string, token: string) => ({
  Authorization: `Basic ${Buffer.from(`${username}:${token}`).toString('base64')}`,
});

async function server(limits: Partial<typeof NO_LIMITS> = {}) {
  return (
    await start({
      record: true,
      accounts: [ALICE],
      settings: {
        trustedProxies: ['127.0.0.1'],
        limits: {
          ...NO_LIMITS,
          failedLoginsPerMinutePerAddress: 10,
          failedLoginsPerMinutePerUsername: 30,
          scryptConcurrency: 1,
          ...limits,
        },
      },
    })
  ).server;
}

const upload = (s: ReferenceServer, headers: Record<string, string>) =>
  post(
    currentUploadUrl(s),
    form({ encrypt: 'false', file: { bytes: bytesOf('x'), name: 'x.txt' } }),
    headers,
  );

/**
 * Sends FLOOD uploads with wrong tokens at once (`who(i)` gives each one's username and address) and resolves
 * once the server has received every one of them. `answered()` says how many have been answered so far.
 */
async function flood(s: ReferenceServer, who: (i: number) => { username: string; address: string }) {
  const before = s.requests.length;
  let answered = 0;
  const all = Promise.all(
    Array.from({ length: FLOOD }, (_, i) => {
      const { username, address } = who(i);
      return upload(s, { ...basic(username, `wrong-${i}`), 'X-Forwarded-For': address }).then((a) => {
        answered += 1;
        return a;
      });
    }),
  );
  await expect.poll(() => s.requests.length - before, { timeout: 60_000 }).toBeGreaterThanOrEqual(FLOOD);
  return { all, answered: () => answered };
}

const statuses = (answers: UploadAnswer[]) => {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
};

describe('failed logins', () => {
  it('200 wrong tokens at once from one address: at most 10 are checked, the rest get 429 with a sentence before any hashing', async () => {
    const s = await server();
    const { all } = await flood(s, () => ({ username: 'alice', address: '203.0.113.9' }));
    const answers = await all;
    const counts = statuses(answers);
    expect(counts[401] ?? 0).toBeLessThanOrEqual(10);
    expect((counts[401] ?? 0) + (counts[429] ?? 0)).toBe(FLOOD);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.json.error.message).toMatch(
      /^Too many failed logins from your address\. Try again in \d+ seconds?\.$/,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });

  it('wrong tokens for one username from 200 addresses: at most 30 are checked', async () => {
    const s = await server();
    const { all } = await flood(s, (i) => ({ username: 'alice', address: `198.51.100.${i % 250}` }));
    const counts = statuses(await all);
    expect(counts[401] ?? 0).toBeLessThanOrEqual(30);
    expect(counts[429] ?? 0).toBeGreaterThanOrEqual(FLOOD - 30);
  });

  it('a token already verified is never delayed, so a stranger cannot lock its account out', async () => {
    const s = await server();
    const alice = { ...basic(ALICE.username, ALICE.token), 'X-Forwarded-For': '192.0.2.50' };
    expect((await upload(s, alice)).status).toBe(200);
    // A stranger at alice's own address and at 200 others sends wrong tokens for "alice".
    const { all } = await flood(s, (i) => ({
      username: 'alice',
      address: i % 2 ? '192.0.2.50' : `198.51.100.${i % 250}`,
    }));
    const during = await upload(s, alice);
    expect(during.status, during.text).toBe(200);
    await all;
    expect((await upload(s, alice)).status).toBe(200);
  });
});

describe('health while wrong tokens are being checked', () => {
  it('answers while 200 wrong tokens from 200 addresses are in flight, before half of them are checked', async () => {
    const s = await server();
    const { all, answered } = await flood(s, (i) => ({
      username: `stranger${i}`,
      address: `198.51.100.${i}`,
    }));
    const health = await fetch(`${s.baseUrl}/_hushdrop/health`);
    const seen = answered();
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    // Not a time: health came back while most of the flood still waited for its check.
    expect(seen).toBeLessThan(FLOOD / 2);
    expect(statuses(await all)[401]).toBe(FLOOD);
    // 200 checks one after another: tens of seconds on a busy machine.
  }, 240_000);

  it('answers while 200 wrong tokens from one address are in flight', async () => {
    const s = await server();
    const { all } = await flood(s, () => ({ username: 'alice', address: '203.0.113.10' }));
    const health = await fetch(`${s.baseUrl}/_hushdrop/health`);
    expect(health.status).toBe(200);
    await all;
  });
});
