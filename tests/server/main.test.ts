import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { bytesOf, form, post } from './test-helpers';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

let child: ChildProcess | undefined;
let scratch: string | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
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
    const lines = await startCli({
      PORT: '0',
      DATA_DIR: join(scratch, 'data'),
      MAX_UPLOAD_BYTES: '100',
      ACCOUNTS: 'jörg:tøken:with-colon,bob:b',
      CONFIG: config,
    });
    expect(lines[0]).toMatch(/^base_url=http:\/\/127\.0\.0\.1:\d+$/);
    const baseUrl = lines[0].slice('base_url='.length);
    expect(lines[1]).toBe(`api_url=${baseUrl}/api`);
    expect(lines[2]).toBe(`upload_url=${baseUrl}/u`);
    expect(lines[3]).toMatch(/listening/);

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

    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
