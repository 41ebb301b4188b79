// Firefox only: a recipient saves a 2 GiB link in a plain Firefox, and the file equals the original.
// Firefox stops a service worker that has had no event for a while even when it is still answering a
// fetch with a stream (peers' users lost long downloads about 1 GB in: filesender #2575); the recipient
// page keeps its worker alive with pings for as long as the download runs (save.ts), and this is the
// test that holds it so. Chromium keeps a worker alive while its response streams, and saves 1 GiB in
// bench row i. The ciphertext is made here with Node's own AES-256-CTR (devkit/links' documented
// format), not by the code under test.
import { execFile } from 'node:child_process';
import { createCipheriv, createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GIB, writeRandomFile } from '../../../devkit/files';
import { ivFromKey } from '../../../devkit/links';
import { randomKey } from '../../../lib/crypto/text';
import { launchDriver } from '../driver/each-browser';
import type { FirefoxDriver } from '../driver/firefox';
import { serverForFile } from '../support/servers';

const SIZE = Number(process.env.LONG_DOWNLOAD_MIB ?? 2048) * (GIB / 1024);
/** The whole scenario may take this long on a loaded machine (no assertion on time). */
const WITHIN_MS = 45 * 60_000;

const ref = serverForFile({});
const tmp = mkdtempSync(join(tmpdir(), 'hushdrop-long-'));
let d: FirefoxDriver;

beforeAll(async () => {
  d = await launchDriver('firefox', { plain: true });
  // Firefox stops a worker whose events have all been pending this long (5 min by default). Brought
  // down to its idle time, the stop comes within the download on a machine of any speed, so the
  // test fails whenever the page stops keeping its worker alive.
  await d.fx.chrome(() => {
    const prefs = (globalThis as any).Services.prefs;
    prefs.setIntPref(
      'dom.serviceWorkers.idle_extended_timeout',
      prefs.getIntPref('dom.serviceWorkers.idle_timeout'),
    );
  });
}, 120_000);
afterAll(async () => {
  await d?.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path, { highWaterMark: 1 << 20 }), hash);
  return hash.digest('hex');
}

it(
  'saves a 2 GiB link whole, the service worker kept alive for as long as it runs',
  async () => {
    const plain = join(tmp, 'plain.bin');
    const cipher = join(tmp, 'cipher.bin');
    const original = await writeRandomFile(plain, SIZE);
    const key = randomKey();
    const aes = createCipheriv('aes-256-ctr', Buffer.from(key, 'utf8'), Buffer.from(ivFromKey(key), 'utf8'));
    await pipeline(createReadStream(plain, { highWaterMark: 1 << 20 }), aes, createWriteStream(cipher));
    rmSync(plain);

    // Uploaded as the extension's client mode does (the current variant, no encryption by the server).
    const fields = ['encrypt=false', 'saveKey=false', `iv=${ivFromKey(key)}`, 'keySize=256', 'blockSize=128'];
    // Not execFileSync: the server answers from this process.
    const { stdout: answer } = await promisify(execFile)(
      'curl',
      [
        '-sS',
        '-H',
        'Expect:',
        '-F',
        `file=@${cipher};filename=long.bin;type=application/octet-stream`,
        ...fields.flatMap((f) => ['-F', f]),
        `${ref.server.apiUrl}/v1/Upload`,
      ],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    rmSync(cipher);
    const link = `${JSON.parse(answer).result.url as string}#${key}`;

    const page = await d.openUrl(link);
    await page.waitFor('#download', { visible: true });
    const saved = await d.download(page, () => page.click('#download'), WITHIN_MS);
    // A stopped worker ends Firefox's download early, and as a success: the size says so first.
    expect(statSync(saved.path).size).toBe(SIZE);
    expect(await sha256Of(saved.path)).toBe(original);
    await page.waitFor('.done', { timeout: 120_000 });
    rmSync(saved.path);
  },
  WITHIN_MS + 300_000,
);
