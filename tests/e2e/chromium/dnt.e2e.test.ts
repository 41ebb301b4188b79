// Do-not-track on the wire: the reference servers record every request's headers, and the
// extension's declarativeNetRequest rules must put `DNT: 1` on its own requests to a server
// whose profile asks for it, and on nothing else.
// Chromium only: it reads the declarativeNetRequest session rules in the service worker and restarts
// the browser on the same profile (a Chromium launch option). Firefox's DNT header on the wire is
// checked in the shared upload scenarios (../upload-page.e2e.test.ts).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest, ReferenceServer } from '../../testkit/server';
import { startTestServer, type TestServer } from '../../testkit/server';
import { type Site, startSite } from '../support/site';
import {
  type ExtensionBrowser,
  launchExtension,
  rightClickText,
  serverSettings,
  uploadThroughPage,
} from './harness';

declare const chrome: any;

let browser: ExtensionBrowser;
let ref: TestServer;
let other: TestServer;
let site: Site;

beforeAll(async () => {
  ref = await startTestServer({ record: true });
  other = await startTestServer({ record: true });
  site = await startSite(Buffer.alloc(0));
  browser = await launchExtension();
});

afterAll(async () => {
  await browser?.close();
  await ref?.stop();
  await other?.stop();
  await site?.close();
});

function settingsFor(server: ReferenceServer, variant: 'legacy' | 'current', doNotTrack: boolean) {
  const s = serverSettings(server, variant);
  s.profiles[0]!.defaults.doNotTrack = doNotTrack;
  return s;
}

/** The urlFilters of the extension's session rules that set DNT. */
async function dntFilters(b: ExtensionBrowser): Promise<string[]> {
  const rules = await b.sw.evaluate(() => chrome.declarativeNetRequest.getSessionRules());
  return rules
    .filter((r: any) => r.action.requestHeaders?.some((h: any) => h.header === 'DNT'))
    .map((r: any) => r.condition.urlFilter)
    .sort();
}

/** Writes the settings, then waits until the background has turned them into rules. */
async function useSettings(b: ExtensionBrowser, settings: ReturnType<typeof settingsFor>, filters: string[]) {
  await b.setSettings(settings);
  await expect.poll(() => dntFilters(b)).toEqual(filters);
}

const nameOf = (link: string) => new URL(link.split('#')[0]!).pathname.split('/').pop()!;
const dntOf = (r: RecordedRequest | undefined) => r?.headers.dnt;

/** The one request a server recorded whose URL contains `marker`. */
function recorded(server: ReferenceServer, marker: string): RecordedRequest | undefined {
  const hits = server.requests.filter((r) => r.url.includes(marker));
  expect(hits, `requests to ${marker}`).toHaveLength(1);
  return hits[0];
}

describe('DNT: 1 on the upload, both variants', () => {
  for (const variant of ['current', 'legacy'] as const) {
    it(`${variant}: sent with do-not-track on, not with it off`, async () => {
      await useSettings(browser, settingsFor(ref.server, variant, true), [`|${ref.server.baseUrl}/`]);
      const on = await uploadThroughPage(browser, {
        name: `dnt-on-${variant}.bin`,
        mimeType: 'application/octet-stream',
        buffer: randomBytes(2000),
      });
      expect(await ref.server.stored(nameOf(on))).toMatchObject({ dntHeader: true, variant });
      if (variant === 'current') expect((await ref.server.stored(nameOf(on)))!.doNotTrack).toBe(true);

      await useSettings(browser, settingsFor(ref.server, variant, false), []);
      const off = await uploadThroughPage(browser, {
        name: `dnt-off-${variant}.bin`,
        mimeType: 'application/octet-stream',
        buffer: randomBytes(2000),
      });
      expect(await ref.server.stored(nameOf(off))).toMatchObject({ dntHeader: false, doNotTrack: false });
    });
  }

  it('sent by a right-click upload too (the offscreen document)', async () => {
    await useSettings(browser, settingsFor(ref.server, 'current', true), [`|${ref.server.baseUrl}/`]);
    const job = await rightClickText(browser, 'tracked? no');
    expect(job.state, job.error).toBe('done');
    expect(await ref.server.stored(nameOf(job.link))).toMatchObject({ dntHeader: true, doNotTrack: true });
  });
});

describe('never on other requests', () => {
  it('a normal tab: neither its page on another origin, nor that page’s request to the server, nor a navigation to it', async () => {
    await useSettings(browser, settingsFor(ref.server, 'current', true), [`|${ref.server.baseUrl}/`]);
    const link = await uploadThroughPage(browser, {
      name: 'seen-by-a-page.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('plain'),
    });
    const fileUrl = link.split('#')[0]!;

    const tab = await browser.ctx.newPage();
    await tab.goto(`${other.server.baseUrl}/?marker=tab-page`);
    // The server's own pages forbid their scripts any request (CSP default-src 'none'), so the
    // cross-origin fetch is made from a plain site's page. The recipient page may not be read by
    // another origin (Cross-Origin-Resource-Policy), so the fetch may fail: the request is made all the same.
    await tab.goto(`${site.origin}/`);
    await tab.evaluate(
      (url) =>
        fetch(url, { mode: 'no-cors' }).then(
          () => undefined,
          () => undefined,
        ),
      `${fileUrl}?marker=page-fetch`,
    );
    // The stored ciphertext may sniff as binary, and Chromium then downloads it instead of showing
    // it: the request was made either way, which is all this looks at.
    await tab.goto(`${fileUrl}?marker=tab-navigation`).catch((err: Error) => {
      if (!/Download is starting/.test(err.message)) throw err;
    });
    await tab.close();

    expect(dntOf(recorded(other.server, 'marker=tab-page'))).toBeUndefined();
    expect(dntOf(recorded(ref.server, 'marker=page-fetch'))).toBeUndefined();
    expect(dntOf(recorded(ref.server, 'marker=tab-navigation'))).toBeUndefined();
  });

  it('the extension’s own requests to another origin or host: only the server’s gets it', async () => {
    await useSettings(browser, settingsFor(ref.server, 'current', true), [`|${ref.server.baseUrl}/`]);
    const page = await browser.open('upload.html');
    const sameHostOtherPort = `${other.server.baseUrl}/?marker=ext-other-port`;
    const otherHostSamePort = `${ref.server.baseUrl.replace('127.0.0.1', 'localhost')}/?marker=ext-localhost`;
    const server = `${ref.server.baseUrl}/?marker=ext-server`;
    for (const url of [sameHostOtherPort, otherHostSamePort, server])
      await page.evaluate((u) => fetch(u).then((r) => r.text()), url);
    await page.close();

    expect(dntOf(recorded(other.server, 'marker=ext-other-port'))).toBeUndefined();
    expect(dntOf(recorded(ref.server, 'marker=ext-localhost'))).toBeUndefined();
    expect(dntOf(recorded(ref.server, 'marker=ext-server'))).toBe('1');
  });
});

describe('the rules follow the settings', () => {
  it('one rule per origin of every profile that asks, none for a profile that does not', async () => {
    const second = serverSettings(other.server, 'current').profiles[0]!;
    const settings = settingsFor(ref.server, 'current', true);
    settings.profiles.push({ ...second, id: 'second', name: 'Second', defaults: { ...second.defaults } });
    await useSettings(browser, settings, [`|${other.server.baseUrl}/`, `|${ref.server.baseUrl}/`].sort());
    settings.profiles[1]!.defaults.doNotTrack = false;
    await useSettings(browser, settings, [`|${ref.server.baseUrl}/`]);
    settings.profiles.splice(0, 1);
    settings.activeProfileId = 'second';
    await useSettings(browser, settings, []);
  });

  it('are set again after the browser restarts (session rules do not survive it)', async () => {
    const profileDir = mkdtempSync(join(tmpdir(), 'hushdrop-e2e-restart-'));
    let restarted: ExtensionBrowser | undefined;
    try {
      const first = await launchExtension({ profileDir });
      await useSettings(first, settingsFor(ref.server, 'legacy', true), [`|${ref.server.baseUrl}/`]);
      await first.close({ keepProfile: true });

      restarted = await launchExtension({ profileDir });
      await expect.poll(() => dntFilters(restarted!)).toEqual([`|${ref.server.baseUrl}/`]);
      const link = await uploadThroughPage(restarted, {
        name: 'after-restart.bin',
        mimeType: 'application/octet-stream',
        buffer: randomBytes(1000),
      });
      expect(await ref.server.stored(nameOf(link))).toMatchObject({ dntHeader: true, variant: 'legacy' });
    } finally {
      await restarted?.close();
      rmSync(profileDir, { recursive: true, force: true });
    }
  });
});

describe('the Firefox build', () => {
  // Firefox extension pages cannot be driven from these tests yet; the mechanism is the same
  // declarativeNetRequest code, so the build must carry its permission and the host access it needs.
  it('asks for declarativeNetRequestWithHostAccess (MV2 has it since Firefox 113) and loopback access', () => {
    const manifest = JSON.parse(readFileSync('.output/firefox-mv2/manifest.json', 'utf8'));
    expect(manifest.manifest_version).toBe(2);
    expect(manifest.permissions).toEqual(
      expect.arrayContaining([
        'declarativeNetRequestWithHostAccess',
        'http://127.0.0.1/*',
        'http://localhost/*',
      ]),
    );
    expect(manifest.permissions).not.toContain('webRequestBlocking');
    expect(manifest.permissions).not.toContain('declarativeNetRequest');
  });
});
