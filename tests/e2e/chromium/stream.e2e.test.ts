// Encrypting while sending, in Chromium with the built extension: to the reference server over
// HTTPS with HTTP/2 a client-mode upload is streamed (from the encrypt worker, which also makes the
// fetch: the page's thread can be blocked and the bytes still flow; no copy on disk), Cancel midway
// leaves nothing, and to a server without HTTP/2 (HTTPS with HTTP/1.1 only, or plain http) the same
// upload goes the disk way. Which way each upload came is read on the server: it records the HTTP
// version of every request. Stored copies are decrypted here with the link's key. No timing
// assertions: the machine is shared.
// Chromium only by nature: Firefox never streams a request body (it would send the text
// "[object ReadableStream]"; ../request-streams.e2e.test.ts shows it), so it always goes the disk way.
// Its servers take no uploads in parts (noParts), as Teknik's: these are the one-request ways
// (a Hushdrop server gets an upload in parts, ../parts.e2e.test.ts).
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readStoredCapabilities, writeCapabilities } from '../../../devkit/capabilities';
import { MIB, writeRandomFile } from '../../../devkit/files';
import { decryptedHash } from '../../../devkit/links';
import { opfsNames } from '../../../devkit/opfs';
import { eceCiphertextSize, eceDecryptBytes, readSecret } from '../../../lib/crypto';
import { DEFAULT_UPLOAD } from '../../../lib/settings';
import { NO_CAPABILITIES } from '../../../lib/upload';
import { type ReferenceServer, startServer } from '../../testkit/server';
import { historyCount } from '../support/history';
import {
  type ExtensionBrowser,
  launchExtension,
  oneRequestWay,
  rightClickText,
  serverSettings,
} from './harness';
import { cancelWhen, openUploadPage } from './large-files';

let tmp: string;
let h2: ReferenceServer;
let h1tls: ReferenceServer;
let plain: ReferenceServer;
let browser: ExtensionBrowser;
const dirs: Record<string, string> = {};

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'hushdrop-stream-'));
  const start = async (name: string, tls?: { http2: boolean }) => {
    dirs[name] = join(tmp, name);
    return startServer({ dataDir: dirs[name]!, record: true, noParts: true, ...(tls ? { tls } : {}) });
  };
  h2 = await start('h2', { http2: true });
  h1tls = await start('h1tls', { http2: false });
  plain = await start('plain');
  // Chromium trusts exactly these two certificates, and no other.
  browser = await launchExtension({ trustSpki: [h2.tls!.spkiSha256, h1tls.tls!.spkiSha256] });
});

afterAll(async () => {
  await browser?.close();
  for (const server of [h2, h1tls, plain]) await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Upload requests the server received, with the HTTP version of each. */
const uploads = (server: ReferenceServer) =>
  oneRequestWay(server)
    .filter((r) => r.method === 'POST')
    .map((r) => r.httpVersion);

const storedFiles = (name: string) => readdirSync(join(dirs[name]!, 'files'));

const uploadPage = (server: ReferenceServer) => openUploadPage(browser, serverSettings(server, 'current'));

/** Uploads the file at `path` through the page and returns the stored copy and the link's key. */
async function upload(page: Page, server: ReferenceServer, path: string) {
  const done = page.locator('.job[data-state="done"]');
  const before = await done.count();
  await page.setInputFiles('#file', path);
  await expect.poll(() => done.count(), { timeout: 240_000 }).toBe(before + 1);
  // New jobs come first in the list.
  const field = done.first().locator('input[id^="link-"]');
  const [url, key] = (await field.inputValue()).split('#') as [string, string];
  const stored = await server.stored(new URL(url).pathname.split('/').pop()!);
  expect(stored, url).toBeDefined();
  return { stored: stored!, key };
}

describe('HTTPS with HTTP/2', () => {
  // Each starts from nothing known of the server (no measured rates), so the upload streams as it does
  // with none: after an earlier large one, the next would try the disk way once
  // (transport-choice.e2e.test.ts covers that).
  beforeEach(() => writeCapabilities(browser.sw, NO_CAPABILITIES));

  it('streams a client-mode upload from the worker: no copy on disk, the stored copy decrypts', async () => {
    const path = join(tmp, 'stream-64.bin');
    const size = 64 * MIB + 5;
    const original = await writeRandomFile(path, size);
    const { page, workers } = await uploadPage(h2);
    const before = await historyCount(page);
    // Notes every label the job shows: a streamed upload never shows "Encrypting".
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as any).labelsSeen = seen;
      new MutationObserver(() => {
        const text = document.querySelector('.job label')?.textContent?.split('…')[0];
        if (text && !seen.includes(text)) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    try {
      const { stored, key } = await upload(page, h2, path);
      expect(stored.httpVersion).toBe('2.0');
      expect(stored.contentLength).toBe(size);
      expect(stored.encrypted).toBe(false);
      expect(await decryptedHash(await stored.stream(), key)).toBe(original);
      expect(uploads(h2)).toEqual(['2.0']);
      expect(workers.filter((u) => u.includes('encrypt-worker')).length).toBe(1);
      const labels: string[] = await page.evaluate(() => (window as any).labelsSeen);
      expect(labels).toContain('Uploading');
      expect(labels).not.toContain('Encrypting');
      expect(await opfsNames(page)).toEqual([]);
      expect(await historyCount(page)).toBe(before + 1);
    } finally {
      await page.close();
      rmSync(path, { force: true });
    }
  }, 300_000);

  it('streams an upload in the authenticated format when the profile says so; the stored copy opens', async () => {
    const path = join(tmp, 'stream-ece.bin');
    const size = 20 * MIB + 7;
    const original = await writeRandomFile(path, size);
    const { page, workers } = await openUploadPage(
      browser,
      serverSettings(h2, 'current', { defaults: { ...DEFAULT_UPLOAD, format: 'ece' } }),
    );
    const before = uploads(h2).length;
    try {
      const { stored, key } = await upload(page, h2, path);
      expect(key).toMatch(/^ece1\.[A-Za-z0-9_-]{22}$/);
      expect(stored.httpVersion).toBe('2.0');
      expect(stored.linkFormat).toBe('ece1');
      expect(stored.contentLength).toBe(eceCiphertextSize(size));
      const plain = await eceDecryptBytes(new Uint8Array(await stored.bytes()), readSecret(key.slice(5)));
      expect(createHash('sha256').update(plain).digest('hex')).toBe(original);
      expect(uploads(h2).slice(before)).toEqual(['2.0']);
      expect(workers.filter((u) => u.includes('encrypt-worker')).length).toBe(1);
      expect(await opfsNames(page)).toEqual([]);
    } finally {
      await page.close();
      rmSync(path, { force: true });
    }
  }, 300_000);

  it('the worker feeds the stream: the server takes bytes while the page itself is blocked (issue 21)', async () => {
    // Chromium refills a streamed body's 64 KiB pipe on the thread that made the fetch. The page
    // blocks its own thread from the first "Uploading" render until the server has taken 16 MiB
    // more: only a fetch made elsewhere (the worker) gets them there. Before the fix the fetch was
    // the page's, the server got nothing more, and the loop gave up at its bound.
    const path = join(tmp, 'busy-page.bin');
    const size = 64 * MIB + 9;
    const original = await writeRandomFile(path, size);
    // Tells the page, by synchronous XHR (which runs nothing else on its thread), how many body
    // bytes the latest request to the server has brought so far.
    const counter = createServer((_req, res) => {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.end(String(h2.requests.at(-1)?.bodyBytes ?? 0));
    });
    await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
    const countUrl = `http://127.0.0.1:${(counter.address() as AddressInfo).port}/`;
    const { page } = await uploadPage(h2);
    try {
      await page.evaluate(
        ({ countUrl, more, bound }) => {
          const taken = () => {
            const xhr = new XMLHttpRequest();
            xhr.open('GET', countUrl, false);
            xhr.send();
            return Number(xhr.responseText);
          };
          const observer = new MutationObserver(() => {
            const label = document.querySelector('.job[data-state="running"] label')?.textContent;
            if (!label?.startsWith('Uploading')) return;
            observer.disconnect();
            const from = taken();
            let now = from;
            // The bound only keeps the old code from blocking forever; nothing is timed.
            const giveUp = Date.now() + bound;
            while (now < from + more && Date.now() < giveUp) now = taken();
            (window as any).whileBlocked = now - from;
          });
          observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        },
        { countUrl, more: 16 * MIB, bound: 30_000 },
      );
      const { stored, key } = await upload(page, h2, path);
      expect(await page.evaluate(() => (window as any).whileBlocked)).toBeGreaterThanOrEqual(16 * MIB);
      expect(stored.httpVersion).toBe('2.0');
      expect(await decryptedHash(await stored.stream(), key)).toBe(original);
    } finally {
      await page.close();
      await new Promise((resolve) => counter.close(resolve));
      rmSync(path, { force: true });
    }
  }, 300_000);

  it('the worker’s streamed request carries DNT: 1 when the profile asks (the session rule matches it)', async () => {
    const path = join(tmp, 'stream-dnt.bin');
    const original = await writeRandomFile(path, 2 * MIB + 1);
    const settings = serverSettings(h2, 'current');
    settings.profiles[0]!.defaults.doNotTrack = true;
    const { page, workers } = await openUploadPage(browser, settings);
    try {
      // The background turns the settings into declarativeNetRequest rules; wait for h2's.
      await expect
        .poll(async () =>
          (
            await browser.sw.evaluate(() =>
              (globalThis as any).chrome.declarativeNetRequest.getSessionRules(),
            )
          )
            .map((r: any) => r.condition.urlFilter)
            .includes(`|${h2.baseUrl}/`),
        )
        .toBe(true);
      const { stored, key } = await upload(page, h2, path);
      expect(stored.httpVersion).toBe('2.0');
      expect(stored).toMatchObject({ dntHeader: true, doNotTrack: true });
      expect(await decryptedHash(await stored.stream(), key)).toBe(original);
      expect(workers.filter((u) => u.includes('encrypt-worker')).length).toBe(1);
    } finally {
      await page.close();
      rmSync(path, { force: true });
    }
  }, 300_000);

  it('a right-click upload streams from the offscreen document’s worker too; the stored copy decrypts', async () => {
    await browser.setSettings(serverSettings(h2, 'current'));
    const before = uploads(h2).length;
    const text = 'streamed from the offscreen document '.repeat(40_000);
    const job = await rightClickText(browser, text);
    expect(job.state, job.error).toBe('done');
    expect(uploads(h2).slice(before)).toEqual(['2.0']);
    const [url, key] = (job.link as string).split('#') as [string, string];
    const stored = await h2.stored(new URL(url).pathname.split('/').pop()!);
    expect(stored?.httpVersion).toBe('2.0');
    expect(await decryptedHash(await stored!.stream(), key)).toBe(
      createHash('sha256').update(text).digest('hex'),
    );
  }, 300_000);

  it('a small upload whose answer broke off is not sent again (issue 17, finding 5)', async () => {
    // Under 64 KiB, a broken stream used to count as "refused" however far it got, even with the
    // server's answer begun, and the disk way then sent the file a second time: two copies on the
    // server, the first with no deletion link.
    const path = join(tmp, 'stored-then-dropped.bin');
    await writeRandomFile(path, 10 * 1024);
    const { page } = await uploadPage(h2);
    try {
      const history = await historyCount(page);
      const before = uploads(h2).length;
      const kept = storedFiles('h2').length;
      h2.setFault('answer-then-drop', { once: true });
      await page.setInputFiles('#file', path);
      const job = page.locator('.job:not([data-state="running"])');
      await job.waitFor({ timeout: 120_000 });
      // Before the fix the disk way sent it again, and the job ended 'done'.
      expect(await job.getAttribute('data-state')).toBe('failed');
      expect(await job.locator('[role="alert"]').textContent()).toMatch(/connection/i);
      // One request, streamed, and no second one the disk way.
      expect(uploads(h2).slice(before)).toEqual(['2.0']);
      expect(storedFiles('h2').length).toBe(kept + 1);
      expect(await historyCount(page)).toBe(history);
      expect(await opfsNames(page)).toEqual([]);
    } finally {
      await page.close();
      rmSync(path, { force: true });
    }
  }, 300_000);

  it('Cancel midway: the request is cut off, no history, nothing stored, the server goes on', async () => {
    const path = join(tmp, 'cancel-200.bin');
    const size = 200 * MIB;
    await writeRandomFile(path, size);
    const { page } = await uploadPage(h2);
    try {
      const history = await historyCount(page);
      const requests = oneRequestWay(h2).length;
      const kept = storedFiles('h2');
      await cancelWhen(page, 'Uploading', 30);
      await page.setInputFiles('#file', path);
      const job = page.locator('.job[data-state="cancelled"]');
      await job.waitFor({ timeout: 200_000 });
      expect(await page.evaluate(() => (window as any).cancelledAt)).toMatch(/^Uploading/);
      expect(await job.locator('[role="alert"]').textContent()).toMatch(/cancel/i);
      expect(await historyCount(page)).toBe(history);
      expect(await opfsNames(page)).toEqual([]);
      // One streamed request began, over HTTP/2, and was reset before its end.
      expect(oneRequestWay(h2).length).toBe(requests + 1);
      const request = oneRequestWay(h2)[requests]!;
      expect(request.httpVersion).toBe('2.0');
      await expect.poll(() => storedFiles('h2'), { timeout: 30_000 }).toEqual(kept);
      expect(request.bodyBytes).toBeLessThan(size);

      // The server is alive, and the next upload streams again.
      const small = join(tmp, 'after-cancel.bin');
      const original = await writeRandomFile(small, 3 * MIB);
      const { stored, key } = await upload(page, h2, small);
      expect(stored.httpVersion).toBe('2.0');
      expect(await decryptedHash(await stored.stream(), key)).toBe(original);
    } finally {
      await page.close();
      rmSync(path, { force: true });
    }
  }, 300_000);
});

/** Presses Test connection on the options page: the server's info is asked, and its record renewed. */
async function testConnection(): Promise<void> {
  const page = await browser.open('options.html');
  try {
    await page.click('#test');
    await expect
      .poll(() => page.locator('#test ~ p').textContent(), { timeout: 60_000 })
      .toMatch(/Connection works/);
  } finally {
    await page.close();
  }
}

describe('no HTTP/2: the disk way', () => {
  for (const [name, server] of [
    ['HTTPS with HTTP/1.1 only', () => ({ server: h1tls, dir: 'h1tls' })],
    ['plain http', () => ({ server: plain, dir: 'plain' })],
  ] as const) {
    it(`${name}: the upload is encrypted to disk and sent with HTTP/1.1; the stored copy decrypts`, async () => {
      const { server: target, dir } = server();
      const path = join(tmp, `disk-${dir}.bin`);
      const original = await writeRandomFile(path, 24 * MIB + 3);
      const { page, workers } = await uploadPage(target);
      try {
        const requests = uploads(target).length;
        for (let round = 0; round < 2; round++) {
          const { stored, key } = await upload(page, target, path);
          expect(stored.httpVersion).toBe('1.1');
          expect(await decryptedHash(await stored.stream(), key)).toBe(original);
        }
        // Only the uploads themselves reached the server: a refused stream sends nothing.
        expect(uploads(target).slice(requests)).toEqual(['1.1', '1.1']);
        // One worker per encrypted copy; over HTTPS the first upload's worker tried a stream
        // first (refused before a byte went, so the server saw no request for it).
        expect(workers.filter((u) => u.includes('encrypt-worker')).length).toBe(dir === 'h1tls' ? 3 : 2);
        await expect.poll(() => opfsNames(page), { timeout: 60_000 }).toEqual([]);
        expect(storedFiles(dir).length).toBeGreaterThanOrEqual(2);
      } finally {
        await page.close();
        rmSync(path, { force: true });
      }
    }, 300_000);
  }
});

describe('a refused stream is remembered for the origin (its record in IndexedDB)', () => {
  const sendWorkers = (workers: string[]) => workers.filter((u) => u.includes('encrypt-worker-send'));
  const fileWorkers = (workers: string[]) => workers.filter((u) => u.includes('encrypt-worker-files'));
  const refused = async () =>
    (await readStoredCapabilities(browser.sw)).servers[new URL(h1tls.apiUrl).origin]?.streamRefused;

  it('across pages, until a new info answer (Test connection) lets the next upload try the stream again', async () => {
    const path = join(tmp, 'remembered.bin');
    const original = await writeRandomFile(path, 12 * MIB + 5);
    try {
      // Refused once (here or in the test above): remembered.
      const first = await uploadPage(h1tls);
      await upload(first.page, h1tls, path);
      await first.page.close();
      expect(await refused()).toBe(true);

      // Another page: the disk way at once, no stream tried (no send worker).
      const next = await uploadPage(h1tls);
      const { stored, key } = await upload(next.page, h1tls, path);
      expect(await decryptedHash(await stored.stream(), key)).toBe(original);
      expect(sendWorkers(next.workers)).toEqual([]);
      expect(fileWorkers(next.workers).length).toBe(1);
      await next.page.close();

      // A new info answer forgets it: the next upload tries the stream, is refused, and goes the disk way.
      await testConnection();
      expect(await refused()).toBeUndefined();
      const after = await uploadPage(h1tls);
      await upload(after.page, h1tls, path);
      expect(sendWorkers(after.workers).length).toBe(1);
      expect(fileWorkers(after.workers).length).toBe(1);
      expect(await refused()).toBe(true);
      await after.page.close();
    } finally {
      rmSync(path, { force: true });
    }
  }, 300_000);
});
