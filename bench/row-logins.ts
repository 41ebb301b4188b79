// Row n: `/_hushdrop/health` while 200 wrong Basic tokens are being checked (issue 31, finding 5), against
// health on the same server idle. The product's server (server/main.ts, disk store, its default login
// limits) runs in a process of its own with one account; the flood is 200 upload requests at once with
// wrong tokens, from one address (n1, the finding: all 200 once went to scrypt) or from 200 addresses
// with 200 usernames (n2: no per-address or per-username limit applies, so every one is hashed, one at a
// time). While the flood is in flight, health is asked again and again, one request after another; each
// answer's time is a sample.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashToken } from '../server/accounts/tokens';
import { now } from './common';
import { type BenchServer, startBenchServer } from './server';

export interface FloodRound {
  /** ms of each health answer while the flood was in flight. */
  health: number[];
  /** How the flood was answered: 401 (hashed and wrong), 429 (refused before hashing). */
  statuses: Record<number, number>;
  /** ms from the flood's start to its last answer. */
  floodMs: number;
}

export interface LoginsResult {
  idle: number[];
  oneAddress: FloodRound[];
  manyAddresses: FloodRound[];
}

const FLOOD = 200;
const IDLE_SAMPLES = 200;

async function healthMs(server: BenchServer): Promise<number> {
  const t0 = now();
  const res = await fetch(`${server.baseUrl}/_hushdrop/health`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`row n: health answered ${res.status}`);
  return now() - t0;
}

async function flood(server: BenchServer, who: (i: number) => { username: string; address: string }) {
  const form = new FormData();
  form.append('encrypt', 'false');
  form.append('file', new Blob(['x']), 'x.txt');
  const t0 = now();
  const statuses: Record<number, number> = {};
  let left = FLOOD;
  const all = Promise.all(
    Array.from({ length: FLOOD }, async (_, i) => {
      const { username, address } = who(i);
      const res = await fetch(`${server.apiUrl}/v1/Upload`, {
        method: 'POST',
        body: form,
        headers: {
          Authorization: `Basic ${Buffer.from(`${username}:wrong-${i}`).toString('base64')}`,
          'X-Forwarded-For': address,
        },
      });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      left -= 1;
    }),
  );
  const health: number[] = [];
  // At least one sample, however fast the flood is answered.
  do health.push(await healthMs(server));
  while (left > 0);
  await all;
  return { health, statuses, floodMs: now() - t0 };
}

export async function loginsRow(tmp: string, reps: number): Promise<LoginsResult> {
  const dataDir = join(tmp, 'server-logins');
  mkdirSync(dataDir, { recursive: true });
  const config = join(tmp, 'logins-config.json');
  writeFileSync(
    config,
    JSON.stringify({
      trustedProxies: ['127.0.0.1'],
      accounts: [{ username: 'alice', tokenHash: await hashToken('alice-right-token') }],
      // Only the login limits and the semaphore act here (their defaults); the request limit would count
      // the rounds' 200 × reps requests from one address.
      limits: { requestsPerMinute: 0 },
    }),
  );
  const server = await startBenchServer(dataDir, undefined, {
    main: 'server/main.ts',
    env: { CONFIG: config, ACCESS_LOG: 'off' },
  });
  try {
    const result: LoginsResult = { idle: [], oneAddress: [], manyAddresses: [] };
    for (let i = 0; i < 3; i++) await healthMs(server);
    for (let r = 0; r < reps; r++) {
      for (let i = 0; i < IDLE_SAMPLES; i++) result.idle.push(await healthMs(server));
      // A fresh address each round: the previous round's failures still count for a minute.
      result.oneAddress.push(
        await flood(server, () => ({ username: 'alice', address: `203.0.113.${r + 1}` })),
      );
      result.manyAddresses.push(
        await flood(server, (i) => ({
          username: `stranger-${r}-${i}`,
          address: `10.${r}.${i >> 8}.${i & 255}`,
        })),
      );
    }
    return result;
  } finally {
    await server.close();
  }
}
