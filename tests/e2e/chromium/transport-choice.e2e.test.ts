// The way an encrypted upload goes is chosen from the rates this browser measured (issue 21,
// lib/upload/plan.ts, the rates kept in the server's record): with no figures, an upload to the HTTP/2 server streams and leaves
// its rate under the server's origin (no path); once the stored figures say the disk way wins for
// that origin, the next upload there really goes the disk way. Which way each body came is read on
// the recording server: a streamed fetch body has no Content-Length, the disk way's XHR of the
// encrypted copy has one (both ways run in the encrypt worker, so the worker tells nothing). No timing
// assertions.
// Chromium only by nature: Firefox never streams a request body (../request-streams.e2e.test.ts), so
// there is no choice to make there; it always goes the disk way.
// Its servers take no uploads in parts (noParts), as Teknik's: these are the one-request ways
// (a Hushdrop server gets an upload in parts, ../parts.e2e.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedCapabilities, writeCapabilities } from '../../../devkit/capabilities';
import { MIB, writeRandomFile } from '../../../devkit/files';
import { decryptedHash } from '../../../devkit/links';
import { type ReferenceServer, startServer } from '../../testkit/server';
import { type ExtensionBrowser, launchExtension, oneRequestWay, serverSettings } from './harness';
import { openUploadPage } from './large-files';

let tmp: string;
let h2: ReferenceServer;
let browser: ExtensionBrowser;
let origin: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'hushdrop-choice-'));
  h2 = await startServer({ dataDir: join(tmp, 'h2'), record: true, tls: { http2: true }, noParts: true });
  origin = new URL(h2.apiUrl).origin;
  browser = await launchExtension({ trustSpki: [h2.tls!.spkiSha256] });
});

afterAll(async () => {
  await browser?.close();
  await h2?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Uploads the file at `path`; returns the request the server recorded for it, and the stored copy. */
async function upload(page: Page, path: string) {
  const done = page.locator('.job[data-state="done"]');
  const before = await done.count();
  const requests = oneRequestWay(h2).length;
  await page.setInputFiles('#file', path);
  await expect.poll(() => done.count(), { timeout: 240_000 }).toBe(before + 1);
  const [url, key] = (await done.first().locator('input[id^="link-"]').inputValue()).split('#') as [
    string,
    string,
  ];
  const stored = await h2.stored(new URL(url).pathname.split('/').pop()!);
  expect(stored, url).toBeDefined();
  const posts = oneRequestWay(h2)
    .slice(requests)
    .filter((r) => r.method === 'POST');
  expect(posts.length).toBe(1);
  return { request: posts[0]!, stored: stored!, key };
}

/** A file of `size` random bytes, and the upload page set to h2, for `run`; both gone after it. */
async function withUploadPage(
  name: string,
  size: number,
  run: (page: Page, path: string, original: string) => Promise<void>,
): Promise<void> {
  const path = join(tmp, name);
  const original = await writeRandomFile(path, size);
  const { page } = await openUploadPage(browser, serverSettings(h2, 'current'));
  try {
    await run(page, path, original);
  } finally {
    await page.close();
    rmSync(path, { force: true });
  }
}

describe('the way chosen from measured rates (HTTPS with HTTP/2)', () => {
  it(
    'no figures: the upload streams and leaves its rate under the origin, no path',
    () =>
      withUploadPage('first-12.bin', 12 * MIB + 1, async (page, path, original) => {
        expect(await storedCapabilities(page)).toBeUndefined();
        const { request, stored, key } = await upload(page, path);
        expect(request.httpVersion).toBe('2.0');
        // A streamed body: no declared length.
        expect(request.headers['content-length']).toBeUndefined();
        expect(await decryptedHash(await stored.stream(), key)).toBe(original);
        // The rate is written once the upload has ended.
        await expect
          .poll(async () => (await storedCapabilities(page))?.servers[origin]?.rates?.stream?.samples)
          .toBe(1);
        const figures = (await storedCapabilities(page))!;
        expect(Object.keys(figures.servers)).toEqual([origin]);
        expect(JSON.stringify(figures)).not.toContain('/api');
        expect(figures.servers[origin]!.rates!.stream!.rate).toBeGreaterThan(0);
      }),
    300_000,
  );

  it(
    'once the figures say the disk way wins for this origin, the upload goes the disk way',
    () =>
      withUploadPage('then-disk-12.bin', 12 * MIB + 3, async (page, path, original) => {
        const figure = (mibps: number) => ({ rate: mibps * MIB, samples: 3, at: Date.now() });
        // A stream held at 27 MiB/s, a link that takes a file at 110 and encryption at 500 (row l's
        // picture of a fast link): 1/500 + 1/110 per MiB the disk way against 1/27 streamed.
        const { infoAt, parts, formats } = (await storedCapabilities(page))!.servers[origin]!;
        await writeCapabilities(page, {
          servers: {
            [origin]: {
              ...{ infoAt, parts, formats, at: Date.now() },
              rates: { stream: figure(27), send: figure(110), chosen: 'disk', streamsSinceDisk: 0 },
            },
          },
          encrypt: { teknik: figure(500) },
        });
        const { request, stored, key } = await upload(page, path);
        expect(request.httpVersion).toBe('2.0');
        // The encrypted copy sent by XHR: a declared length.
        expect(Number(request.headers['content-length'])).toBeGreaterThan(12 * MIB);
        expect(await decryptedHash(await stored.stream(), key)).toBe(original);
        // Its send rate and encryption rate join the figures.
        await expect
          .poll(async () => (await storedCapabilities(page))?.servers[origin]?.rates?.send?.samples)
          .toBe(4);
        expect((await storedCapabilities(page))!.encrypt.teknik!.samples).toBe(4);
      }),
    300_000,
  );

  it(
    'the rates an older version kept (its database, version 1) are carried into the server’s record',
    () =>
      withUploadPage('after-upgrade.bin', 64 * 1024, async (page, path) => {
        const stream = { rate: 27 * MIB, samples: 3, at: Date.now() };
        // The database as version 1 left it: the rates alone, under one key.
        await page.evaluate(
          async ({ origin, stream }) => {
            const done = (r: IDBRequest | IDBOpenDBRequest) =>
              new Promise<void>((resolve, reject) => {
                r.onsuccess = () => resolve();
                r.onerror = () => reject(r.error);
              });
            await done(indexedDB.deleteDatabase('hushdrop-transport'));
            const open = indexedDB.open('hushdrop-transport', 1);
            open.onupgradeneeded = () => open.result.createObjectStore('figures');
            await done(open);
            const tx = open.result.transaction('figures', 'readwrite');
            tx.objectStore('figures').put(
              { origins: { [origin]: { stream, chosen: 'stream' } }, encrypt: {} },
              'rates',
            );
            await new Promise((resolve) => {
              tx.oncomplete = resolve;
            });
            open.result.close();
          },
          { origin, stream },
        );
        // Any upload reads the records, which upgrades the database.
        await upload(page, path);
        expect((await storedCapabilities(page))?.servers[origin]?.rates).toEqual({
          stream,
          chosen: 'stream',
        });
      }),
    300_000,
  );
});
