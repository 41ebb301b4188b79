// Large files in Chromium only: the upload page without a Worker (the fallback), Cancel while
// encrypting and while uploading (no history, nothing stored, no OPFS leftover), a size limit that
// refuses a file before any byte is sent, and the offscreen document encrypting in its worker.
// Chromium only because they reach into the browser in ways Marionette cannot: Worker removed
// before the page's scripts run (addInitScript), the workers a page or the offscreen document
// starts (Playwright's worker event, the DevTools protocol). The 300 MiB upload itself, with
// memory measured, runs in both browsers (../large.e2e.test.ts). No timing assertions.
// Its servers take no uploads in parts (noParts), as Teknik's: these are the one-request ways
// (a Hushdrop server gets an upload in parts, ../parts.e2e.test.ts).
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIB, writeRandomFile } from '../../../devkit/files';
import { decryptedHash } from '../../../devkit/links';
import { opfsNames } from '../../../devkit/opfs';
import type { Settings } from '../../../lib/settings';
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

/** Stored upload files on the reference server's disk (kept as `.enc`, received as `.part`). */
function storedFiles(dataDir: string): string[] {
  return readdirSync(join(dataDir, 'files'));
}

let browser: ExtensionBrowser;
let tmp: string;
/** No recording: large bodies are not copied to disk a second time. */
let plain: ReferenceServer;
let plainDir: string;
/** Records every request, so a test can prove nothing was sent. */
let recorded: ReferenceServer;
let recordedDir: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'hushdrop-large-'));
  plainDir = join(tmp, 'plain-server');
  recordedDir = join(tmp, 'recorded-server');
  plain = await startServer({ dataDir: plainDir, noParts: true });
  recorded = await startServer({ dataDir: recordedDir, record: true, noParts: true });
  browser = await launchExtension();
});

afterAll(async () => {
  await browser?.close();
  await plain?.close();
  await recorded?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Opens the upload page with the given settings and notes every dedicated worker it starts. */
const uploadPage = (settings: Settings) => openUploadPage(browser, settings);

describe('without a Worker (the fallback)', () => {
  it('encrypts on the page through createWritable, and the copy still decrypts', async () => {
    const path = join(tmp, 'fallback-20.bin');
    const original = await writeRandomFile(path, 20 * MIB + 5);
    await browser.setSettings(serverSettings(plain, 'legacy'));
    const page = await browser.ctx.newPage();
    const workers: string[] = [];
    page.on('worker', (w) => workers.push(w.url()));
    await page.addInitScript(() => {
      delete (globalThis as any).Worker;
    });
    try {
      await page.goto(browser.url('upload.html'));
      await page.setInputFiles('#file', path);
      const link = page.locator('.job[data-state="done"] input[id^="link-"]');
      await link.waitFor({ timeout: 120_000 });
      expect(workers).toEqual([]);
      const [url, key] = (await link.inputValue()).split('#') as [string, string];
      // Legacy links are {baseUrl}/<fileName>?sub=u.
      const stored = await plain.stored(new URL(url).pathname.split('/').pop()!);
      expect(await decryptedHash(await stored!.stream(), key)).toBe(original);
      await expect.poll(() => opfsNames(page), { timeout: 60_000 }).toEqual([]);
    } finally {
      await page.close();
      rmSync(path, { force: true });
    }
  });
});

describe('Cancel on a 200 MiB file', () => {
  const size = 200 * MIB;
  let path: string;
  beforeAll(async () => {
    path = join(tmp, 'big-200.bin');
    await writeRandomFile(path, size);
  });
  afterAll(() => rmSync(path, { force: true }));

  // The bar covers the whole job: encrypting fills its first quarter (lib/jobs/progress.ts), so
  // these are each phase about half way.
  const HALF_WAY = { Encrypting: 12, Uploading: 60 } as const;
  for (const phase of ['Encrypting', 'Uploading'] as const) {
    it(`while ${phase.toLowerCase()}, half way: no history, nothing stored, no OPFS leftover`, async () => {
      const { page } = await uploadPage(serverSettings(recorded, 'current'));
      try {
        const history = await historyCount(page);
        const requests = oneRequestWay(recorded).length;
        await cancelWhen(page, phase, HALF_WAY[phase]);
        await page.setInputFiles('#file', path);
        const job = page.locator('.job[data-state="cancelled"]');
        await job.waitFor({ timeout: 200_000 });
        expect(await page.evaluate(() => (window as any).cancelledAt)).toMatch(new RegExp(`^${phase}`));
        expect(await job.locator('[role="alert"]').textContent()).toMatch(/cancel/i);

        expect(await historyCount(page)).toBe(history);
        expect(await opfsNames(page)).toEqual([]);
        if (phase === 'Encrypting') {
          // Cancelled before the upload began: the server never heard of it.
          expect(oneRequestWay(recorded).length).toBe(requests);
        } else {
          // The request began and was cut off: the server got part of it and kept nothing.
          expect(oneRequestWay(recorded).length).toBe(requests + 1);
          const request = oneRequestWay(recorded)[requests]!;
          await expect.poll(() => storedFiles(recordedDir), { timeout: 30_000 }).toEqual([]);
          expect(request.bodyBytes).toBeLessThan(size);
        }
        expect(storedFiles(recordedDir)).toEqual([]);
      } finally {
        await page.close();
      }
    }, 240_000);
  }
});

describe('size limit known up front', () => {
  it('a profile limit refuses an over-limit file before any byte is sent', async () => {
    const { page } = await uploadPage(
      serverSettings(recorded, 'current', { sizeLimit: { bytes: MIB, kind: 'at-most' } }),
    );
    try {
      const requests = recorded.requests.length;
      const history = await historyCount(page);
      await page.setInputFiles('#file', {
        name: 'over.bin',
        mimeType: 'application/octet-stream',
        buffer: Buffer.alloc(MIB + 1),
      });
      const alert = page.locator('.job[data-state="failed"] [role="alert"] .error');
      await alert.waitFor({ timeout: 30_000 });
      expect(await alert.textContent()).toMatch(/at most 1(\.0)? MiB.*Nothing was sent/);
      expect(recorded.requests.length).toBe(requests);
      expect(await historyCount(page)).toBe(history);
      expect(await opfsNames(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('a limit learned from a 413 refuses the next over-limit file without sending it', async () => {
    const dataDir = join(tmp, 'limited-server');
    const limited = await startServer({ dataDir, record: true, maxUploadBytes: 2 * MIB, noParts: true });
    const { page } = await uploadPage(serverSettings(limited, 'current'));
    try {
      const pick = (name: string, bytes: number) =>
        page.setInputFiles('#file', {
          name,
          mimeType: 'application/octet-stream',
          buffer: Buffer.alloc(bytes),
        });
      await pick('first.bin', 3 * MIB);
      await page.locator('.job[data-state="failed"]', { hasText: 'first.bin' }).waitFor({ timeout: 60_000 });
      expect(limited.requests.length).toBe(1);
      // The page now states the limit the server gave in its answer.
      await expect.poll(() => page.locator('.lead').textContent()).toMatch(/at most 2(\.0)? MiB/);

      await pick('second.bin', 2 * MIB + 1);
      const second = page.locator('.job[data-state="failed"]', { hasText: 'second.bin' });
      await second.waitFor({ timeout: 30_000 });
      expect(await second.locator('.error').textContent()).toMatch(/Nothing was sent/);
      expect(limited.requests.length).toBe(1);

      // A file within the limit still goes.
      await pick('fits.bin', 2 * MIB - 4096);
      await page.locator('.job[data-state="done"]', { hasText: 'fits.bin' }).waitFor({ timeout: 60_000 });
      expect(limited.requests.length).toBe(2);
    } finally {
      await page.close();
      await limited.close();
    }
  });
});

/**
 * URLs of the dedicated workers the offscreen document starts from now on. Playwright does not
 * show offscreen documents, so this goes through CDP: attach to the document, then let it
 * auto-attach its workers (non-flat sessions, whose messages arrive as events here).
 */
async function watchOffscreenWorkers(cdp: CDPSession): Promise<string[]> {
  const { targetInfos } = await cdp.send('Target.getTargets');
  const offscreen = targetInfos.find((t) => t.url.endsWith('/offscreen.html'));
  if (!offscreen) throw new Error('No offscreen document is open.');
  const urls: string[] = [];
  cdp.on('Target.receivedMessageFromTarget', ({ message }) => {
    const m = JSON.parse(message);
    if (m.method === 'Target.attachedToTarget') urls.push(m.params.targetInfo.url);
  });
  const { sessionId } = await cdp.send('Target.attachToTarget', {
    targetId: offscreen.targetId,
    flatten: false,
  });
  const message = JSON.stringify({
    id: 1,
    method: 'Target.setAutoAttach',
    params: { autoAttach: true, waitForDebuggerOnStart: false, flatten: false },
  });
  await cdp.send('Target.sendMessageToTarget', { sessionId, message });
  return urls;
}

describe('offscreen document', () => {
  it('encrypts a right-click upload in the worker there too', async () => {
    await browser.setSettings(serverSettings(plain, 'current'));
    const helper = await browser.ctx.newPage();
    const cdp = await browser.ctx.newCDPSession(helper);
    try {
      // The first job opens the offscreen document; the second is watched inside it.
      expect((await rightClickText(browser, 'opens the offscreen document')).state).toBe('done');
      const workers = await watchOffscreenWorkers(cdp);
      const text = 'x'.repeat(3 * MIB + 123);
      const job = await rightClickText(browser, text);
      expect(job.state, job.error).toBe('done');
      expect(
        workers.some((u) => /\/assets\/encrypt-worker[-\w]*\.js$/.test(u)),
        workers.join(),
      ).toBe(true);

      const [url, key] = job.link.split('#') as [string, string];
      const stored = await plain.stored(new URL(url).pathname.split('/').pop()!);
      const expected = createHash('sha256').update(text).digest('hex');
      expect(await decryptedHash(await stored!.stream(), key)).toBe(expected);
    } finally {
      await cdp.detach().catch(() => {});
      await helper.close();
    }
  });
});
