// What a content script can reach of the extension's storage (issue 33): the resume records, an upload's
// key among them, live in storage.session, which the browser keeps from content scripts unless the
// extension opens it (setAccessLevel). Content scripts run inside every page the person visits, so one
// subverted by a hostile page must find no key there. The check runs code in the content script's own
// world of a real page (found through the DevTools protocol), and first shows that it can see what that
// world can: storage.local, and storage.session once opened to it. Chromium only: Firefox offers no way
// into a content script's world from outside.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CDPSession } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../../../devkit/wait';
import { type ExtensionBrowser, launchExtension } from './harness';

declare const chrome: any;

let browser: ExtensionBrowser;
let site: Server;
let origin: string;

beforeAll(async () => {
  site = createServer((_, res) => {
    res.setHeader('Content-Type', 'text/html');
    res.end('<!doctype html><title>a page</title><p>Nothing to pay here.</p>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await launchExtension();
});

afterAll(async () => {
  await browser?.close();
  site?.close();
});

/** Runs `expression` (an async function's source) in the extension's content script world of a fresh page. */
async function inContentScript(): Promise<(expression: string) => Promise<unknown>> {
  const page = await browser.ctx.newPage();
  const cdp: CDPSession = await browser.ctx.newCDPSession(page);
  const worlds: number[] = [];
  cdp.on('Runtime.executionContextCreated', ({ context }) => {
    if (context.origin === `chrome-extension://${browser.extId}`) worlds.push(context.id);
  });
  await cdp.send('Runtime.enable');
  await page.goto(`${origin}/`);
  const contextId = await until(async () => worlds.at(-1), 'the content script’s world');
  return async (expression) => {
    const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
      expression: `(${expression})()`,
      contextId,
      awaitPromise: true,
      returnByValue: true,
    });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return result.value;
  };
}

/** What the content script gets when it reads a storage area whole: its keys, or the error. */
const readArea = (area: 'local' | 'session') => `async () => {
  try {
    return { keys: Object.keys(await chrome.storage.${area}.get(null)) };
  } catch (err) {
    return { error: String(err) };
  }
}`;

it('a content script cannot read storage.session, where the resume records and their keys live', async () => {
  await browser.sw.evaluate(async () => {
    await chrome.storage.session.set({ 'resume.probe': 'a key that must stay in trusted contexts' });
    await chrome.storage.local.set({ 'probe.local': 1 });
  });
  const run = await inContentScript();
  // The world reached is the content script's: it has the extension's id and reads storage.local.
  expect(await run('async () => chrome.runtime.id')).toBe(browser.extId);
  expect(await run(readArea('local'))).toEqual({ keys: expect.arrayContaining(['probe.local']) });

  const session = (await run(readArea('session'))) as { keys?: string[]; error?: string };
  expect(session.keys).toBeUndefined();
  expect(session.error).toMatch(/not allowed|access/i);

  // The probe would see it if the area were open to content scripts.
  await browser.sw.evaluate(() =>
    chrome.storage.session.setAccessLevel({ accessLevel: 'TRUSTED_AND_UNTRUSTED_CONTEXTS' }),
  );
  try {
    expect(await run(readArea('session'))).toEqual({ keys: expect.arrayContaining(['resume.probe']) });
  } finally {
    await browser.sw.evaluate(async () => {
      await chrome.storage.session.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' });
      await chrome.storage.session.remove('resume.probe');
      await chrome.storage.local.remove('probe.local');
    });
  }
});
