// Where do secrets land around the wire? One scripted session uploads in every mode, opens links
// from the uploads page and from the popup, saves a decrypted file, gets a notification and exports
// the history. Then the browser is closed and every file of its profile is searched for each key
// (and each link's key made by the server) and for the plaintext. The only place a key may be is
// the extension's own upload history database; the plaintext may be nowhere.
// Chromium only: it searches a Chromium profile's files (its Sessions, History and IndexedDB
// folders) after closing the browser on a kept profile.
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { opfsNames } from '../../../devkit/opfs';
import { startTestServer, type TestServer } from '../../testkit/server';
import { type ExtensionBrowser, launchExtension, openInViewer, serverSettings, submitFile } from './harness';
import { sessionSaved as sessionSavedIn, whereFound as whereFoundIn } from './profile-files';

declare const chrome: any;

let browser: ExtensionBrowser;
let ref: TestServer;
let profileDir = '';

beforeAll(async () => {
  ref = await startTestServer();
  browser = await launchExtension();
  profileDir = browser.profileDir;
  await browser.setSettings(serverSettings(ref.server, 'current'));
});

afterAll(async () => {
  await browser?.close().catch(() => {});
  await ref?.stop();
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
});

const sessionSaved = (since: number) => sessionSavedIn(profileDir, since);
const whereFound = (needles: string[]) => whereFoundIn(profileDir, needles);

async function uploadWith(name: string, bytes: Buffer, choose: (p: Page) => Promise<void>): Promise<string> {
  const opened = Date.now();
  const page = await browser.open('upload.html');
  await choose(page);
  const job = await submitFile(page, { name, mimeType: 'text/plain', buffer: bytes });
  const link = await job.locator('input[id^="link-"]').inputValue();
  // The page stays open with its link shown until session restore has saved the tab, then closes
  // (and closed tabs are kept for "reopen closed tab").
  await sessionSaved(opened);
  await page.close();
  return link;
}

/** Clicks a row's Open in an extension page and returns the viewer tab it opened, once decrypted. */
async function openFrom(page: Page, name: string): Promise<Page> {
  const row = page.locator('tr', { hasText: name });
  const [viewer] = await Promise.all([
    browser.ctx.waitForEvent('page'),
    row
      .getByRole('button', { name: `Open ${name}` })
      .or(row.getByRole('link', { name: `Open ${name}` }))
      .click(),
  ]);
  await viewer.locator('#save').waitFor({ timeout: 30_000 });
  return viewer;
}

it('after a whole session, keys are only in the upload history database and plaintext is nowhere', async () => {
  const marker = `HUSHDROP-PLAINTEXT-${randomBytes(12).toString('hex')}`;
  const content = (mode: string) => Buffer.from(`${marker} ${mode} ${randomBytes(2000).toString('hex')}`);

  const client = await uploadWith('client.txt', content('client'), async () => {});
  const serverKeeps = await uploadWith('server-keeps.txt', content('server-keeps'), async (p) => {
    await p.getByLabel('Let the server encrypt').check();
  });
  const serverLink = await uploadWith('server-link.txt', content('server-link'), async (p) => {
    await p.getByLabel('Let the server encrypt').check();
    await p.getByLabel(/Server keeps the key/).uncheck();
  });
  const plain = await uploadWith('plain.txt', content('none'), async (p) => {
    await p.getByLabel('No encryption').check();
  });
  expect(plain).not.toContain('#');

  // Open from the uploads page, save the decrypted file, and leave the viewer open a while.
  const uploads = await browser.open('uploads.html');
  await uploads.locator('tbody tr').nth(3).waitFor();
  const fromList = await openFrom(uploads, 'client.txt');
  const [download] = await Promise.all([fromList.waitForEvent('download'), fromList.click('#save')]);
  expect(readFileSync((await download.path())!).toString()).toContain(marker);

  // A link pasted into the viewer: its field holds the key while the tab is open.
  const pastedInViewer = await openInViewer(browser, client);
  await pastedInViewer.locator('#save').waitFor({ timeout: 30_000 });

  // Open from the popup (as a tab), the server-made key this time.
  const lastOpened = Date.now();
  const popup = await browser.open('popup.html');
  await popup.locator('h2#recent-h').waitFor();
  const fromPopup = await openFrom(popup, 'server-link.txt');

  // A background upload from the popup ends with a notification and a copied link.
  await popup.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'pasted.txt', { type: 'text/plain' }));
    document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
  }, content('popup').toString());
  const job = popup.locator('.job[data-state="done"]', { hasText: 'pasted.txt' }).locator('.job-link');
  await job.waitFor({ state: 'attached', timeout: 30_000 });
  const pasted = await job.inputValue();
  await expect
    .poll(async () => Object.keys(await browser.sw.evaluate(() => chrome.notifications.getAll())).length)
    .toBeGreaterThan(0);

  // Export the history (the file goes to the downloads folder, outside the profile).
  const [exported] = await Promise.all([uploads.waitForEvent('download'), uploads.click('#export')]);
  expect(readFileSync((await exported.path())!).toString()).toContain(client.split('#')[1]);

  // Session restore writes open tabs and their fields a few seconds after they change: let it.
  await sessionSaved(lastOpened);
  const closing = Date.now();
  await fromList.close();
  await fromPopup.close();
  await pastedInViewer.close();
  // The decrypted copies go once their viewer tabs are gone.
  await expect.poll(() => opfsNames(uploads), { timeout: 20_000 }).toEqual([]);
  await sessionSaved(closing);
  await popup.close();
  await uploads.close();

  const extId = browser.extId;
  await browser.close({ keepProfile: true });

  const keys = [client, serverLink, pasted].map((l) => l.split('#')[1]!);
  expect(keys.every((k) => /^[A-Za-z0-9]{32}$/.test(k))).toBe(true);
  expect(serverKeeps).toBeTruthy();
  const historyStore = join('Default', 'IndexedDB', `chrome-extension_${extId}_0.indexeddb.leveldb`);
  const keyHits = whereFound(keys).filter((hit) => !hit.startsWith(historyStore));
  expect(keyHits, `keys found outside ${historyStore}`).toEqual([]);
  // The history store does hold them (the search would find a key written there).
  expect(whereFound(keys).some((hit) => hit.startsWith(historyStore))).toBe(true);
  expect(whereFound([marker]), 'plaintext found in the profile').toEqual([]);
  // The search saw what the browser keeps: session restore wrote the open tabs, and History the pages visited.
  const kept = whereFound([`${extId}/viewer.html?entry=`]);
  expect(kept.some((hit) => hit.startsWith(join('Default', 'Sessions')))).toBe(true);
  expect(kept.some((hit) => hit.startsWith(join('Default', 'History')))).toBe(true);
});
