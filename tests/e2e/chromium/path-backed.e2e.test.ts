// The disk path sends its encrypted OPFS copy as a File with a path, reached through Chromium's
// deprecated FileSystem API (platform/storage/path-backed-file.ts); without that API, or when it
// fails, it sends the copy getFile() gives, as before. So does a file staged in OPFS for a
// background job (popup, right-click) when it is sent as it is (mode none). Chromium only: the API
// exists only there (Firefox always takes the fallback, which ../large.e2e.test.ts and
// ../background-jobs.e2e.test.ts cover in both browsers), and the test watches it from a script run
// in the document that sends: before the upload page's own scripts (Playwright's addInitScript), or
// in the offscreen document, which only CDP reaches.
// Its servers take no uploads in parts (noParts), as Teknik's: these are the one-request ways
// (a Hushdrop server gets an upload in parts, ../parts.e2e.test.ts).
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIB, writeRandomFile } from '../../../devkit/files';
import { decryptedHash } from '../../../devkit/links';
import { opfsNames } from '../../../devkit/opfs';
import { DEFAULT_UPLOAD } from '../../../lib/settings';
import { type ReferenceServer, startServer } from '../../testkit/server';
import { type Site, startSite } from '../support/site';
import { fileNameOf } from '../support/uploads';
import { type ExtensionBrowser, jobStates, launchExtension, rightClickText, serverSettings } from './harness';

declare const chrome: any;

let browser: ExtensionBrowser;
let tmp: string;
let server: ReferenceServer;
let path: string;
let original: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'hushdrop-path-backed-'));
  server = await startServer({ dataDir: join(tmp, 'server'), noParts: true });
  path = join(tmp, 'copy-12.bin');
  original = await writeRandomFile(path, 12 * MIB + 7);
  browser = await launchExtension();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** How the page treats webkitRequestFileSystem before its scripts run. */
type Api = 'as it is' | 'missing' | 'failing';

/**
 * Runs in the page before its scripts: notes every File the FileSystem API's entries give
 * ("entry.file") and, for every Blob put into a FormData, whether it is one of those. Run again in a
 * document that stays open (the offscreen document), it starts a new log over the originals.
 */
function watchBodies(api: Api): void {
  const w = window as any;
  const log: string[] = [];
  w.bodiesLog = log;
  const given = new WeakSet<Blob>();
  w.watchOriginals ??= { request: w.webkitRequestFileSystem, append: FormData.prototype.append };
  const { request, append } = w.watchOriginals;
  if (api === 'missing') delete w.webkitRequestFileSystem;
  else if (api === 'failing')
    w.webkitRequestFileSystem = (_t: number, _s: number, _ok: unknown, fail: (e: unknown) => void) =>
      setTimeout(() => fail(new DOMException('Refused for this test.', 'SecurityError')));
  else
    w.webkitRequestFileSystem = (type: number, size: number, ok: (fs: any) => void, fail: unknown) =>
      request.call(
        window,
        type,
        size,
        (fs: any) => {
          const getFile = fs.root.getFile.bind(fs.root);
          fs.root.getFile = (name: string, options: unknown, found: (e: any) => void, failed: unknown) =>
            getFile(
              name,
              options,
              (entry: any) => {
                const file = entry.file.bind(entry);
                entry.file = (give: (f: File) => void, refused: unknown) =>
                  file((f: File) => {
                    given.add(f);
                    log.push('entry.file');
                    give(f);
                  }, refused);
                found(entry);
              },
              failed,
            );
          ok(fs);
        },
        fail,
      );
  FormData.prototype.append = function (this: FormData, ...args: any[]) {
    if (args[1] instanceof Blob) log.push(given.has(args[1]) ? 'sent path-backed' : 'sent another File');
    return (append as any).apply(this, args);
  };
}

describe('the disk path in Chromium', () => {
  const cases: [Api, string[]][] = [
    ['as it is', ['entry.file', 'sent path-backed']],
    ['missing', ['sent another File']],
    ['failing', ['sent another File']],
  ];
  for (const [api, expected] of cases) {
    it(`with webkitRequestFileSystem ${api}: sends ${api === 'as it is' ? 'the path-backed File' : "getFile()'s File"}, and the copy decrypts`, async () => {
      await browser.setSettings(serverSettings(server, 'current'));
      const page = await browser.ctx.newPage();
      try {
        await page.addInitScript(watchBodies, api);
        await page.goto(browser.url('upload.html'));
        await page.setInputFiles('#file', path);
        const link = page.locator('.job[data-state="done"] input[id^="link-"]');
        await link.waitFor({ timeout: 120_000 });
        expect(await page.evaluate(() => (window as any).bodiesLog)).toEqual(expected);
        const [url, key] = (await link.inputValue()).split('#') as [string, string];
        const stored = await server.stored(new URL(url).pathname.split('/').pop()!);
        expect(await decryptedHash(await stored!.stream(), key)).toBe(original);
        await expect.poll(() => opfsNames(page), { timeout: 60_000 }).toEqual([]);
      } finally {
        await page.close();
      }
    }, 180_000);
  }
});

/**
 * The offscreen document, where background jobs run: Playwright does not show it, so this attaches
 * to it through CDP (a non-flat session, whose answers arrive as events) and evaluates there.
 */
async function attachOffscreen(cdp: CDPSession): Promise<(expression: string) => Promise<unknown>> {
  const { targetInfos } = await cdp.send('Target.getTargets');
  const offscreen = targetInfos.find((t) => t.url.endsWith('/offscreen.html'));
  if (!offscreen) throw new Error('No offscreen document is open.');
  const { sessionId } = await cdp.send('Target.attachToTarget', {
    targetId: offscreen.targetId,
    flatten: false,
  });
  const waiting = new Map<number, (answer: any) => void>();
  cdp.on('Target.receivedMessageFromTarget', (event) => {
    if (event.sessionId !== sessionId) return;
    const answer = JSON.parse(event.message);
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  let next = 0;
  return async (expression) => {
    const id = ++next;
    const answered = new Promise<any>((done) => waiting.set(id, done));
    const params = { expression, awaitPromise: true, returnByValue: true };
    await cdp.send('Target.sendMessageToTarget', {
      sessionId,
      message: JSON.stringify({ id, method: 'Runtime.evaluate', params }),
    });
    const { result, error } = await answered;
    if (error || result.exceptionDetails) throw new Error(JSON.stringify(error ?? result.exceptionDetails));
    return result.result.value;
  };
}

/** The job the background stores after `start` that was not there before, once it has ended. */
async function endedNewJob(start: () => Promise<unknown>): Promise<any> {
  const before = new Set((await jobStates(browser)).map((j) => j.id));
  await start();
  const find = async () => (await jobStates(browser)).find((j) => !before.has(j.id));
  await expect.poll(async () => (await find())?.state, { timeout: 120_000 }).toMatch(/done|failed|cancelled/);
  return find();
}

/** A file given to the popup (pasted, as the Chromium driver does): staged in OPFS for the job. */
async function giveToPopup(name: string, type: string, bytes: Buffer): Promise<void> {
  const popup = await browser.open('popup.html');
  try {
    await popup.locator('.drop').waitFor();
    await popup.evaluate(
      ({ name, type, base64 }) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], name, { type }));
        document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
      },
      { name, type, base64: bytes.toString('base64') },
    );
    // The popup hands the file over, then asks the background to start the job: it stays open until then.
    await expect.poll(async () => (await jobStates(browser)).some((j) => j.name === name)).toBe(true);
  } finally {
    await popup.close();
  }
}

describe('a staged file sent as it is (mode none), from the offscreen document', () => {
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const content = randomBytes(2 * MIB + 7);
  let site: Site;
  let cdp: CDPSession;
  let helper: Awaited<ReturnType<ExtensionBrowser['open']>>;
  let inOffscreen: ((expression: string) => Promise<unknown>) | undefined;

  /** The first job opens the offscreen document (a right-click on text); the cases are watched inside it. */
  async function offscreen(expression: string): Promise<unknown> {
    if (!inOffscreen) {
      expect((await rightClickText(browser, 'opens the offscreen document')).state).toBe('done');
      inOffscreen = await attachOffscreen(cdp);
    }
    return inOffscreen(expression);
  }

  beforeAll(async () => {
    site = await startSite(content);
    helper = await browser.open('popup.html');
    cdp = await browser.ctx.newCDPSession(helper);
  });

  afterAll(async () => {
    await cdp?.detach().catch(() => {});
    await helper?.close();
    await site?.close();
  });

  const fromPopup = (name: string, type: string) => () => giveToPopup(name, type, content);
  /** A right-click on a link to the file: the offscreen document fetches it into a staged scratch file. */
  const fromLink = () =>
    browser.sw.evaluate(
      (origin) =>
        chrome.contextMenus.onClicked.dispatch(
          {
            menuItemId: 'hushdrop-upload-link',
            linkUrl: `${origin}/cat.png`,
            pageUrl: `${origin}/`,
            editable: false,
            frameId: 0,
          },
          { id: -1, windowId: -1 },
        ),
      site.origin,
    );
  const pathBacked = ['entry.file', 'sent path-backed'];
  const fallback = ['sent another File'];
  const typed = 'application/x-hushdrop-test';
  interface Case {
    api: Api;
    what: string;
    start: () => Promise<unknown>;
    name: string;
    /** The type the server stores and serves. */
    type: string;
    sent: string[];
    /** The server encrypts (and keeps the key), rather than nobody. */
    serverMode?: true;
    /** The server's API, when not the current one. */
    legacy?: true;
  }
  const popupCase = (api: Api, name: string, type: string, sent: string[]): Case => ({
    api,
    what: `a popup file (${name})`,
    start: fromPopup(name, type),
    name,
    type: type || 'application/octet-stream',
    sent,
  });
  const cases: Case[] = [
    popupCase('as it is', 'staged.dat', typed, pathBacked),
    // No contentType field goes then: the server takes the part's type, which is not the scratch file's.
    popupCase('as it is', 'untyped.dat', '', pathBacked),
    {
      api: 'as it is',
      what: 'a right-clicked link',
      start: fromLink,
      name: 'cat.png',
      type: 'image/png',
      sent: pathBacked,
    },
    {
      ...popupCase('as it is', 'server.dat', typed, pathBacked),
      what: 'a popup file the server encrypts',
      serverMode: true,
    },
    {
      ...popupCase('as it is', 'legacy.dat', typed, pathBacked),
      what: 'a popup file to the legacy API',
      legacy: true,
    },
    popupCase('missing', 'missing.dat', typed, fallback),
    popupCase('failing', 'failing.dat', typed, fallback),
  ];
  for (const { api, what, start, name, type, sent, serverMode, legacy } of cases) {
    it(`with webkitRequestFileSystem ${api}: ${what} goes as ${api === 'as it is' ? 'the path-backed File' : "getFile()'s File"}; the server has its bytes, name and type`, async () => {
      const mode = serverMode ? 'server' : 'none';
      await browser.setSettings(
        serverSettings(server, legacy ? 'legacy' : 'current', { defaults: { ...DEFAULT_UPLOAD, mode } }),
      );
      await offscreen(`(${watchBodies})(${JSON.stringify(api)})`);
      const job = await endedNewJob(start);
      expect(job.state, job.error).toBe('done');
      expect(job.name).toBe(name);
      expect(await offscreen('window.bodiesLog')).toEqual(sent);
      // No key in the link: none was used, or the server keeps it and decrypts as it serves.
      expect(job.link).not.toContain('#');
      const stored = (await server.stored(fileNameOf(job.link)))!;
      expect(stored).toMatchObject({ originalName: name, contentType: type, encrypted: !!serverMode });
      expect(fileNameOf(job.link).endsWith(name.slice(name.lastIndexOf('.')))).toBe(true);
      if (!serverMode) expect(sha256(await stored.bytes())).toBe(sha256(content));
      const served = await fetch(job.link);
      expect(served.headers.get('content-type')).toBe(type);
      expect(sha256(Buffer.from(await served.arrayBuffer()))).toBe(sha256(content));
      await expect.poll(() => opfsNames(helper), { timeout: 60_000 }).toEqual([]);
    }, 180_000);
  }
});
