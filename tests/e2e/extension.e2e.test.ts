import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/test-helpers';
import { openLink, seriousViolations } from './checks';
import {
  type ExtensionBrowser,
  historyCount,
  launchExtension,
  openInViewer,
  screenshot,
  serverSettings,
  UNGRANTED_HOST,
  uploadThroughPage,
} from './harness';
import { type Site, startSite } from './pages';

declare const chrome: any;

let browser: ExtensionBrowser;
let ref: TestServer;
let site: Site;

beforeAll(async () => {
  ref = await startTestServer({ record: true });
  site = await startSite(randomBytes(40_000));
  browser = await launchExtension({ grantHosts: [`http://${UNGRANTED_HOST}/*`] });
  // Read back through a web page: permissions cannot be granted to extension origins.
  await browser.ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
  await browser.setSettings(serverSettings(ref.server, 'current'));
});

afterAll(async () => {
  await browser?.close();
  await ref?.stop();
  await site?.close();
});

async function jobs(): Promise<any[]> {
  return Object.values((await browser.sw.evaluate(() => chrome.storage.session.get('jobs'))).jobs ?? {});
}
async function waitForJob(predicate: (j: any) => boolean): Promise<any> {
  const find = async () => (await jobs()).find(predicate);
  await expect.poll(async () => (await find())?.state, { timeout: 30_000 }).toMatch(/done|failed/);
  return find();
}
async function readClipboard(): Promise<string> {
  const page = await browser.ctx.newPage();
  await page.goto(`${site.origin}/`);
  try {
    return await page.evaluate(() => navigator.clipboard.readText());
  } finally {
    await page.close();
  }
}
async function tabIdOf(url: string): Promise<{ id: number; windowId: number }> {
  return browser.sw.evaluate(async (u) => {
    const [tab] = await chrome.tabs.query({ url: u });
    return { id: tab.id, windowId: tab.windowId };
  }, url);
}
async function rightClick(info: Record<string, unknown>, tab: { id: number; windowId: number }) {
  await browser.sw.evaluate(
    ({ info, tab }) => chrome.contextMenus.onClicked.dispatch({ editable: false, frameId: 0, ...info }, tab),
    { info, tab },
  );
}

describe('right-click upload', () => {
  it('uploads an image from a loopback page, copies the link and notifies', async () => {
    const page = await browser.ctx.newPage();
    await page.goto(`${site.origin}/`);
    const tab = await tabIdOf(`${site.origin}/`);
    await rightClick(
      {
        menuItemId: 'hushdrop-upload-media',
        srcUrl: `${site.origin}/cat.png`,
        pageUrl: page.url(),
        mediaType: 'image',
      },
      tab,
    );
    const job = await waitForJob((j) => j.name === 'cat.png');
    expect(job.state, job.error).toBe('done');
    expect((await openLink(job.link)).equals(site.image)).toBe(true);
    await expect.poll(readClipboard).toBe(job.link);
    const notes = await browser.sw.evaluate(() => chrome.notifications.getAll());
    expect(Object.keys(notes)).toContain(`job-${job.id}`);
    await page.close();
  });

  it('uploads a blob: image, fetched inside the page', async () => {
    const page = await browser.ctx.newPage();
    await page.goto(`${site.origin}/blob.html`);
    await page.waitForFunction(() => document.body.dataset.blob);
    const blobUrl = await page.evaluate(() => document.body.dataset.blob!);
    const tab = await tabIdOf(`${site.origin}/blob.html`);
    const before = (await jobs()).length;
    await rightClick(
      { menuItemId: 'hushdrop-upload-media', srcUrl: blobUrl, pageUrl: page.url(), mediaType: 'image' },
      tab,
    );
    await expect.poll(async () => (await jobs()).length).toBeGreaterThan(before);
    const job = await waitForJob((j) => j.name.startsWith('upload-') && j.name.endsWith('.png'));
    expect(job.state, job.error).toBe('done');
    expect((await openLink(job.link)).equals(site.image)).toBe(true);
    await page.close();
  });

  it('uploads selected text', async () => {
    const page = await browser.ctx.newPage();
    await page.goto(`${site.origin}/`);
    const tab = await tabIdOf(`${site.origin}/`);
    await rightClick(
      { menuItemId: 'hushdrop-upload-selection', selectionText: 'a secret note', pageUrl: page.url() },
      tab,
    );
    const job = await waitForJob((j) => j.name.startsWith('selection-'));
    expect(job.state, job.error).toBe('done');
    expect((await openLink(job.link)).toString()).toBe('a secret note');
    await page.close();
  });
});

describe('popup', () => {
  it('uploads a pasted file, and the work outlives the popup', async () => {
    const page = await browser.open('popup.html');
    const content = randomBytes(300_000).toString('base64');
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'pasted.txt', { type: 'text/plain' }));
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
    }, content);
    const link = page.locator('.job[data-state="done"]', { hasText: 'pasted.txt' }).locator('.job-link');
    await link.waitFor({ timeout: 30_000 });
    expect((await openLink(await link.inputValue())).toString()).toBe(content);
    await page.locator('h2#recent-h').waitFor();
    await screenshot(page, 'popup');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});

describe('options', () => {
  it('a second server profile on a host the manifest does not grant, saved through the page, is used for the next upload', async () => {
    const second = await startTestServer({ host: UNGRANTED_HOST });
    try {
      const page = await browser.open('options.html');
      await page.click('#add-profile');
      await page.fill('#name', 'Second server');
      await page.fill('#baseUrl', second.server.baseUrl);
      await page.fill('#apiUrl', second.server.apiUrl);
      await page.fill('#uploadUrl', second.server.uploadUrl);
      await page.selectOption('#variant', 'legacy');
      await page.check('#active');
      await page.click('#test');
      await expect
        .poll(() => page.locator('#test ~ p').textContent(), { timeout: 20_000 })
        .toMatch(/Connection works/);
      await page.click('#save');
      await expect.poll(() => page.locator('#save ~ p').textContent()).toBe('Saved.');
      await screenshot(page, 'options');
      expect(await seriousViolations(page)).toEqual([]);
      await page.close();

      const value = await uploadThroughPage(browser, {
        name: 'second.bin',
        mimeType: 'application/octet-stream',
        buffer: randomBytes(1000),
      });
      expect(value.startsWith(`${second.server.baseUrl}/`)).toBe(true);
      expect(value).toContain('?sub=u#');
    } finally {
      await browser.setSettings(serverSettings(ref.server, 'current'));
      await second.stop();
    }
  });
});

describe('history and viewer', () => {
  let original: Buffer;
  let link: string;

  it('the viewer decrypts a link made by an earlier upload and saves the original', async () => {
    original = randomBytes(3 * 1024 * 1024 + 5);
    link = await uploadThroughPage(browser, {
      name: 'photo.bin',
      mimeType: 'application/octet-stream',
      buffer: original,
    });

    const viewer = await openInViewer(browser, link);
    await viewer.locator('#save').waitFor({ timeout: 30_000 });
    expect(await viewer.locator('#check').textContent()).toMatch(/exactly the file you uploaded/);
    const [download] = await Promise.all([viewer.waitForEvent('download'), viewer.click('#save')]);
    expect(download.suggestedFilename()).toBe('photo.bin');
    const saved = readFileSync((await download.path())!);
    expect(saved.equals(original)).toBe(true);
    await screenshot(viewer, 'viewer');
    expect(await seriousViolations(viewer)).toEqual([]);
    await viewer.close();
  });

  it('export, clear and import give the same entries; deleting through the link removes the file', async () => {
    const page = await browser.open('uploads.html');
    await page.locator('tbody tr').first().waitFor();
    const before = await historyCount(page);
    expect(before).toBeGreaterThan(0);
    const rowsBefore = await page
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')).sort());
    await screenshot(page, 'history');
    expect(await seriousViolations(page)).toEqual([]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
    const exported = readFileSync((await download.path())!);
    await page.click('#clear');
    await page.click('#clear-confirm');
    await expect.poll(() => historyCount(page)).toBe(0);
    await page.setInputFiles('#import', {
      name: 'history.json',
      mimeType: 'application/json',
      buffer: exported,
    });
    await expect.poll(() => historyCount(page)).toBe(before);
    const rowsAfter = await page
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')).sort());
    expect(rowsAfter).toEqual(rowsBefore);
    // Importing the same file again adds nothing.
    await page.setInputFiles('#import', {
      name: 'history.json',
      mimeType: 'application/json',
      buffer: exported,
    });
    await expect.poll(() => page.locator('[role="status"]').textContent()).toMatch(/Imported 0 uploads/);

    const fileName = new URL(link.split('#')[0]!).pathname.split('/').pop()!;
    expect(ref.server.stored(fileName)).toBeDefined();
    const row = page.locator('tbody tr', { hasText: 'photo.bin' });
    await row.getByRole('button', { name: 'Delete on server' }).click();
    await row.getByRole('button', { name: 'Yes, delete it' }).click();
    await expect.poll(() => page.locator('[role="status"]').textContent()).toMatch(/deleted from the server/);
    expect(ref.server.stored(fileName)).toBeUndefined();
    expect((await fetch(link.split('#')[0]!)).status).toBe(404);
    await page.close();
  });
});

describe('work that outlives its page', () => {
  it('a popup upload finishes after the popup closes and the service worker is stopped', async () => {
    // The server answers one byte at a time, so the job is surely still running when the worker stops.
    ref.server.setFault('drip', { once: true });
    const popup = await browser.open('popup.html');
    const size = 16 * 1024 * 1024;
    await popup.evaluate((n) => {
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'outlives.bin', { type: 'application/octet-stream' }));
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
    }, size);
    await expect.poll(async () => (await jobs()).some((j) => j.name === 'outlives.bin')).toBe(true);
    await popup.close();

    // Stop the service worker, as Chromium does when it idles; the offscreen document goes on,
    // and its next message wakes a new worker.
    const page = await browser.open('uploads.html');
    const cdp = await browser.ctx.newCDPSession(page);
    const { targetInfos } = await cdp.send('Target.getTargets');
    const worker = targetInfos.find((t) => t.type === 'service_worker' && t.url.includes(browser.extId))!;
    expect((await cdp.send('Target.closeTarget', { targetId: worker.targetId })).success).toBe(true);
    const sessionJobs = async (): Promise<any[]> =>
      Object.values((await page.evaluate(() => chrome.storage.session.get('jobs'))).jobs ?? {});
    const find = async () => (await sessionJobs()).find((j) => j.name === 'outlives.bin');
    expect((await find())?.state).toBe('running');
    await expect.poll(async () => (await find())?.state, { timeout: 60_000 }).toMatch(/done|failed/);
    const job = await find();
    expect(job.state, job.error).toBe('done');
    const fileName = new URL(job.link.split('#')[0]).pathname.split('/').pop()!;
    expect(ref.server.stored(fileName)?.contentLength).toBe(size);
    await page.close();
  });
});

describe('server-side encryption', () => {
  it('a server-encrypted upload whose key the server did not keep opens in the viewer with the server’s IV', async () => {
    const original = randomBytes(200_000);
    const link = await uploadThroughPage(
      browser,
      {
        name: 'server-side.bin',
        mimeType: 'application/octet-stream',
        buffer: original,
      },
      async (p) => {
        await p.getByLabel('Let the server encrypt').check();
        await p.getByLabel(/Server keeps the key/).uncheck();
      },
    );
    expect(link).toMatch(/#[A-Za-z0-9]{32}$/);
    const stored = ref.server.stored(new URL(link.split('#')[0]!).pathname.split('/').pop()!)!;
    expect(stored.saved).toBe(false);

    const history = await browser.open('uploads.html');
    const row = history.locator('tbody tr', { hasText: 'server-side.bin' });
    const [viewer] = await Promise.all([
      browser.ctx.waitForEvent('page'),
      row.getByRole('button', { name: /Open/ }).click(),
    ]);
    await viewer.locator('#save').waitFor({ timeout: 30_000 });
    const [download] = await Promise.all([viewer.waitForEvent('download'), viewer.click('#save')]);
    expect(readFileSync((await download.path())!).equals(original)).toBe(true);
    await viewer.close();
    await history.close();
  });
});

describe('server-side encryption with the key kept', () => {
  it('a server that answers url#key for a key it keeps: the link has no key, Open goes to the server, and a pasted url#key is not decrypted twice', async () => {
    // Teknik did so from 2016 to 2018; the server decrypts such files itself on download.
    const old = await startTestServer({ keyInEveryUrl: true });
    try {
      await browser.setSettings(serverSettings(old.server, 'current'));
      const original = randomBytes(150_000);
      const link = await uploadThroughPage(
        browser,
        { name: 'kept.bin', mimeType: 'application/octet-stream', buffer: original },
        (p) => p.getByLabel('Let the server encrypt').check(),
      );
      expect(link).not.toContain('#');
      const stored = old.server.stored(new URL(link).pathname.split('/').pop()!)!;
      expect(stored.saved).toBe(true);
      // Open in the list goes to the server's own address: the server decrypts, not the extension.
      const history = await browser.open('uploads.html');
      const open = history.locator('tbody tr', { hasText: 'kept.bin' }).getByRole('link', { name: /Open/ });
      expect(await open.getAttribute('href')).toBe(link);
      expect(Buffer.from(await (await fetch(link)).arrayBuffer()).equals(original)).toBe(true);
      await history.close();
      // The url#key the server answered, pasted into the viewer: the record says not to decrypt.
      const viewer = await openInViewer(browser, `${link}#${stored.key}`);
      await viewer.locator('#save').waitFor({ timeout: 30_000 });
      expect(await viewer.locator('#check').textContent()).toMatch(/exactly the file you uploaded/);
      const [download] = await Promise.all([viewer.waitForEvent('download'), viewer.click('#save')]);
      expect(readFileSync((await download.path())!).equals(original)).toBe(true);
      await viewer.close();
    } finally {
      await browser.setSettings(serverSettings(ref.server, 'current'));
      await old.stop();
    }
  });
});

describe("Teknik's download page", () => {
  it('the viewer follows the page a Teknik server sends instead of the bytes, for client and server encryption', async () => {
    const teknik = await startTestServer({ downloadPage: true });
    try {
      await browser.setSettings(serverSettings(teknik.server, 'current'));
      const original = randomBytes(300_000);
      const clientLink = await uploadThroughPage(browser, {
        name: 'page.bin',
        mimeType: 'application/octet-stream',
        buffer: original,
      });
      expect((await fetch(clientLink.split('#')[0]!)).headers.get('content-type')).toMatch(/text\/html/);

      // Server encryption with a key the server does not keep: its link carries the server's key.
      const form = new FormData();
      for (const [k, v] of Object.entries({ encrypt: 'true', saveKey: 'false', genDeletionKey: 'false' }))
        form.append(k, v);
      form.append('file', new Blob([new Uint8Array(original)]), 'server.bin');
      const made = await (
        await fetch(`${teknik.server.apiUrl}/v1/Upload`, { method: 'POST', body: form })
      ).json();
      const serverLink: string = made.result.url;
      expect(serverLink).toContain('#');

      for (const link of [clientLink, serverLink]) {
        const viewer = await browser.open('viewer.html');
        await viewer.fill('#link', link);
        await viewer.click('#open');
        await viewer.locator('#save').waitFor({ timeout: 30_000 });
        const [download] = await Promise.all([viewer.waitForEvent('download'), viewer.click('#save')]);
        expect(readFileSync((await download.path())!).equals(original)).toBe(true);
        await viewer.close();
      }
    } finally {
      await browser.setSettings(serverSettings(ref.server, 'current'));
      await teknik.stop();
    }
  });

  it('an encrypted HTML file is still just a file to decrypt', async () => {
    const original = Buffer.from('<!doctype html><h1>my page</h1><script>var iv = "nope";</script>');
    const link = await uploadThroughPage(browser, {
      name: 'page.html',
      mimeType: 'text/html',
      buffer: original,
    });
    const viewer = await openInViewer(browser, link);
    await viewer.locator('#save').waitFor({ timeout: 30_000 });
    expect(await viewer.locator('#check').textContent()).toMatch(/exactly the file you uploaded/);
    expect(await viewer.locator('h1', { hasText: 'my page' }).count()).toBe(0);
    await viewer.close();
  });
});
