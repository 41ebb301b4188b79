// Rows b and c: a 1 GiB upload through the extension's upload page to the reference server on
// loopback, in client mode (encrypted) and plain mode (mode none), against `curl -F file=@…` of the
// same file to the same server; and the browser's peak memory during each extension upload. Over
// plain http (HTTP/1.1: the encrypted upload goes the disk way) or over HTTPS with HTTP/2 (the
// encrypted upload is streamed; curl then uses --http2 and trusts the server's certificate only).

import { writeCapabilities } from '../devkit/capabilities';
import { NO_CAPABILITIES } from '../lib/upload';
import { type BenchBrowser, opfsSettled, sampler, settingsFor } from './chromium';
import { median, now, run, sleep } from './common';
import { type BenchServer, benchSettings } from './server';

export interface UploadRun {
  ms: number;
  /**
   * Client mode: from the click to the start of the upload phase (reading, encrypting, writing);
   * 0 when there was no such phase (a streamed upload encrypts while it sends).
   */
  encryptMs: number;
  /** Peak of the summed RSS minus the idle median just before, in bytes. */
  extraRss: number;
  idleRss: number;
  /** The link the page showed. */
  link: string;
}

export interface UploadResult {
  size: number;
  curl: number[];
  client: UploadRun[];
  none: UploadRun[];
}

export async function curlUpload(server: BenchServer, path: string): Promise<number> {
  const t0 = now();
  const code = await run('curl', [
    ...(server.tls ? ['--http2', '--cacert', server.tls.certificatePath] : []),
    '-sS',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    '-H',
    'Expect:',
    '-F',
    `file=@${path};type=application/octet-stream`,
    '-F',
    'genDeletionKey=true',
    `${server.apiUrl}/v1/Upload`,
  ]);
  const ms = now() - t0;
  if (code.trim() !== '200') throw new Error(`curl upload answered HTTP ${code}`);
  return ms;
}

export async function extensionUpload(
  b: BenchBrowser,
  server: BenchServer,
  path: string,
  mode: 'client' | 'none',
  /** Start from nothing known of the server (no rates), so the upload streams wherever it can (rows b and c). */
  noFigures = false,
): Promise<UploadRun> {
  await settingsFor(b, benchSettings(server, mode));
  const page = await b.ctx.newPage();
  try {
    await page.goto(b.url('upload.html'));
    await page.locator('#file').waitFor({ state: 'attached' });
    await opfsSettled(page);
    // Rows b and c measure each way as such (the disk way over HTTP/1.1, the stream over HTTP/2): no
    // rates, so the planner streams wherever it can; row l measures the choice itself.
    if (noFigures) await writeCapabilities(page, NO_CAPABILITIES);
    // Idle: the page is loaded (choosing the file starts the upload); give the browser a moment, then 2 s of samples.
    await sleep(1000);
    const idle = sampler(() => b.rss());
    await sleep(2000);
    const idleRss = median(idle.stop());
    const busy = sampler(() => b.rss());
    // The page times itself: from the file being chosen (its change event, which starts the upload)
    // to the first render of the finished (or failed) job.
    await page.evaluate(() => {
      const g = globalThis as any;
      const observer = new MutationObserver(() => {
        // The label reads "Uploading… 0 %" before the first progress report: wait for "Encrypting" first.
        const label = document.querySelector('.job label')?.textContent ?? '';
        if (label.startsWith('Encrypting')) g.benchEncrypting = true;
        else if (g.benchEncrypting && !g.benchUploading && label.startsWith('Uploading'))
          g.benchUploading = performance.now();
        const job = document.querySelector('.job[data-state="done"], .job[data-state="failed"]');
        if (!job) return;
        g.benchEnd = {
          t: performance.now(),
          state: job.getAttribute('data-state'),
          text: job.textContent,
          link: job.querySelector<HTMLInputElement>('input[id^="link-"]')?.value ?? '',
        };
        observer.disconnect();
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true });
      // Capture: heard before the input's own handler starts the upload.
      document.addEventListener('change', () => (g.benchStart ??= performance.now()), { capture: true });
    });
    await page.setInputFiles('#file', path);
    await page.waitForFunction(() => (globalThis as any).benchEnd, undefined, {
      timeout: 600_000,
      polling: 100,
    });
    const samples = busy.stop();
    const end = await page.evaluate(() => {
      const g = globalThis as any;
      return {
        ms: g.benchEnd.t - g.benchStart,
        encryptMs: g.benchUploading ? g.benchUploading - g.benchStart : 0,
        state: g.benchEnd.state,
        text: g.benchEnd.text,
        link: g.benchEnd.link as string,
      };
    });
    if (end.state !== 'done') throw new Error(`The ${mode} upload failed: ${end.text}`);
    // The encrypted copy is removed after the link is shown; wait for it before the next run.
    await opfsSettled(page);
    return {
      ms: end.ms,
      encryptMs: end.encryptMs,
      extraRss: Math.max(...samples) - idleRss,
      idleRss,
      link: end.link,
    };
  } finally {
    await page.close();
  }
}

/**
 * `reps` rounds of curl, client mode and mode none, interleaved, with the file at `path`. Checks
 * that client-mode uploads took the way the server allows: streamed over HTTP/2, disk otherwise.
 */
export async function uploadRow(
  b: BenchBrowser,
  server: BenchServer,
  path: string,
  size: number,
  reps: number,
): Promise<UploadResult> {
  const result: UploadResult = { size, curl: [], client: [], none: [] };
  for (let r = 0; r < reps; r++) {
    result.curl.push(await curlUpload(server, path));
    server.clearFiles();
    const client = await extensionUpload(b, server, path, 'client', true);
    if ((client.encryptMs === 0) !== (server.tls !== undefined))
      throw new Error(
        server.tls
          ? 'The encrypted upload to the HTTP/2 server was not streamed.'
          : 'The encrypted upload to the HTTP/1.1 server did not go the disk way.',
      );
    result.client.push(client);
    server.clearFiles();
    result.none.push(await extensionUpload(b, server, path, 'none'));
    server.clearFiles();
  }
  return result;
}
