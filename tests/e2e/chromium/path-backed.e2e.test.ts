// The disk path sends its encrypted OPFS copy as a File with a path, reached through Chromium's
// deprecated FileSystem API (platform/storage/path-backed-file.ts); without that API, or when it
// fails, it sends the copy getFile() gives, as before. Chromium only: the API exists only there
// (Firefox always takes the fallback, which ../large.e2e.test.ts covers in both browsers), and the
// test watches it from a script run before the page's own (Playwright's addInitScript).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIB, writeRandomFile } from '../../testkit/files';
import { decryptedHash } from '../../testkit/links';
import { opfsNames } from '../../testkit/opfs';
import { type ReferenceServer, startServer } from '../../testkit/server';
import { type ExtensionBrowser, launchExtension, serverSettings } from './harness';

let browser: ExtensionBrowser;
let tmp: string;
let server: ReferenceServer;
let path: string;
let original: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'hushdrop-path-backed-'));
  server = await startServer({ dataDir: join(tmp, 'server') });
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
 * ("entry.file") and, for every Blob put into a FormData, whether it is one of those.
 */
function watchBodies(api: Api): void {
  const w = window as any;
  const log: string[] = [];
  w.bodiesLog = log;
  const given = new WeakSet<Blob>();
  const request = w.webkitRequestFileSystem;
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
  const append = FormData.prototype.append;
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
