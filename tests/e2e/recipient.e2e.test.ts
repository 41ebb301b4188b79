// Links that open for anyone: files uploaded by the real extension in client mode (both API
// variants, and the authenticated #ece1. format) are opened where Hushdrop is not installed, in a
// plain Chromium, Firefox and WebKit, through the recipient page and the browser's own download.
// The saved file must equal the original, its download carries its size (Content-Length), and no
// request the server received may hold the key. An authenticated upload with one byte flipped on
// the server's disk is refused with a sentence, and the browser's download folder is left as it
// was: no file, not even a partial one (not so in WebKit: see that case). (The phone-sized Chromium and a
// Chromium that blocks service workers are in chromium/recipient-chromium.e2e.test.ts.)
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverSettings } from '../../devkit/settings';
import { until } from '../../devkit/wait';
import { DEFAULT_UPLOAD } from '../../lib/settings';
import { RECIPIENT_DATA_ID } from '../../lib/upload/download-page';
import { findInRecorded } from '../testkit/server';
import type { Driver, DriverPage } from './driver/driver';
import { BROWSERS, forEachBrowser, launchDriver, SENDER } from './driver/each-browser';
import { seriousViolations } from './support/axe';
import { changeStoredByte, eceSettings, uploadEce } from './support/ece';
import { serverForFile } from './support/servers';
import { startStallFront } from './support/stall-front';
import { fileNameOf, uploadThroughPage } from './support/uploads';

interface Uploaded {
  link: string;
  original: Buffer;
  name: string;
}

const ref = serverForFile({ record: true });
const uploads = {} as Record<
  'current' | 'legacy' | `once-${string}` | `ece-${string}` | `changed-${string}`,
  Uploaded
>;
/** Where a byte of each changed file was flipped: past the first megabytes, which the browser has by then. */
const CHANGED_AT = 2 * 1024 * 1024 + 100;

beforeAll(async () => {
  // The sender: the real extension, client mode (the default), each variant.
  const sender = await launchDriver(SENDER);
  try {
    const upload = async (variant: 'current' | 'legacy', name: string, extra = {}) => {
      await sender.setSettings(serverSettings(ref.server, variant, extra));
      const original = randomBytes(3 * 1024 * 1024 + 17);
      const link = await uploadThroughPage(sender, { name, mimeType: 'application/pdf', buffer: original });
      expect(link).toMatch(/#[A-Za-z0-9]{32}$/);
      return { link, original, name };
    };
    uploads.current = await upload('current', 'Bericht März.pdf');
    uploads.legacy = await upload('legacy', 'legacy report.pdf');
    for (const browser of BROWSERS)
      uploads[`once-${browser}`] = await upload('legacy', `once-${browser}.pdf`, {
        defaults: { ...DEFAULT_UPLOAD, expireUnit: 'view', expireLength: 1 },
      });
    // The authenticated format, as the extension uploads it; one copy per browser is then changed.
    await sender.setSettings(eceSettings(ref.server));
    const uploadEceFile = async (name: string) => {
      const original = randomBytes(3 * 1024 * 1024 + 5);
      const { link } = await uploadEce(sender, ref.server, {
        name,
        mimeType: 'application/pdf',
        buffer: original,
      });
      return { link, original, name };
    };
    for (const browser of BROWSERS) {
      uploads[`ece-${browser}`] = await uploadEceFile(`authenticated-${browser}.pdf`);
      const changed = await uploadEceFile(`changed-${browser}.pdf`);
      await changeStoredByte(ref.server, fileNameOf(changed.link), CHANGED_AT);
      uploads[`changed-${browser}`] = changed;
    }
  } finally {
    await sender.close();
  }
}, 240_000);

/** Opens a link, presses the page's button, and returns the saved file once the page says it is done. */
async function save(d: Driver, page: DriverPage): Promise<{ bytes: Buffer; name: string }> {
  await page.waitFor('#download', { visible: true });
  const saved = await d.download(page, () => page.click('#download'));
  await page.waitFor('.done');
  return { bytes: readFileSync(saved.path), name: saved.fileName };
}

/**
 * From now on, keeps each text the page's status line shows, in order, on the page's root element
 * (the DOM is shared by every way a driver runs a script, page globals are not).
 */
const watchStatus = (page: DriverPage) =>
  page.evaluate(() => {
    const root = document.documentElement;
    root.dataset.statusTexts = '[]';
    new MutationObserver(() => {
      const text = document.querySelector('[role="status"]')?.textContent ?? '';
      const seen = JSON.parse(root.dataset.statusTexts!) as string[];
      if (text && seen.at(-1) !== text) root.dataset.statusTexts = JSON.stringify([...seen, text]);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
const statusTexts = async (page: DriverPage) =>
  JSON.parse((await page.attribute('html', 'data-status-texts')) ?? '[]') as string[];

const workers = (page: DriverPage) =>
  page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length));

/**
 * Asks the page's own service worker for a download of the page's file, as the page does (a
 * prepare message, then the download address), but fetched from a frame the worker controls, so
 * that the response's headers and bytes can be read: what the browser's download gets.
 */
const workerDownload = (page: DriverPage) =>
  page.evaluate(async (dataId: string) => {
    const script = document.querySelector<HTMLScriptElement>('script[data-worker]')!;
    const scope = new URL(script.dataset.scope!, location.href).href;
    const registration = await navigator.serviceWorker.register(
      new URL(script.dataset.worker!, location.href).href,
      { scope },
    );
    const worker =
      registration.active ??
      (await new Promise<ServiceWorker>((resolve) => {
        const pending = (registration.installing ?? registration.waiting)!;
        pending.addEventListener('statechange', () => {
          if (pending.state === 'activated') resolve(pending);
        });
      }));
    const file = JSON.parse(document.getElementById(dataId)!.textContent!);
    const id = `content-length-${Date.now()}`;
    const channel = new MessageChannel();
    const ready = new Promise<void>((resolve, reject) => {
      channel.port1.onmessage = (e) => {
        if (e.data.type === 'ready') resolve();
        else if (e.data.type === 'failed') reject(new Error(`the worker failed: ${JSON.stringify(e.data)}`));
      };
    });
    worker.postMessage(
      {
        type: 'prepare',
        id,
        href: location.href,
        bytes: new URL(file.bytes, location.href).href,
        iv: file.iv,
        size: file.size,
        name: file.name,
        fileType: file.type,
      },
      [channel.port2],
    );
    await ready;
    // A document inside the worker's scope is one of its clients: its requests go through it.
    const frame = document.createElement('iframe');
    frame.hidden = true;
    const loaded = new Promise((r) => frame.addEventListener('load', r, { once: true }));
    frame.src = new URL('icon.png', scope).href;
    document.body.append(frame);
    await loaded;
    const res = await (frame.contentWindow as Window & typeof globalThis).fetch(
      new URL(`stream/${id}`, scope),
    );
    let read = 0;
    const reader = res.body!.getReader();
    for (let step = await reader.read(); !step.done; step = await reader.read()) read += step.value.length;
    frame.remove();
    return {
      status: res.status,
      contentLength: res.headers.get('Content-Length'),
      disposition: res.headers.get('Content-Disposition'),
      read,
    };
  }, RECIPIENT_DATA_ID);

forEachBrowser({ plain: true }, (d) => {
  for (const variant of ['current', 'legacy'] as const) {
    it(`the ${variant} link saves the original file, with its name`, async () => {
      const { link, original, name } = uploads[variant];
      const page = await d.openUrl(link);
      await page.waitFor('#download', { visible: true });
      await watchStatus(page);
      const saved = await save(d, page);
      expect(saved.name).toBe(name);
      expect(saved.bytes.equals(original)).toBe(true);
      expect(await page.text('main')).toContain(`Done: “${name}” is in your downloads.`);
      // The download showed its progress on the way: a count of this file's size that went up.
      const progress = (await statusTexts(page)).filter((t) => t.startsWith('Decrypting: '));
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.every((t) => t.endsWith(' of 3 MiB'))).toBe(true);
      // It went through the service worker, not the in-memory way.
      expect(await workers(page)).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot(`recipient-${variant}`);
      await page.close();
    });
  }

  it('an authenticated link (#ece1.) saves the original file, every record checked', async () => {
    const { link, original, name } = uploads[`ece-${d.name}`];
    const page = await d.openUrl(link);
    const saved = await save(d, page);
    expect(saved.name).toBe(name);
    expect(saved.bytes.equals(original)).toBe(true);
    await page.close();
  });

  it('every decrypted download carries Content-Length: the size of the file it saves', async () => {
    // Both formats: for the authenticated one the stored bytes are more than the file's own.
    for (const uploaded of [uploads.current, uploads[`ece-${d.name}`]]) {
      const page = await d.openUrl(uploaded.link);
      await page.waitFor('#download', { visible: true });
      const got = await workerDownload(page);
      expect(got.status).toBe(200);
      expect(got.contentLength).toBe(String(uploaded.original.length));
      expect(got.read).toBe(uploaded.original.length);
      expect(got.disposition).toMatch(/^attachment;/);
      await page.close();
    }
  });

  it('an authenticated file with one changed byte: the page says so; no file is written (WebKit keeps a part, which the sentence names)', async () => {
    const before = await d.downloadedFiles();
    const page = await d.openUrl(uploads[`changed-${d.name}`].link);
    await page.waitFor('#download', { visible: true });
    await page.click('#download');
    const said = await until(async () => (await page.text('[role="alert"]')) || undefined, 'the alert');
    expect(said).toBe(
      'This file was changed or cut short after it was uploaded, so it was not saved. If your browser kept a part of it, delete that part: it is incomplete.',
    );
    expect(await page.count('.done')).toBe(0);
    // The records checked before the changed one had begun a download: it failed, and not one byte
    // of the file is left in the download folder. (Chromium removes the failed download's file;
    // Firefox keeps an empty one under the file's name, which its downloads list offers to retry.)
    const written = (await d.downloadedFiles()).filter((f) => !before.some((b) => b.path === f.path));
    if (d.name === 'webkit') {
      // WebKit keeps what a failed download from a service worker wrote, under the file's own name
      // (the records checked before the changed one, 2 MiB here), and no page can take bytes back
      // once the download has them: so the sentence asks the person to delete a part kept.
      expect(written).toHaveLength(1);
      expect(written[0]!.size).toBeLessThan(CHANGED_AT);
    } else expect(written.filter((f) => f.size > 0)).toEqual([]);
    await page.screenshot('recipient-changed');
    await page.close();
  });

  // Firefox ends the download of a worker it stopped as if the file were whole (the Teknik format has
  // no end to check), and the page waited for the worker forever. Its ping now finds the worker new.
  it.runIf(d.can.stopWorkers)(
    'a download whose service worker the browser stops mid-way: the page says it was cut short, and to delete what was kept',
    async () => {
      const front = await startStallFront(new URL(ref.server.baseUrl), 2 * 1024 * 1024 + 4096);
      try {
        const link = new URL(uploads.current.link);
        const page = await d.openUrl(`${front.origin}${link.pathname}${link.hash}`);
        await page.waitFor('#download', { visible: true });
        await page.click('#download');
        await front.stalled;
        await d.stopServiceWorkers();
        // The page learns of the stop at its next ping (every 10 s).
        const said = await until(
          async () =>
            (await page.count('[role="alert"]')) > 0 ? await page.text('[role="alert"]') : undefined,
          'the alert',
          90_000,
        );
        expect(said).toMatch(
          /^The browser stopped this page's download helper after .+ of 3 MiB, so the file was not saved whole\. If your browser kept a part of it, delete that part/,
        );
        expect(await page.count('.done')).toBe(0);
        await page.close();
      } finally {
        front.release();
        await front.close();
      }
    },
  );

  it('a link without its key says that a key is needed, and offers no download', async () => {
    const page = await d.openUrl(uploads.current.link.split('#')[0]!);
    const said = await until(async () => (await page.text('[role="alert"]')) || undefined, 'the alert');
    expect(said).toMatch(/has no key/);
    expect(said).toMatch(/Ask the sender for the whole link/);
    expect(await page.count('#download')).toBe(0);
    await page.screenshot('recipient-no-key');
    await page.close();
  });

  it('a one-download link survives three link previews, gives the file to the first person only', async () => {
    const { link, original } = uploads[`once-${d.name}`];
    const fileName = fileNameOf(link);
    expect((await ref.server.stored(fileName))?.maxDownloads).toBe(1);
    // Slack, WhatsApp and Discord fetch a pasted link to build a card; each gets the page.
    for (const headers of [
      { 'User-Agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', Accept: '*/*' },
      { 'User-Agent': 'WhatsApp/2.23.20.0 A', Accept: 'text/html,*/*;q=0.8' },
      { 'User-Agent': 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)', Accept: '*/*' },
    ]) {
      const res = await fetch(link, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
    expect((await ref.server.stored(fileName))?.downloads).toBe(0);

    // A second person has the page open already, before the first one downloads.
    const late = await d.openUrl(link);
    await late.waitFor('#download', { visible: true });
    const first = await d.openUrl(link);
    expect((await save(d, first)).bytes.equals(original)).toBe(true);
    await first.close();

    await late.click('#download');
    const said = await until(async () => (await late.text('[role="alert"]')) || undefined, 'the alert');
    expect(said).toMatch(/no longer here/);
    expect(await late.count('.done')).toBe(0);
    await late.screenshot('recipient-used-up');
    await late.close();
    // And a fresh visit finds nothing at all.
    expect((await fetch(link)).status).toBe(404);
  });
});

/**
 * Every form a link's key could be sent in: its text, and its bytes raw, as hex and as base64. For
 * an authenticated link (`ece1.<secret>`) the secret alone too, as text and as the 16 bytes it
 * decodes to: a page that sent only those would not contain the fragment's own text.
 */
function keyForms(fragment: string): Buffer[] {
  const bytes = [Buffer.from(fragment, 'utf8')];
  if (fragment.startsWith('ece1.')) {
    const secret = fragment.slice('ece1.'.length);
    bytes.push(Buffer.from(secret, 'utf8'), Buffer.from(secret, 'base64url'));
  }
  return bytes.flatMap((b) => [
    b,
    ...[b.toString('hex'), b.toString('base64'), b.toString('base64url')].map((t) => Buffer.from(t)),
  ]);
}

describe('what the server received', () => {
  it('no request held a key: not as text, hex or base64, nor an authenticated link’s secret alone', () => {
    const keys = Object.values(uploads).map((u) => u.link.split('#')[1]!);
    const pagesAndBytes = ref.server.requests.filter((r) =>
      /\/_hushdrop\/(recipient\.js|sw\.js|file\/)/.test(r.url),
    );
    // The search covered the recipients' requests: script, worker and byte requests of every opening.
    expect(pagesAndBytes.length).toBeGreaterThanOrEqual(4 * BROWSERS.length);
    for (const key of keys)
      for (const form of keyForms(key))
        expect(findInRecorded(ref.server, form), form.toString('hex')).toEqual([]);
    // The search finds what is there: each upload's file name was sent, in its form.
    expect(findInRecorded(ref.server, Buffer.from('once-')).length).toBeGreaterThan(0);
  });
});
