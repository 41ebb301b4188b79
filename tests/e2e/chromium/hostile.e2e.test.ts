// Hostile and broken input through the real extension: names carrying markup, bad history
// imports, bogus links, a full disk while writing history, and an update of the history
// database from its first schema.
// Chromium only for now: nothing here is Chromium's own; it was written on Playwright's page API
// before the shared driver existed and can move to the shared suite as deletion and size limits did.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testkit/server';
import {
  type ExtensionBrowser,
  historyCount,
  launchExtension,
  openInViewer,
  screenshot,
  serverSettings,
} from './harness';

let browser: ExtensionBrowser;
let ref: TestServer;
let broken: Server;
let brokenOrigin: string;

const HOSTILE_NAME = '<img src=x onerror="document.title=\'pwned\'"><b>bold</b>.txt';

beforeAll(async () => {
  ref = await startTestServer({ record: true });
  // Announces 100,000 bytes, sends 1,000, then hangs up: a truncated download.
  broken = createServer((_, res) => {
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': '100000' });
    res.write(randomBytes(1000));
    setTimeout(() => res.destroy(), 50);
  });
  await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
  brokenOrigin = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
  browser = await launchExtension();
  await browser.setSettings(serverSettings(ref.server, 'current'));
});

afterAll(async () => {
  await browser?.close();
  await ref?.stop();
  broken?.closeAllConnections();
  broken?.close();
});

async function upload(
  name: string,
  bytes: Buffer,
  before?: (page: import('playwright-core').Page) => Promise<void>,
) {
  const page = await browser.open('upload.html');
  await before?.(page);
  // Choosing the file starts its upload.
  await page.setInputFiles('#file', { name, mimeType: 'text/plain', buffer: bytes });
  await page
    .locator('.job[data-state="done"], .job[data-state="failed"]')
    .first()
    .waitFor({ timeout: 30_000 });
  return page;
}

describe('history database', () => {
  it('an entry written by the first schema survives the update to the current one', async () => {
    // The options page never opens the database, so the first schema can be laid down there.
    const page = await browser.open('options.html');
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('hushdrop', 1);
          open.onupgradeneeded = () => {
            const store = open.result.createObjectStore('uploads', { keyPath: 'id' });
            store.createIndex('time', 'time');
            store.put({
              id: 'from-v1',
              link: 'http://127.0.0.1:9/old.txt#abcdefghijklmnopqrstuvwxyzABCDEF',
              url: 'http://127.0.0.1:9/old.txt',
              fileName: 'old.txt',
              variant: 'legacy',
              mode: 'client',
              size: 12,
              type: 'text/plain',
              name: 'old upload.txt',
              time: 1_600_000_000_000,
              server: 'http://127.0.0.1:9',
            });
          };
          open.onsuccess = () => {
            open.result.close();
            resolve();
          };
          open.onerror = () => reject(open.error);
        }),
    );
    await page.close();
    const history = await browser.open('uploads.html');
    await expect.poll(() => history.locator('tbody tr').count()).toBe(1);
    expect(await history.locator('tbody').textContent()).toContain('old upload.txt');
    await history.close();
  });
});

describe('untrusted text is shown as text', () => {
  it('a file name carrying markup stays inert on the upload page, in history and in the popup', async () => {
    const page = await upload(HOSTILE_NAME, Buffer.from('hello'));
    expect(await page.locator('.job h3').first().textContent()).toContain('<img src=x');
    expect(await page.locator('img[src="x"], b:text("bold")').count()).toBe(0);
    expect(await page.title()).not.toBe('pwned');
    await page.close();
    for (const path of ['uploads.html', 'popup.html']) {
      const p = await browser.open(path);
      await p.locator('tbody tr').first().waitFor();
      expect(await p.locator('tbody').textContent()).toContain('<img src=x');
      expect(await p.locator('img[src="x"]').count()).toBe(0);
      expect(await p.title()).not.toBe('pwned');
      await p.close();
    }
  });
});

describe('history import', () => {
  it('a malformed file is refused with a sentence and changes nothing', async () => {
    const page = await browser.open('uploads.html');
    await page.locator('tbody tr').first().waitFor();
    const before = await historyCount(page);
    for (const text of ['{ not json', JSON.stringify({ format: 'hushdrop-history', uploads: [{ id: 1 }] })]) {
      await page.setInputFiles('#import', {
        name: 'bad.json',
        mimeType: 'application/json',
        buffer: Buffer.from(text),
      });
      await expect
        .poll(() => page.locator('[role="status"]').textContent())
        .toMatch(/not a Hushdrop export|nothing was imported/);
      expect(await historyCount(page)).toBe(before);
    }
    await page.close();
  });
});

describe('bogus links in the viewer', () => {
  const cases: [string, () => string, RegExp][] = [
    ['no key', () => `${ref.server.uploadUrl}/abcde.txt`, /no key/],
    [
      'a key with bad characters',
      () => `${ref.server.uploadUrl}/abcde.txt#abc!def`,
      /only contain the letters/,
    ],
    ['a short key', () => `${ref.server.uploadUrl}/abcde.txt#abcdef`, /has 6 characters/],
    [
      'a file that is gone',
      () => `${ref.server.uploadUrl}/gone0.txt#abcdefghijklmnopqrstuvwxyzABCDEF`,
      /no longer on the server/,
    ],
    [
      'a truncated download',
      () => `${brokenOrigin}/cut.bin#abcdefghijklmnopqrstuvwxyzABCDEF`,
      /stopped before the end/,
    ],
    ['not a web link', () => 'javascript:alert(1)#abcdefghijklmnopqrstuvwxyzABCDEF', /not a web link/],
  ];
  for (const [what, link, message] of cases) {
    it(`explains ${what}`, async () => {
      const page = await browser.open('viewer.html');
      await page.fill('#link', link());
      await page.click('#open');
      const alert = page.locator('[role="alert"]');
      await alert.waitFor({ timeout: 20_000 });
      expect(await alert.textContent()).toMatch(message);
      if (what === 'a truncated download') await screenshot(page, 'viewer-truncated');
      await page.close();
    });
  }

  it('a link not from this history says plainly that a wrong key cannot be detected', async () => {
    const page = await upload('plain.txt', Buffer.from('some text'));
    const link = await page.locator('.job[data-state="done"] input[id^="link-"]').inputValue();
    await page.close();
    const wrong = `${link.split('#')[0]}#${'A'.repeat(32)}`;
    const viewer = await openInViewer(browser, wrong);
    await viewer.locator('#save').waitFor({ timeout: 20_000 });
    expect(await viewer.locator('#result').textContent()).toMatch(/not the one Hushdrop made/);
    expect(await viewer.locator('#result').textContent()).toMatch(/no checksum/);
    await viewer.close();
  });

  it('a file changed on the server is caught by the hash recorded at upload', async () => {
    const page = await upload('changed.txt', Buffer.from('the original words'));
    const link = await page.locator('.job[data-state="done"] input[id^="link-"]').inputValue();
    await page.close();
    const stored = (await ref.server.stored(new URL(link.split('#')[0]!).pathname.split('/').pop()!))!;
    const bytes = await stored.bytes();
    bytes[3]! ^= 0x01;
    await stored.replaceBytes(bytes);
    const viewer = await openInViewer(browser, link);
    await viewer.locator('#save').waitFor({ timeout: 20_000 });
    expect(await viewer.locator('#check').textContent()).toMatch(/not the file you uploaded/);
    await viewer.close();
  });
});

describe('a full disk while writing history', () => {
  it('keeps the link visible with a clear message, and writes nothing', async () => {
    // The page's own IndexedDB refuses every write, as it does when the disk is full.
    const page = await upload('quota.txt', Buffer.from('quota test'), (p) =>
      p.evaluate(() => {
        IDBObjectStore.prototype.put = () => {
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        };
      }),
    );
    const job = page.locator('.job[data-state="done"]');
    expect(await job.locator('[role="alert"]').textContent()).toMatch(/out of storage space.*Copy the link/);
    expect(await job.locator('input[id^="link-"]').inputValue()).toMatch(/#[A-Za-z0-9]{32}$/);
    await screenshot(page, 'upload-quota');
    await page.close();
    const fresh = await browser.open('uploads.html');
    expect(await fresh.locator('tbody').textContent()).not.toContain('quota.txt');
    await fresh.close();
  });
});

describe('the fragment never leaves', () => {
  it('opening history links sends no Referer and no key', async () => {
    const page = await upload('referer.txt', Buffer.from('referer test'));
    const link = await page.locator('.job[data-state="done"] input[id^="link-"]').inputValue();
    await page.close();
    const key = link.split('#')[1]!;
    const history = await browser.open('uploads.html');
    const row = history.locator('tbody tr', { hasText: 'referer.txt' });
    const before = ref.server.requests.length;
    const [viewer] = await Promise.all([
      browser.ctx.waitForEvent('page'),
      row.getByRole('button', { name: /Open/ }).click(),
    ]);
    await viewer.locator('#save').waitFor({ timeout: 20_000 });
    const sent = ref.server.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    for (const r of sent) {
      expect(r.headers.referer).toBeUndefined();
      expect(JSON.stringify(r.headers) + r.url).not.toContain(key);
    }
    expect(
      await history.evaluate(() => document.querySelector('meta[name="referrer"]')?.getAttribute('content')),
    ).toBe('no-referrer');
    await viewer.close();
    await history.close();
  });
});
