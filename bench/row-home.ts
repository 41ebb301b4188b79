// Row o: the server's home page (the upload page for people without the extension) uploads a file in
// a plain Chromium: it encrypts the file in the authenticated format as it reads it and sends it in
// the server's parts, two at a time. Against curl sending the same number of bytes in the same parts
// to the same server (Start, the parts two at a time, Done: nothing encrypted), and the browser's
// peak memory during the page's upload over the file's size.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { eceCiphertextSize } from '../lib/crypto/ece';
import { partsSessionUrl, partUrl } from '../lib/upload/hushdrop-api';
import { deletionLink } from '../lib/upload/links';
import { buildPartsStart } from '../lib/upload/parts';
import { parseUploadResponse } from '../lib/upload/response';
import type { UploadTarget } from '../lib/upload/types';
import { type BenchBrowser, sampler } from './chromium';
import { median, now, run, sleep, writeRandomFile } from './common';
import type { BenchServer } from './server';

export interface HomeRun {
  ms: number;
  /** Parts the server's access log showed taken. */
  parts: number;
  /** Peak of the summed RSS minus the idle median before the upload, in bytes. */
  extraRss: number;
}

export interface HomeResult {
  curl: number[];
  page: HomeRun[];
  /** Parts each of curl's uploads took (the same count as the page's, or the row stops). */
  curlParts: number;
  partBytes: number;
}

/** The legacy variant of the server, as the home page sends to it (open to anyone, with "Delete after"). */
const legacyTarget = (server: BenchServer): UploadTarget => ({
  variant: 'legacy',
  addresses: { baseUrl: server.baseUrl, apiUrl: '', uploadUrl: '' },
});

/** Bytes stored under a link's name, read back as the recipient page reads them (untimed). */
async function storedBytes(server: BenchServer, link: string): Promise<number> {
  const name = new URL(link).pathname.split('/').pop()!;
  const size = await run('curl', [
    '-sS',
    '-X',
    'POST',
    '-o',
    '/dev/null',
    '-w',
    '%{size_download}',
    `${server.baseUrl}/_hushdrop/file/${name}`,
  ]);
  return Number(size);
}

/** curl: Start with the page's form, the parts two at a time (`--parallel`), then Done; then deletes it. */
async function curlInParts(server: BenchServer, partFiles: string[], total: number): Promise<number> {
  const target = legacyTarget(server);
  const options = { mode: 'client', format: 'ece', saveKey: false, genDeletionKey: true } as const;
  const start = buildPartsStart(
    target,
    options,
    { name: 'home.bin', type: 'application/octet-stream' },
    total,
  );
  const t0 = now();
  const session = JSON.parse(
    await run('curl', [
      '-sS',
      '-H',
      'Expect:',
      ...start.fields.flatMap(([k, v]) => ['-F', `${k}=${v}`]),
      start.url,
    ]),
  ) as { id: string; parts: number };
  if (session.parts !== partFiles.length)
    throw new Error(`row o: the server cut ${session.parts} parts, curl has ${partFiles.length}`);
  const codes = await run('curl', [
    '-sS',
    '--parallel',
    '--parallel-max',
    '2',
    '-H',
    'Content-Type: application/octet-stream',
    '-w',
    '%{http_code}\\n',
    ...partFiles.flatMap((file, i) => ['-T', file, partUrl(start.url, session.id, i)]),
  ]);
  const done = await run('curl', ['-sS', '-X', 'POST', partsSessionUrl(start.url, session.id)]);
  const ms = now() - t0;
  if (
    codes
      .trim()
      .split('\n')
      .some((c) => c !== '204')
  )
    throw new Error(`row o: curl's parts were answered ${codes.trim().replace(/\n/g, ' ')}`);
  const result = parseUploadResponse('legacy', 200, 'application/json', done);
  if ((await storedBytes(server, result.url)) !== total)
    throw new Error('row o: curl’s upload is not whole on the server');
  await run('curl', ['-sS', '-o', '/dev/null', deletionLink(target, result)!]);
  return ms;
}

/** The page: a fresh tab of the home page, the file chosen in its input, timed in the page until its link shows. */
async function pageUpload(
  b: BenchBrowser,
  server: BenchServer,
  file: string,
  total: number,
): Promise<HomeRun> {
  const page = await b.ctx.newPage();
  try {
    await page.goto(`${server.baseUrl}/`);
    await page.locator('#files').waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { benchStart?: number; benchEnd?: number };
      document.getElementById('files')!.addEventListener('change', () => {
        w.benchStart = performance.now();
      });
      new MutationObserver(() => {
        const state = document.querySelector('#uploads > li')?.getAttribute('data-state');
        if (state && state !== 'sending' && w.benchEnd === undefined) w.benchEnd = performance.now();
      }).observe(document.body, { subtree: true, attributes: true, childList: true });
    });
    await sleep(1000);
    const idle = sampler(() => b.rss());
    await sleep(2000);
    const idleRss = median(idle.stop());
    const busy = sampler(() => b.rss());
    await page.setInputFiles('#files', file);
    await page.locator('#uploads > li:not([data-state="sending"])').waitFor({ timeout: 30 * 60_000 });
    const samples = busy.stop();
    const state = await page.locator('#uploads > li').getAttribute('data-state');
    if (state !== 'done')
      throw new Error(
        `row o: the page's upload ended ${state}: ${await page.locator('#uploads').textContent()}`,
      );
    const ms = await page.evaluate(() => {
      const w = window as unknown as { benchStart: number; benchEnd: number };
      return w.benchEnd - w.benchStart;
    });
    const link = await page.locator('#link-1').inputValue();
    if (!/#ece1\./.test(link) || (await storedBytes(server, link)) !== total)
      throw new Error('row o: the page’s upload is not whole on the server');
    await run('curl', ['-sS', '-o', '/dev/null', await page.locator('#deletion-1').inputValue()]);
    return { ms, parts: server.takePartsTaken(), extraRss: Math.max(...samples) - idleRss };
  } finally {
    await page.close();
  }
}

/**
 * `reps` rounds of curl and the page, interleaved, on one file of `size` bytes, to `server` (the
 * product's server, which takes uploads in parts); curl sends random bytes of the sealed size, cut
 * into the server's parts beforehand (untimed, with split).
 */
export async function homeRow(
  b: BenchBrowser,
  server: BenchServer,
  tmp: string,
  size: number,
  reps: number,
): Promise<HomeResult> {
  const plain = join(tmp, 'home-plain.bin');
  await writeRandomFile(plain, size);
  const total = eceCiphertextSize(size);
  const sealedLike = join(tmp, 'home-sealed-like.bin');
  await writeRandomFile(sealedLike, total);
  const info = JSON.parse(await run('curl', ['-sS', `${server.baseUrl}/_hushdrop/info`])) as {
    parts: { partBytes: number };
  };
  const partBytes = info.parts.partBytes;
  const dir = join(tmp, 'home-parts');
  mkdirSync(dir, { recursive: true });
  await run('split', ['-b', String(partBytes), '-d', '-a', '5', sealedLike, join(dir, 'p')]);
  rmSync(sealedLike);
  const partFiles = readdirSync(dir)
    .sort()
    .map((name) => join(dir, name));
  const result: HomeResult = { curl: [], page: [], curlParts: partFiles.length, partBytes };
  server.takePartsTaken();
  for (let r = 0; r < reps; r++) {
    result.curl.push(await curlInParts(server, partFiles, total));
    const curlParts = server.takePartsTaken();
    if (curlParts !== partFiles.length) throw new Error(`row o: curl's upload took ${curlParts} parts`);
    const measured = await pageUpload(b, server, plain, total);
    if (measured.parts !== partFiles.length)
      throw new Error(`row o: the page sent ${measured.parts} parts, curl ${partFiles.length}`);
    result.page.push(measured);
  }
  rmSync(dir, { recursive: true, force: true });
  rmSync(plain, { force: true });
  return result;
}
