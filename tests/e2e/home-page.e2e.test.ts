// The server's home page (`GET /`) as an upload page, in browsers without Hushdrop: a phone-sized
// window chooses a file, the page encrypts it in the authenticated format and sends it in parts, and
// shows the link with Copy, a QR code and the deletion link; a second browser opens the link and saves
// the exact bytes. A Cancel while a part is held at a front (support/parts-front.ts) leaves nothing on
// the server; a connection cut there mid-part, with the network down a while, shows the waiting and
// then completes, no part the server held sent again. A reload mid-upload offers to resume it: the same
// file chosen again sends only the parts the server does not hold; another file of that name goes as a
// new upload, and Forget aborts the interrupted one. Files dropped and pasted go as chosen ones do. A
// server that requires an account gets one, kept for the tab only.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openLink } from '../../devkit/links';
import { until } from '../../devkit/wait';
import type { DriverPage } from './driver/driver';
import { forEachBrowser, launchDriver } from './driver/each-browser';
import { seriousViolations } from './support/axe';
import { ECE_LINK } from './support/ece';
import { type PartsFront, partPutsAtServer, startPartsFront } from './support/parts-front';
import { fileOnDisk, reloadedMidUpload } from './support/resume';
import { serverForFile } from './support/servers';

const MIB = 1024 * 1024;
const PARTS = { partBytes: 5 * MIB, sessionLifetimeMs: 3_600_000, sessionsPerAddress: 0 };
const ref = serverForFile({ record: true, settings: { parts: PARTS, trustedProxies: ['127.0.0.1'] } });
const ACCOUNT = { username: 'ines', token: 'tok-ines-0123456789' };
const withAccounts = serverForFile({ accounts: [ACCOUNT], settings: { parts: PARTS, requireAccount: true } });
/** A part's PUT, as the server recorded it. */
const PART_PUT = /\/v1\/Upload\/Parts\/[A-Za-z0-9]+\/\d+\?sub=api$/i;

let front: PartsFront;
beforeAll(async () => {
  front = await startPartsFront(ref.server, '127.0.0.1');
  front.forwarded = true;
});
afterAll(() => front?.close());

/**
 * The names in the page's private file system (its part files are removed once sent). MiniBrowser
 * has none (no `navigator.storage`): the page then sends each part as a Blob, and leaves no file.
 */
const privateFiles = (page: DriverPage) =>
  page.evaluate(async () => {
    const names: string[] = [];
    if (!navigator.storage?.getDirectory) return names;
    const dir = await navigator.storage.getDirectory();
    for await (const [name] of dir as unknown as AsyncIterable<[string, unknown]>) names.push(name);
    return names;
  });

/** What the tab keeps to resume uploads: the records in its session storage, and any on the device. */
const keptToResume = (page: DriverPage) =>
  page.evaluate(() => ({
    session: Object.keys(sessionStorage).filter((k) => k.startsWith('hushdrop.resume.')).length,
    device: Object.keys(localStorage).filter((k) => k.startsWith('hushdrop.resume.')).length,
  }));

/** The state of the `n`th file shown on the page, once it has one of `states`. */
async function ended(page: DriverPage, n: number, states: string[]): Promise<string> {
  return until(
    async () => {
      const state = await page.attribute(`#uploads > li:nth-child(${n})`, 'data-state');
      return state && states.includes(state) ? state : undefined;
    },
    `file ${n} to end (${states.join(' or ')})`,
    120_000,
  );
}

forEachBrowser({ plain: true }, (d) => {
  it('a phone-sized window uploads a file in parts; a second browser opens the link to the exact bytes', async () => {
    const page = await d.openUrl(`${ref.server.baseUrl}/`);
    await page.setViewport(360, 800);
    await page.waitFor('#files', { visible: true });
    expect(await page.text('main')).toContain('browser extension');
    expect(await page.count('#delete-after option')).toBeGreaterThan(2);
    const marked = ref.server.requests.length;
    const original = randomBytes(12 * MIB + 7);
    await page.setInputFiles('#files', {
      name: 'Urlaub am Meer.mov',
      mimeType: 'video/quicktime',
      buffer: original,
    });
    expect(await ended(page, 1, ['done', 'failed'])).toBe('done');
    const link = await page.inputValue('#link-1');
    expect(link).toMatch(ECE_LINK);
    expect(link.startsWith(`${ref.server.baseUrl}/`)).toBe(true);
    // In parts: three PUTs (5 + 5 + 2 MiB and the format's records), and no one-request upload.
    const received = ref.server.requests.slice(marked);
    expect(received.filter((r) => r.method === 'PUT' && PART_PUT.test(r.url))).toHaveLength(3);
    expect(received.filter((r) => /\/v1\/Upload\?sub=api$/i.test(r.url))).toEqual([]);
    // No request held the key.
    const secret = link.split('#ece1.')[1]!;
    expect(received.some((r) => r.url.includes(secret))).toBe(false);
    // Copy, the QR code and the deletion link.
    await page.click('#uploads button.copy');
    // The clipboard answers in its own time: wait for the sentence rather than read it at once.
    await page.waitFor({ css: '#uploads [role="status"]', hasText: 'Copied.' });
    expect(await page.text('#uploads [role="status"]')).toBe('Copied.');
    expect(await page.count('#uploads svg.qr path')).toBe(1);
    expect(await page.inputValue('#deletion-1')).toMatch(/\?sub=u$/);
    expect(await privateFiles(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot('home-phone-done');
    await page.close();

    // Someone else, in another browser of the same engine, without Hushdrop.
    const other = await launchDriver(d.name, { plain: true });
    try {
      const opened = await other.openUrl(link);
      await opened.waitFor('#download', { visible: true });
      const saved = await other.download(opened, () => opened.click('#download'));
      await opened.waitFor('.done');
      expect(saved.fileName).toBe('Urlaub am Meer.mov');
      expect(readFileSync(saved.path).equals(original)).toBe(true);
      // And the recipient may send a file back from the same server.
      expect(await opened.attribute('#send-back', 'href')).toBe('./');
      await opened.close();
    } finally {
      await other.close();
    }
  });

  it('a file dropped on the page, and one pasted where the browser can, are each sent to a link of their exact bytes', async () => {
    const page = await d.openUrl(`${ref.server.baseUrl}/`);
    await page.waitFor('#files', { visible: true });
    const given = [
      { how: 'drop' as const, name: 'dropped notes.txt', bytes: randomBytes(300_000) },
      // Firefox's ClipboardEvent keeps only text (Driver.can): a second file is dropped there instead.
      {
        how: d.can.pasteFiles ? ('paste' as const) : ('drop' as const),
        name: 'pasted.png',
        bytes: randomBytes(70_001),
      },
    ];
    for (const [i, f] of given.entries()) {
      // A file made in the page and handed over as a person's drop or paste hands it: in a DataTransfer.
      await page.evaluate(
        ({ how, name, data }) => {
          const dt = new DataTransfer();
          dt.items.add(new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], name));
          if (how === 'paste')
            document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }));
          else
            document.body.dispatchEvent(
              new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }),
            );
        },
        { how: f.how, name: f.name, data: f.bytes.toString('base64') },
      );
      expect(await ended(page, i + 1, ['done', 'failed'])).toBe('done');
      const link = await page.inputValue(`#link-${i + 1}`);
      expect(link).toMatch(ECE_LINK);
      expect((await openLink(link)).equals(f.bytes)).toBe(true);
    }
    await page.close();
  });

  it('a Cancel mid-way ends the upload, and the server keeps nothing of it', async () => {
    const page = await d.openUrl(`${front.addresses.baseUrl}/`);
    await page.waitFor('#files', { visible: true });
    const mark = front.seen.length;
    front.holdPart = 1;
    try {
      await page.setInputFiles('#files', { name: 'abgebrochen.bin', buffer: randomBytes(12 * MIB) });
      await until(async () => front.held ?? undefined, 'part 1 held at the front');
      await page.click({ css: '#uploads button.cancel' });
      expect(await ended(page, 1, ['done', 'failed', 'cancelled'])).toBe('cancelled');
      expect(await page.text('#uploads')).toContain('Cancelled: nothing of this file was kept.');
      const seen = front.seen.slice(mark);
      const aborted = seen.filter((s) => s.method === 'DELETE' && /\/Upload\/Parts\//i.test(s.path));
      expect(aborted.map((s) => s.status)).toEqual([204]);
      expect(
        seen.filter((s) => s.method === 'POST' && /\/Upload\/Parts\/[A-Za-z0-9]+\?/i.test(s.path)),
      ).toEqual([]);
      expect((await ref.server.storedBlobs()).inProgress).toBe(0);
      expect(await privateFiles(page)).toEqual([]);
    } finally {
      front.holdPart = undefined;
      front.held = undefined;
      front.releaseHeld();
    }
    await page.close();
  });

  it('a connection cut mid-part and the network down a while: the page waits for the network, then completes, sending no held part again', async () => {
    const page = await d.openUrl(`${front.addresses.baseUrl}/`);
    await page.waitFor('#files', { visible: true });
    const bytes = randomBytes(12 * MIB);
    const mark = front.seen.length;
    const marked = ref.server.requests.length;
    // No connection reused, so no browser re-sends a part on its own; part 1 breaks off mid-body, and
    // part 2 reaches the server whole, its answer lost.
    front.closeConnections = true;
    front.drop.set(1, 1);
    front.dropAnswer.set(2, 1);
    try {
      await page.setInputFiles('#files', { name: 'wieder aufgenommen.bin', buffer: bytes });
      await until(
        async () =>
          front.seen
            .slice(mark)
            .some((s) => s.method === 'PUT' && /\/Parts\/[A-Za-z0-9]+\/1(\?|$)/i.test(s.path))
            ? true
            : undefined,
        'part 1 cut at the front',
        60_000,
      );
      front.down = true;
      await page.waitFor(
        { css: '#uploads > li[data-waiting] [role="status"]', hasText: 'Waiting for the network…' },
        { timeout: 60_000 },
      );
      front.down = false;
      expect(await ended(page, 1, ['done', 'failed', 'cancelled'])).toBe('done');
    } finally {
      front.down = false;
      front.closeConnections = false;
      front.drop.clear();
      front.dropAnswer.clear();
    }
    const puts = partPutsAtServer(ref.server.requests.slice(marked));
    expect([...puts.keys()].sort()).toEqual([0, 1, 2]);
    for (const [index, bodies] of puts) expect(bodies, `part ${index}`).toHaveLength(1);
    expect(
      front.seen
        .slice(mark)
        .filter((s) => s.method === 'GET' && /\/Upload\/Parts\/[A-Za-z0-9]+\?/i.test(s.path)),
    ).not.toEqual([]);
    expect((await openLink(await page.inputValue('#link-1'))).equals(bytes)).toBe(true);
    expect(await privateFiles(page)).toEqual([]);
    await page.close();
  });

  it('a reload mid-upload: the page offers it, and the same file chosen again resumes it, sending no part the server held', async () => {
    const page = await d.openUrl(`${front.addresses.baseUrl}/`);
    await page.waitFor('#files', { visible: true });
    const bytes = randomBytes(12 * MIB);
    const path = fileOnDisk('nach dem Neuladen.bin', bytes);
    const marked = ref.server.requests.length;
    // Parts 0 and 2 reach the server; part 1 is held at the front when the page is reloaded.
    await reloadedMidUpload(front, page, '#files', path, 1, [0, 2]);
    expect(await keptToResume(page)).toEqual({ session: 1, device: 0 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot('home-interrupted');

    await page.setInputFiles('#files', path);
    await page.waitFor({
      css: '#uploads > li[data-resuming] .note',
      hasText: 'Resuming the interrupted upload: the parts the server holds are not sent again.',
    });
    expect(await ended(page, 1, ['done', 'failed', 'cancelled'])).toBe('done');
    expect(await page.count('#interrupted > li')).toBe(0);
    expect(await keptToResume(page)).toEqual({ session: 0, device: 0 });
    // Over both lives of the page: one Start, and each part reached the server once.
    const received = ref.server.requests.slice(marked);
    expect(
      received.filter((r) => r.method === 'POST' && /\/Upload\/Parts\?sub=api$/i.test(r.url)),
    ).toHaveLength(1);
    const puts = partPutsAtServer(received);
    expect([...puts.keys()].sort()).toEqual([0, 1, 2]);
    for (const [index, bodies] of puts) expect(bodies, `part ${index}`).toHaveLength(1);
    expect((await openLink(await page.inputValue('#link-1'))).equals(bytes)).toBe(true);
    await page.close();
  });

  it('after a reload, another file of the same name, size and time goes as a new upload, and Forget aborts the interrupted one', async () => {
    const page = await d.openUrl(`${front.addresses.baseUrl}/`);
    await page.waitFor('#files', { visible: true });
    const name = 'gleicher Name.bin';
    const bytes = randomBytes(6 * MIB);
    const marked = ref.server.requests.length;
    await reloadedMidUpload(front, page, '#files', fileOnDisk(name, bytes), 1, [0]);

    // Another file: its name, size and time are the first one's; its first part is not.
    const other = Buffer.from(bytes);
    other[10] = (other[10]! + 1) % 256;
    await page.setInputFiles('#files', fileOnDisk(name, other));
    await page.waitFor({
      css: '#uploads > li .note',
      hasText:
        'This is not the same file as the interrupted upload of that name, so it goes as a new upload.',
    });
    expect(await ended(page, 1, ['done', 'failed', 'cancelled'])).toBe('done');
    expect(await page.attribute('#uploads > li', 'data-resuming')).toBeNull();
    expect((await openLink(await page.inputValue('#link-1'))).equals(other)).toBe(true);
    // Two Starts: the new upload counts as one of its own.
    const starts = () =>
      ref.server.requests
        .slice(marked)
        .filter((r) => r.method === 'POST' && /\/Upload\/Parts\?sub=api$/i.test(r.url));
    expect(starts()).toHaveLength(2);

    // The interrupted one is still offered; Forget (by keyboard) aborts its session and forgets it.
    const mark = front.seen.length;
    await page.focus('#interrupted button.forget');
    expect((await page.focused()).label).toBe(`Forget the interrupted upload of ${name}`);
    await page.press('Enter');
    expect(
      await until(
        async () => ((await page.count('#interrupted > li')) === 0 ? true : undefined),
        'the notice gone',
      ),
    ).toBe(true);
    expect(await keptToResume(page)).toEqual({ session: 0, device: 0 });
    const aborted = await until(
      async () => front.seen.slice(mark).find((s) => s.method === 'DELETE' && s.status !== undefined),
      'the interrupted session aborted',
    );
    expect(aborted.status).toBe(204);
    expect((await ref.server.storedBlobs()).inProgress).toBe(0);
    await page.close();
  });

  it('a server that requires an account: the page asks for one, and keeps it for this tab only', async () => {
    const page = await d.openUrl(`${withAccounts.server.baseUrl}/`);
    await page.waitFor('#account-name', { visible: true });
    const file = { name: 'Vertrag.pdf', mimeType: 'application/pdf', buffer: randomBytes(300_000) };
    // Without an account nothing is sent, and the page says what is missing.
    await page.setInputFiles('#files', file);
    expect(await page.text('[role="alert"]')).toBe('Enter the account’s name and token first.');
    expect(await page.count('#uploads > li')).toBe(0);
    await page.fill('#account-name', ACCOUNT.username);
    await page.fill('#account-token', ACCOUNT.token);
    await page.setInputFiles('#files', file);
    expect(await ended(page, 1, ['done', 'failed'])).toBe('done');
    expect(await page.inputValue('#link-1')).toMatch(ECE_LINK);
    const kept = await page.evaluate(() => [
      sessionStorage.getItem('hushdrop.account'),
      localStorage.getItem('hushdrop.account'),
    ]);
    expect(kept).toEqual([JSON.stringify(ACCOUNT), null]);
    await page.screenshot('home-account');
    await page.close();
  });
});
