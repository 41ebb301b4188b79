// Rate limits and quotas: 429 with Retry-After and a sentence, per address (behind a trusted proxy, the
// address it reports) and per account, and nothing stored from a refused upload.

import { describe, expect, it } from 'vitest';
import { NO_LIMITS } from '../../server/config/settings';
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
