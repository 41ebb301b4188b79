// Row i: a recipient opens the link of a 1 GiB client-encrypted upload in a plain Chromium (no
// extension): the recipient page fetches the ciphertext, its service worker decrypts it as the
// browser's download writes it to disk. Against curl getting the same ciphertext from the same
// server (the page's POST, written to disk, nothing decrypted); and the browser's peak memory
// during the page's download over the file's size.
import { createCipheriv, createHash } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { deriveIv } from '../lib/crypto/iv';
import { randomKey } from '../lib/crypto/text';
import { type BenchBrowser, sampler } from './chromium';
import { median, now, run, sleep, writeRandomFile } from './common';
import type { BenchServer } from './server';

export interface RecipientRun {
  ms: number;
  /** Peak of the summed RSS minus the idle median before the click, in bytes. */
  extraRss: number;
  idleRss: number;
}

export interface RecipientResult {
  curl: number[];
  page: RecipientRun[];
  /** Every saved file had the original's SHA-256. */
  matches: boolean;
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** Encrypts `plain` into `cipher` as the extension does (README, "The link format"); returns the key. */
async function encryptFile(plain: string, cipher: string): Promise<string> {
  const key = randomKey();
  const aes = createCipheriv('aes-256-ctr', Buffer.from(key), Buffer.from(deriveIv(key)));
  await pipeline(createReadStream(plain), aes, createWriteStream(cipher));
  return key;
}

/** Uploads the ciphertext as the extension's client mode does; returns the share link. */
async function upload(server: BenchServer, cipher: string, key: string): Promise<string> {
  const answer = await run('curl', [
    '-sS',
    '-H',
    'Expect:',
    '-F',
    `file=@${cipher};filename=recipient.bin;type=application/octet-stream`,
    ...['encrypt=false', 'saveKey=false', `iv=${deriveIv(key)}`, 'keySize=256', 'blockSize=128'].flatMap(
      (f) => ['-F', f],
    ),
    '-F',
    'contentType=application/octet-stream',
    `${server.apiUrl}/v1/Upload`,
  ]);
  return `${JSON.parse(answer).result.url}#${key}`;
}

async function curlDownload(bytesUrl: string, out: string): Promise<number> {
  const t0 = now();
  const code = await run('curl', ['-sS', '-X', 'POST', '-o', out, '-w', '%{http_code}', bytesUrl]);
  const ms = now() - t0;
  if (code.trim() !== '200') throw new Error(`curl got HTTP ${code} from ${bytesUrl}`);
  rmSync(out, { force: true });
  return ms;
}

async function pageDownload(
  b: BenchBrowser,
  link: string,
  original: string,
): Promise<RecipientRun & { ok: boolean }> {
  const page = await b.ctx.newPage();
  try {
    await page.goto(link);
    await page.locator('#download').waitFor();
    await sleep(1000);
    const idle = sampler(() => b.rss());
    await sleep(2000);
    const idleRss = median(idle.stop());
    const busy = sampler(() => b.rss());
    const t0 = now();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download').click()]);
    // Resolves once the browser has written the whole file.
    const path = await download.path();
    const ms = now() - t0;
    const samples = busy.stop();
    await page.locator('.done').waitFor({ timeout: 60_000 });
    const ok = (await sha256Of(path)) === original;
    await download.delete();
    return { ms, extraRss: Math.max(...samples) - idleRss, idleRss, ok };
  } finally {
    await page.close();
  }
}

/** `reps` rounds of curl and the page, interleaved, on one upload of `size` bytes. */
export async function recipientRow(
  b: BenchBrowser,
  server: BenchServer,
  tmp: string,
  size: number,
  reps: number,
): Promise<RecipientResult> {
  const plain = join(tmp, 'recipient-plain.bin');
  const cipher = join(tmp, 'recipient-cipher.bin');
  const original = await writeRandomFile(plain, size);
  const key = await encryptFile(plain, cipher);
  rmSync(plain);
  const link = await upload(server, cipher, key);
  rmSync(cipher);
  const name = new URL(link).pathname.split('/').pop()!;
  const bytesUrl = `${server.baseUrl}/_hushdrop/file/${name}`;
  const result: RecipientResult = { curl: [], page: [], matches: true };
  for (let r = 0; r < reps; r++) {
    result.curl.push(await curlDownload(bytesUrl, join(tmp, 'recipient-curl.bin')));
    const { ok, ...measured } = await pageDownload(b, link, original);
    result.matches &&= ok;
    result.page.push(measured);
  }
  server.clearFiles();
  return result;
}
