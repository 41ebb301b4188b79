// Stored XSS: uploads whose bytes are HTML or SVG with script, opened in a real browser (Debian's Chromium,
// no extension) every way a page can open them: as the page, in an iframe, an object, an embed, an image.
// No script of theirs may run. The same files served the naive way (their own type, inline, no nosniff, no
// CSP: what the server did before) do run, so the probe is proven to fire when it can.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CSP } from '../../server/api/downloads';
import {
  bytesOf,
  currentUploadUrl,
  form,
  legacyUploadUrl,
  post,
  startTestServer,
  type TestServer,
} from './test-helpers';

let t: TestServer;
let browser: Browser;
let canary: Server;
let canaryUrl: string;
/** Paths the canary was asked for, in order, and who waits for which. */
const hits: string[] = [];
const waiting = new Map<string, () => void>();

function payloads(callback: string) {
  const probe = (tag: string) =>
    `fetch('${callback}/${tag}',{mode:'no-cors'});fetch('/probe-${tag}');document.title='ran-${tag}';`;
  return {
    html: `<!doctype html><html><body><h1>hi</h1><script>${probe('html-script')}</script><img src="nope" onerror="${probe('html-onerror')}"></body></html>`,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>${probe('svg-script')}</script><rect width="10" height="10"/></svg>`,
  };
}

beforeAll(async () => {
  canary = createServer((req, res) => {
    const path = req.url ?? '';
    hits.push(path);
    waiting.get(path)?.();
    // The control: the payloads served as a naive server would (their type, inline, nothing else).
    const p = payloads(canaryUrl);
    if (path === '/naive.html') return res.writeHead(200, { 'Content-Type': 'text/html' }).end(p.html);
    if (path === '/naive.svg') return res.writeHead(200, { 'Content-Type': 'image/svg+xml' }).end(p.svg);
    if (path.startsWith('/frame')) {
      const target = decodeURIComponent(path.split('?u=')[1] ?? '');
      return res
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end(
          `<!doctype html><iframe src="${target}"></iframe><object data="${target}"></object>` +
            `<embed src="${target}"><img src="${target}">`,
        );
    }
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
  t = await startTestServer({ record: true });
  browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await new Promise((resolve) => canary?.close(resolve));
});

/** Opens `url` as a page (a download counts as opened: nothing was rendered) and waits for it to load. */
async function open(page: Page, url: string): Promise<'rendered' | 'download'> {
  const download = page.waitForEvent('download').then(() => 'download' as const);
  const rendered = page
    .goto(url, { waitUntil: 'load' })
    .then(() => 'rendered' as const)
    .catch((err: Error) => {
      if (/Download is starting|net::ERR_ABORTED/.test(err.message)) return download;
      throw err;
    });
  return Promise.race([rendered, download]);
}

const upload = async (
  kind: 'legacy' | 'current',
  fields: Record<string, string>,
  bytes: Uint8Array<ArrayBuffer>,
  name: string,
) =>
  (
    await post(
      kind === 'legacy' ? legacyUploadUrl(t.server) : currentUploadUrl(t.server),
      form({ ...fields, file: { bytes, name } }),
    )
  ).json.result as { url: string; fileName: string };

describe('HTML and SVG uploads', () => {
  it('never run script, however they are opened', async () => {
    const p = payloads(canaryUrl);
    const made: [string, { url: string }][] = [
      [
        'html',
        await upload('current', { encrypt: 'false', contentType: 'text/html' }, bytesOf(p.html), 'page.html'),
      ],
      [
        'svg (legacy link)',
        await upload('legacy', { encrypt: 'false', contentType: 'image/svg+xml' }, bytesOf(p.svg), 'pic.svg'),
      ],
      // Kept key: the server decrypts on the way out, so the browser gets the HTML itself.
      [
        'html, key kept',
        await upload('current', { encrypt: 'true', contentType: 'text/html' }, bytesOf(p.html), 'kept.html'),
      ],
      [
        'svg typed as html',
        await upload(
          'current',
          { encrypt: 'false', contentType: 'text/html; charset=utf-8' },
          bytesOf(p.svg),
          'x',
        ),
      ],
      // Types a browser only displays, with HTML inside: shown as text, or as a broken image.
      [
        'html typed as text',
        await upload('current', { encrypt: 'false', contentType: 'text/plain' }, bytesOf(p.html), 'text.txt'),
      ],
      [
        'html typed as png',
        await upload('current', { encrypt: 'false', contentType: 'image/png' }, bytesOf(p.html), 'fake.png'),
      ],
    ];
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    const outcomes: string[] = [];
    for (const [label, { url }] of made) {
      const res = await fetch(url);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe(UPLOAD_CSP);
      const outcome = await open(page, url);
      outcomes.push(`${label}: ${outcome}`);
      if (outcome === 'rendered') expect(await page.title()).not.toMatch(/^ran-/);
      // Embedded in another site's page every way HTML can embed it.
      await open(page, `${canaryUrl}/frame?u=${encodeURIComponent(url)}`);
      await page.goto('about:blank');
    }
    expect(outcomes).toEqual([
      'html: download',
      'svg (legacy link): download',
      'html, key kept: download',
      'svg typed as html: download',
      'html typed as text: rendered',
      'html typed as png: rendered',
    ]);
    const beforeControl = hits.length;

    // The control: the same bytes served naively run at once, and call back.
    const htmlRan = new Promise<void>((resolve) => waiting.set('/html-script', resolve));
    await open(page, `${canaryUrl}/naive.html`);
    await htmlRan;
    expect(await page.title()).toMatch(/^ran-html-/);
    const svgRan = new Promise<void>((resolve) => waiting.set('/svg-script', resolve));
    await open(page, `${canaryUrl}/naive.svg`);
    await svgRan;
    await context.close();

    // Before the control, the canary heard no probe; the Hushdrop server never heard one at all.
    const isProbe = (path: string) => /script|onerror/.test(path);
    expect(hits.slice(0, beforeControl).filter(isProbe)).toEqual([]);
    expect(hits.slice(beforeControl).filter(isProbe)).toContain('/html-onerror');
    expect(t.server.requests.filter((r) => r.url.includes('probe'))).toEqual([]);
  });
});
