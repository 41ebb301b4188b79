// Forged messages: code running with a content script's identity (what a compromised page
// renderer can do) or in one of our pages that is not the legitimate sender, sending each internal
// message of the extension. Each must have no effect. A message is forged with
// chrome.scripting.executeScript into the ISOLATED world of a loopback page: that code runs as our
// content script does, so the browser reports the sender as the page's tab and URL.
// Chromium only: the forgeries run through chrome.scripting in a page's ISOLATED world and through
// runtime.getContexts, from the service worker; the sender checks are the same code in Firefox.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findInRecorded, startTestServer, type TestServer } from '../../testkit/server';
import { type Attacker, startAttacker } from '../support/attacker';
import { type Site, startSite } from '../support/site';
import { type ExtensionBrowser, launchExtension, serverSettings } from './harness';

declare const chrome: any;

let browser: ExtensionBrowser;
let ref: TestServer;
let site: Site;
let attacker: Attacker;
/** A page of the loopback site, whose isolated world the forgeries run in. */
let sitePage: Page;
/** A file on the reference server, as a loopback URL a page might want fetched. */
let storedFile: string;

interface Forged {
  response?: unknown;
  error?: string;
}

/** A message in the shape our messaging library sends. */
const message = (type: string, data: unknown) => ({ id: 1, type, data, timestamp: Date.now() });

/** Sends a message from the content-script world of the loopback page. */
function fromContentScript(type: string, data: unknown): Promise<Forged> {
  return browser.sw.evaluate(
    async ({ url, msg }) => {
      const [tab] = await chrome.tabs.query({ url });
      const [injection] = await chrome.scripting.executeScript({
        target: { tabId: tab.id },
        world: 'ISOLATED',
        func: (m: unknown) =>
          new Promise((resolve) =>
            chrome.runtime.sendMessage(m, (response: unknown) =>
              resolve({ response, error: chrome.runtime.lastError?.message }),
            ),
          ),
        args: [msg],
      });
      return injection.result;
    },
    { url: `${site.origin}/`, msg: message(type, data) },
  );
}

/** Sends a message from one of our own pages (not the background). */
function fromExtensionPage(page: Page, type: string, data: unknown): Promise<Forged> {
  return page.evaluate(
    (msg) =>
      new Promise<Forged>((resolve) =>
        chrome.runtime.sendMessage(msg, (response: unknown) =>
          resolve({ response, error: chrome.runtime.lastError?.message }),
        ),
      ),
    message(type, data),
  );
}

/**
 * An upload the legitimate way, to the end: a file pasted into the popup goes popup → startUpload →
 * background → runJob → offscreen document → jobUpdate → background → copyText. Every message of
 * the chain was accepted from its real sender.
 */
async function legitimateUpload(): Promise<string> {
  const name = `sentinel-${randomBytes(4).toString('hex')}.txt`;
  const popup = await browser.open('popup.html');
  try {
    await popup.evaluate((n) => {
      const dt = new DataTransfer();
      dt.items.add(new File([`legitimate ${n}`], n, { type: 'text/plain' }));
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
    }, name);
    const field = popup.locator('.job[data-state="done"]', { hasText: name }).locator('.job-link');
    await field.waitFor({ state: 'attached', timeout: 30_000 });
    const link = await field.inputValue();
    // The background copies the link once the job is done; wait for it so that it cannot land later.
    await vi.waitFor(async () => expect(await readClipboard()).toBe(link), {
      timeout: 15_000,
      interval: 100,
    });
    return link;
  } finally {
    await popup.close();
  }
}

async function readClipboard(): Promise<string> {
  await sitePage.bringToFront();
  return sitePage.evaluate(() => navigator.clipboard.readText());
}
async function writeClipboard(text: string): Promise<void> {
  await sitePage.bringToFront();
  await sitePage.evaluate((t) => navigator.clipboard.writeText(t), text);
}

const jobs = async (): Promise<any[]> =>
  Object.values((await browser.sw.evaluate(() => chrome.storage.session.get('jobs'))).jobs ?? {});
const notifications = (): Promise<Record<string, unknown>> =>
  browser.sw.evaluate(() => chrome.notifications.getAll());
const profile = async (): Promise<any> =>
  (await browser.sw.evaluate(() => chrome.storage.local.get('settings'))).settings.profiles[0];

/** What runJob asks: fetch a loopback URL, then upload it to a server of the sender's choosing. */
function stealJob(jobId: string) {
  const server = {
    variant: 'current',
    baseUrl: attacker.origin,
    apiUrl: attacker.origin,
    uploadUrl: attacker.origin,
    username: '',
    token: '',
  };
  const defaults = {
    mode: 'none',
    saveKey: false,
    genDeletionKey: false,
    expireUnit: 'never',
    expireLength: 1,
    doNotTrack: false,
  };
  return {
    jobId,
    source: { kind: 'url', url: storedFile },
    profile: { id: 'attacker', name: 'Attacker', server, defaults },
    variant: 'current',
    options: defaults,
  };
}

/** A job's state as the offscreen document reports it, claiming a learned size limit or a link. */
function fakeState(id: string, patch: Record<string, unknown>) {
  return {
    id,
    name: `${id}.txt`,
    profileId: 'test',
    done: 0,
    total: 0,
    startedAt: Date.now(),
    ...patch,
  };
}

/** The reference server's GETs of the stored file: a forged runJob would fetch it. */
const fetchesOfStoredFile = () =>
  ref.server.requests.filter((r) => r.method === 'GET' && r.url === new URL(storedFile).pathname).length;

beforeAll(async () => {
  ref = await startTestServer({ record: true });
  site = await startSite(randomBytes(1000));
  attacker = await startAttacker();
  browser = await launchExtension();
  await browser.ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
  await browser.setSettings(serverSettings(ref.server, 'current'));
  sitePage = await browser.ctx.newPage();
  await sitePage.goto(`${site.origin}/`);
  // A real upload first: it leaves the offscreen document running, which a forged runJob or
  // copyText would reach, and a file on the reference server that a forged job could fetch.
  const link = await legitimateUpload();
  storedFile = link.split('#')[0]!;
  const offscreen = await browser.sw.evaluate(() =>
    chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] }),
  );
  expect(offscreen).toHaveLength(1);
  expect(fetchesOfStoredFile()).toBe(0);
});

afterAll(async () => {
  await browser?.close();
  await ref?.stop();
  await site?.close();
  await attacker?.close();
});

describe('from a web page (a content script’s identity)', () => {
  it('runJob does not make the offscreen document fetch a loopback file or post it anywhere', async () => {
    const forged = await fromContentScript('runJob', stealJob('forged-run'));
    // A job started the legitimate way after it runs to its end in the same offscreen document.
    await legitimateUpload();
    expect(attacker.seen).toEqual([]);
    expect(fetchesOfStoredFile()).toBe(0);
    // It did reach the offscreen document (the only context listening for runJob).
    expect(forged.response).toBeDefined();
  });

  it('jobUpdate sets no size limit, shows no notification, copies nothing, lists no job', async () => {
    const marker = `clipboard before ${randomBytes(4).toString('hex')}`;
    await writeClipboard(marker);
    const before = await profile();
    await fromContentScript(
      'jobUpdate',
      fakeState('forged-failed', {
        state: 'failed',
        error: 'Forged failure',
        learnedSizeLimit: 1234,
      }),
    );
    await fromContentScript(
      'jobUpdate',
      fakeState('forged-done', { state: 'done', link: `${attacker.origin}/x#forged` }),
    );
    expect(await profile()).toEqual(before);
    expect((await profile()).sizeLimit).toBeUndefined();
    expect(Object.keys(await notifications()).filter((id) => id.includes('forged'))).toEqual([]);
    expect(await readClipboard()).toBe(marker);
    expect((await jobs()).filter((j) => String(j.id).startsWith('forged'))).toEqual([]);
  });

  it('copyText leaves the clipboard alone', async () => {
    const marker = `clipboard before ${randomBytes(4).toString('hex')}`;
    await writeClipboard(marker);
    await fromContentScript('copyText', 'forged clipboard text');
    expect(await readClipboard()).toBe(marker);
  });

  it('startUpload uploads nothing', async () => {
    const name = `forged-upload-${randomBytes(4).toString('hex')}.txt`;
    await fromContentScript('startUpload', { source: { kind: 'text', text: 'forged', name } });
    expect((await jobs()).filter((j) => j.name === name)).toEqual([]);
    await legitimateUpload();
    expect(findInRecorded(ref.server, new TextEncoder().encode(name))).toEqual([]);
    expect((await jobs()).filter((j) => j.name === name)).toEqual([]);
  });
});

describe('from one of our pages that is not the legitimate sender', () => {
  it('runJob, copyText and jobUpdate from the popup page have no effect', async () => {
    const popup = await browser.open('popup.html');
    expect((await fromExtensionPage(popup, 'runJob', stealJob('forged-popup-run'))).response).toBeDefined();
    await legitimateUpload();
    expect(attacker.seen).toEqual([]);
    expect(fetchesOfStoredFile()).toBe(0);

    const marker = `clipboard before ${randomBytes(4).toString('hex')}`;
    await writeClipboard(marker);
    await fromExtensionPage(popup, 'copyText', 'forged clipboard text');
    const before = await profile();
    await fromExtensionPage(
      popup,
      'jobUpdate',
      fakeState('forged-popup', { state: 'failed', error: 'Forged', learnedSizeLimit: 99 }),
    );
    expect(await readClipboard()).toBe(marker);
    expect(await profile()).toEqual(before);
    expect(Object.keys(await notifications()).filter((id) => id.includes('forged'))).toEqual([]);
    await popup.close();
  });
});
