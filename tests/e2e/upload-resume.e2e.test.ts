// The extension's upload page resumes an upload in parts that a reload broke off (issue 33), in both
// browsers: what the resume needs (its key among it) is in the extension's session storage only, for
// that tab; after the reload the page offers the upload, and the same file chosen again sends only the
// parts the server does not hold, and its link opens to the exact bytes. Another file of that name goes
// as a new upload; Forget aborts the interrupted session; closing the tab drops what it kept. A front
// before the server (support/parts-front.ts) holds a part unanswered while the page is reloaded.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openLink } from '../../devkit/links';
import { serverSettings } from '../../devkit/settings';
import { until } from '../../devkit/wait';
import type { Driver, DriverPage } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { UNGRANTED_HOST } from './support/hosts';
import { type PartsFront, partPutsAtServer, startPartsFront } from './support/parts-front';
import { fileOnDisk, reloadedMidUpload } from './support/resume';
import { serverForFile } from './support/servers';
import { DONE_LINK, FILE_INPUT } from './support/uploads';

declare const chrome: any;

const MIB = 1024 * 1024;
const ref = serverForFile({
  host: UNGRANTED_HOST,
  record: true,
  settings: { parts: { partBytes: 5 * MIB, sessionLifetimeMs: 3_600_000, sessionsPerAddress: 0 } },
});
let front: PartsFront;
beforeAll(async () => {
  front = await startPartsFront(ref.server, UNGRANTED_HOST);
});
afterAll(() => front?.close());

/** What the extension keeps to resume, by storage area: the resume records' keys. */
const keptToResume = (page: DriverPage) =>
  page.evaluate(async () => {
    const api = (globalThis as { browser?: typeof chrome }).browser ?? chrome;
    const names = async (area: 'session' | 'local') =>
      Object.keys(await api.storage[area].get(null)).filter((k) => k.startsWith('resume.'));
    return { session: await names('session'), local: await names('local') };
  });

/** The state of the page's newest job, once it has ended. */
const ended = (page: DriverPage) =>
  until(
    async () => {
      const state = await page.attribute('.job', 'data-state');
      return state && state !== 'running' ? state : undefined;
    },
    'the job to end',
    120_000,
  );

forEachBrowser({ grantHosts: [UNGRANTED_HOST] }, (d: Driver) => {
  beforeAll(() => d.setSettings(serverSettings(front.addresses, 'current')));

  it('a reload mid-upload: the page offers it, and the same file chosen again resumes it, sending no part the server held', async () => {
    const page = await d.open('upload.html');
    await page.waitFor(FILE_INPUT);
    const bytes = randomBytes(12 * MIB);
    const path = fileOnDisk('nach dem Neuladen.bin', bytes);
    const marked = ref.server.requests.length;
    // Parts 0 and 2 reach the server; part 1 is held at the front when the page is reloaded.
    await reloadedMidUpload(front, page, FILE_INPUT, path, 1, [0, 2]);
    const kept = await keptToResume(page);
    expect(kept.session).toHaveLength(1);
    expect(kept.local).toEqual([]);

    await page.setInputFiles(FILE_INPUT, path);
    await page.waitFor({
      css: '.job .resume-note',
      hasText: 'Resuming the interrupted upload: the parts the server holds are not sent again.',
    });
    expect(await ended(page)).toBe('done');
    expect(await page.count('#interrupted > li')).toBe(0);
    expect(await keptToResume(page)).toEqual({ session: [], local: [] });
    // Over both lives of the page: one Start, and each part reached the server once.
    const received = ref.server.requests.slice(marked);
    expect(received.filter((r) => r.method === 'POST' && /\/Upload\/Parts$/i.test(r.url))).toHaveLength(1);
    const puts = partPutsAtServer(received);
    expect([...puts.keys()].sort()).toEqual([0, 1, 2]);
    for (const [index, bodies] of puts) expect(bodies, `part ${index}`).toHaveLength(1);
    expect((await openLink(await page.inputValue(DONE_LINK))).equals(bytes)).toBe(true);
    await page.close();
  });

  it('after a reload, another file of the same name, size and time goes as a new upload, and Forget aborts the interrupted one', async () => {
    const page = await d.open('upload.html');
    await page.waitFor(FILE_INPUT);
    const name = 'gleicher Name.bin';
    const bytes = randomBytes(9 * MIB);
    await reloadedMidUpload(front, page, FILE_INPUT, fileOnDisk(name, bytes), 1, [0]);
    const mark = front.seen.length;

    // Another file: its name, size and time are the first one's; its first part is not.
    const other = Buffer.from(bytes);
    other[10] = (other[10]! + 1) % 256;
    await page.setInputFiles(FILE_INPUT, fileOnDisk(name, other));
    await page.waitFor({
      css: '.job .resume-note',
      hasText:
        'This is not the same file as the interrupted upload of that name, so it goes as a new upload.',
    });
    expect(await ended(page)).toBe('done');
    expect((await openLink(await page.inputValue(DONE_LINK))).equals(other)).toBe(true);
    // Still offered: the new upload took nothing of it.
    expect(await page.count('#interrupted > li')).toBe(1);

    await page.click({ css: '#interrupted button', hasText: 'Forget' });
    await until(
      async () =>
        front.seen.slice(mark).some((s) => s.method === 'DELETE' && s.status === 204) ? true : undefined,
      'the interrupted session aborted',
    );
    expect(await page.count('#interrupted > li')).toBe(0);
    expect((await keptToResume(page)).session).toEqual([]);
    await page.close();
  });

  it('closing the tab of an interrupted upload drops what it kept to resume', async () => {
    const page = await d.open('upload.html');
    await page.waitFor(FILE_INPUT);
    await reloadedMidUpload(
      front,
      page,
      FILE_INPUT,
      fileOnDisk('geschlossen.bin', randomBytes(9 * MIB)),
      1,
      [0],
    );
    expect((await keptToResume(page)).session).toHaveLength(1);
    await page.close();
    const other = await d.open('upload.html');
    await until(
      async () => ((await keptToResume(other)).session.length === 0 ? true : undefined),
      'the closed tab’s record dropped',
    );
    // Another tab is not offered it meanwhile either: records are per tab.
    expect(await other.count('#interrupted > li')).toBe(0);
    await other.close();
  });
});
