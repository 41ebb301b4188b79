// The test server's command line (tests/server/main.ts, which the bench and other suites start): its
// first lines, its settings from the environment and a config file, and a clean stop. On the `s3`
// project it keeps its uploads in S3, from STORAGE_URL and the AWS_* variables (product-store.ts).

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProductStore, productStore } from './product-store';
import { bytesOf, form, post } from './test-helpers';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

let child: ChildProcess | undefined;
let scratch: string | undefined;
let store: ProductStore | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
  await store?.close();
  store = undefined;
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** Starts main.ts as `npm run server` does (tsx) and returns its first four output lines. */
async function startCli(env: Record<string, string>): Promise<string[]> {
  child = spawn(process.execPath, ['--import', 'tsx', join(here, 'main.ts')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const reader = createInterface({ input: child.stdout! });
  for await (const line of reader) {
    lines.push(line);
    if (lines.length === 4) break;
  }
  return lines;
}

describe('main.ts (npm run server)', () => {
  it('prints the three addresses first, serves, and stops cleanly on SIGTERM', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'hushdrop-cli-'));
    const config = join(scratch, 'config.json');
    await writeFile(config, JSON.stringify({ accounts: [{ username: 'cfg', token: 'from-file' }], port: 1 }));
    store = await productStore(join(scratch, 'data'));
    const lines = await startCli({
      ...store.env,
      PORT: '0',
      MAX_UPLOAD_BYTES: '100',
      ACCOUNTS: 'jörg:tøken:with-colon,bob:b',
      CONFIG: config,
    });
    expect(lines[0]).toMatch(/^base_url=http:\/\/127\.0\.0\.1:\d+$/);
    const baseUrl = lines[0].slice('base_url='.length);
    expect(lines[1]).toBe(`api_url=${baseUrl}/api`);
    expect(lines[2]).toBe(`upload_url=${baseUrl}/u`);
    expect(lines[3]).toMatch(/listening/);
    expect(lines[3]).toContain(`data in ${store.where};`);

    const basic = `Basic ${Buffer.from('jörg:tøken:with-colon', 'utf8').toString('base64')}`;
    const ok = await post(`${baseUrl}/api/v1/Upload`, form({ file: { bytes: bytesOf('hi'), name: 'a' } }), {
      Authorization: basic,
    });
    expect(ok.status).toBe(200);
    // ACCOUNTS replaces the config file's accounts.
    const fromFile = `Basic ${Buffer.from('cfg:from-file').toString('base64')}`;
    const refused = await post(
      `${baseUrl}/api/v1/Upload`,
      form({ file: { bytes: bytesOf('hi'), name: 'a' } }),
      {
        Authorization: fromFile,
      },
    );
    expect(refused.status).toBe(401);
    const tooBig = await post(
      `${baseUrl}/v1/Upload?sub=api`,
      form({ file: { bytes: new Uint8Array(101), name: 'a' } }),
    );
    expect(tooBig.status).toBe(413);
    // The one upload accepted, whole, in the store it was given; nothing of the refused ones.
    const kept = await store.contents();
    expect([kept.records.length, kept.blobs.length, kept.inProgress]).toEqual([1, 1, 0]);

    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
