// Graceful shutdown: an upload in flight when the server is told to stop finishes within the grace period
// (and is kept); one still running when the grace ends is cut and leaves nothing; no new requests are taken;
// a request that does not end once its connection is cut does not hold the stop forever.

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { type ClientRequest, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultSettings } from '../../server/config/settings';
import { startServer } from '../../server/server';
import { type ProductServer, startProductServer } from './product-cli';
import { randomBytesOf, startTestServer, storedFiles, type TestServer } from './test-helpers';

let t: TestServer | undefined;
let product: ProductServer | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
  await product?.stop('SIGKILL');
  product = undefined;
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

const BOUNDARY = 'shutdownBoundary';
const HEAD = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\n\r\n`;
const TAIL = `\r\n--${BOUNDARY}--\r\n`;
const PART = randomBytesOf(512 * 1024, 4);

/** An upload whose body the test sends in two halves; `answer` settles with the status or the error. */
function openUpload(url: string): { req: ClientRequest; answer: Promise<number | string> } {
  const req = request(url, {
    method: 'POST',
    headers: {
      'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
      'Content-Length': String(HEAD.length + 2 * PART.length + TAIL.length),
    },
  });
  const answer = new Promise<number | string>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', (err) => resolve(err.message));
  });
  req.write(HEAD);
  req.write(PART);
  return { req, answer };
}

async function partArrived(files: () => Promise<string[]>): Promise<void> {
  await expect.poll(async () => (await files()).length).toBe(1);
}

describe('stopping', () => {
  it('lets an upload in flight finish and keeps it, while refusing new connections', async () => {
    t = await startTestServer();
    const { req, answer } = openUpload(`${t.server.apiUrl}/v1/Upload`);
    await partArrived(() => storedFiles(t!.server));
    const stopped = t.server.hushdrop.close({ graceMs: 120_000 });
    // The listener is closed: a new connection is refused.
    await expect(fetch(`${t.server.baseUrl}/_hushdrop/health`)).rejects.toThrow();
    req.end(Buffer.concat([PART, Buffer.from(TAIL)]));
    expect(await answer).toBe(200);
    await stopped;
    expect(await readdir(join(t.dataDir, 'records'))).toHaveLength(1);
    expect(await storedFiles(t.server)).toHaveLength(1);
  });

  it('cuts an upload still running when the grace period ends, and keeps nothing of it', async () => {
    t = await startTestServer();
    const { answer } = openUpload(`${t.server.apiUrl}/v1/Upload`);
    await partArrived(() => storedFiles(t!.server));
    await t.server.hushdrop.close({ graceMs: 0 });
    expect(await answer).toMatch(/socket hang up|ECONNRESET|EPIPE/);
    expect(await storedFiles(t.server)).toEqual([]);
    expect(await readdir(join(t.dataDir, 'records'))).toEqual([]);
  });

  it('npm run server: SIGTERM lets the upload finish, then exits 0', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'hushdrop-stop-'));
    const dataDir = join(scratch, 'data');
    product = await startProductServer({ DATA_DIR: dataDir });
    const { req, answer } = openUpload(`${product.apiUrl}/v1/Upload`);
    await partArrived(() => readdir(join(dataDir, 'files')));
    const exited = product.stop('SIGTERM');
    await expect.poll(() => product!.output.some((l) => l.startsWith('Stopping'))).toBe(true);
    req.end(Buffer.concat([PART, Buffer.from(TAIL)]));
    expect(await answer).toBe(200);
    expect(await exited).toBe(0);
    // The upload's record (beside the daily byte quota's, which a product server keeps by default).
    const records = await readdir(join(dataDir, 'records'));
    expect(records.filter((name) => !name.startsWith('quota-'))).toHaveLength(1);
    expect(await readdir(dataDir)).not.toContain('server.lock');
  }, 120_000);

  it('does not wait forever on a request that does not end once its connection is cut, and names it', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'hushdrop-stop-'));
    let reached!: () => void;
    const inHandler = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const server = await startServer(
      { ...defaultSettings(scratch), port: 0, accessLog: 'off' },
      {
        seams: {
          intercept: async () => {
            reached();
            return new Promise<boolean>(() => {});
          },
        },
        settleAfterCutMs: 200,
      },
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const answer = fetch(
        `http://127.0.0.1:${server.port}/u/never-ends.bin/secretDeletionKey?token=secret`,
      ).catch((e) => e);
      await inHandler;
      await server.close({ graceMs: 0 });
      expect(await answer).toBeInstanceOf(Error);
      const lines = logged.mock.calls.map((c) => String(c[0]));
      expect(lines.some((l) => l.includes('1 request(s)') && l.includes('GET delete'))).toBe(true);
      expect(lines.join('\n')).not.toMatch(/secret|never-ends/);
    } finally {
      logged.mockRestore();
    }
  });
});
