// `npm run server` as a product: its data folder keeps every upload across restarts (also after a crash),
// and it names that folder at start.

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storedBytes } from '../../devkit/stored-bytes';
import { defaultDataDir } from '../../server/config/settings';
import { type ProductServer, startProductServer } from './product-cli';
import { bytesOf, form, getBytes, post, randomBytesOf, teknikCtr } from './test-helpers';

let scratch: string | undefined;
let running: ProductServer | undefined;
afterEach(async () => {
  await running?.stop('SIGKILL');
  running = undefined;
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

async function start(dataDir: string): Promise<ProductServer> {
  running = await startProductServer({ DATA_DIR: dataDir });
  return running;
}

describe('the data folder', () => {
  it('keeps every upload through a restart and a crash, with its views, keys and deletion link', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'hushdrop-persist-'));
    const dataDir = join(scratch, 'data');
    let server = await start(dataDir);
    expect(server.output.join('\n')).toContain(`data in ${dataDir}`);

    const key = 'abcdefghijklmnopqrstuvwxyzABCDEF';
    const iv = '0123456789ABCDEF';
    const plain = randomBytesOf(200_000, 9);
    const cipher = teknikCtr(key, iv, plain);
    const client = (
      await post(
        `${server.apiUrl}/v1/Upload`,
        form({
          encrypt: 'false',
          saveKey: 'false',
          iv,
          genDeletionKey: 'true',
          file: { bytes: cipher, name: 'c.bin' },
        }),
      )
    ).json.result;
    const kept = (
      await post(
        `${server.apiUrl}/v1/Upload`,
        form({ encrypt: 'true', saveKey: 'true', file: { bytes: plain, name: 'k.bin' } }),
      )
    ).json.result;
    const twoViews = (
      await post(
        `${server.baseUrl}/v1/Upload?sub=api`,
        form({
          expireUnit: 'view',
          expireLength: '2',
          encrypt: 'false',
          file: { bytes: bytesOf('twice'), name: 't.txt' },
        }),
      )
    ).json.result;
    expect((await getBytes(twoViews.url)).status).toBe(200);

    // A graceful stop, then a start on the same folder.
    expect(await server.stop()).toBe(0);
    server = await start(dataDir);
    const rebased = (url: string) => url.replace(/^http:\/\/[^/]+/, server.baseUrl);
    expect((await storedBytes(rebased(client.url))).bytes).toEqual(cipher);
    expect((await getBytes(rebased(kept.url))).bytes).toEqual(plain);
    // The view counted before the restart still counts: one view left.
    expect((await getBytes(rebased(twoViews.url))).status).toBe(200);
    expect((await getBytes(rebased(twoViews.url))).status).toBe(404);

    // A crash (SIGKILL: no cleanup at all), then a start: the lock it left is taken over, nothing is lost.
    await server.stop('SIGKILL');
    server = await start(dataDir);
    expect((await storedBytes(rebased(client.url))).bytes).toEqual(cipher);
    expect((await getBytes(rebased(kept.url))).bytes).toEqual(plain);
    const deleted = await fetch(`${rebased(client.url)}/${client.deletionKey}`);
    expect(await deleted.text()).toContain('has been Deleted');
    expect((await getBytes(rebased(client.url))).status).toBe(404);
    // What is left on disk is exactly the one live upload: its bytes and its record (and the daily byte
    // quota's record of the address that uploaded).
    expect(await readdir(join(dataDir, 'files'))).toHaveLength(1);
    const records = await readdir(join(dataDir, 'records'));
    expect(records.filter((name) => !name.startsWith('quota-address-'))).toEqual([`${kept.fileName}.json`]);
    // Three starts of a server process (tsx compiles it each time): several seconds each on a busy machine.
  }, 180_000);

  it('refuses a second server on the same folder with a sentence, while the first keeps serving', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'hushdrop-persist-'));
    const dataDir = join(scratch, 'data');
    const first = await start(dataDir);
    const second = startProductServer({ DATA_DIR: dataDir });
    await expect(second).rejects.toThrow(/in use by another Hushdrop server \(process \d+\)/);
    expect((await fetch(`${first.baseUrl}/_hushdrop/health`)).status).toBe(200);
  }, 120_000);

  it('defaults to a persistent folder under XDG_DATA_HOME, not a temporary one', () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/srv/data' })).toBe('/srv/data/hushdrop/server');
    expect(defaultDataDir({ HOME: '/home/x' })).toMatch(/\/\.local\/share\/hushdrop\/server$/);
  });
});
