// A client-mode upload in parts, in both browsers, against the product server with its smallest
// part size (5 MiB), so a 12 MiB file is 3 parts: it goes in parts and its link opens to the exact
// bytes (both variants, both formats); to a server without parts (its info answer lists none, or it
// has none) it goes as one POST with no Start at all, and to one whose Start is refused after all,
// one Start and none after, in any page (the planner, lib/upload/plan.ts, reads the server's record,
// which Test connection seeds from the info answer); a Cancel mid-way leaves no history entry, no scratch file and no session on the server; a part
// whose connection drops is sent once more and the upload completes; with the network down a while the
// job says it waits for the network, then completes, and a part the server held (its answer lost) is
// not sent again; a Cancel while it waits leaves nothing behind. A front before
// the server (support/parts-front.ts) notes the requests and plays the server without parts, the
// dropped connections (closing every connection, so the browser's own re-sending cannot hide ours)
// and the part held for the Cancel.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLink } from '../../devkit/links';
import { opfsNames } from '../../devkit/opfs';
import { serverSettings } from '../../devkit/settings';
import { until } from '../../devkit/wait';
import { DEFAULT_UPLOAD } from '../../lib/settings';
import type { DriverPage } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { historyCount } from './support/history';
import { UNGRANTED_HOST } from './support/hosts';
import { type PartsFront, partPutsAtServer, type Seen, startPartsFront } from './support/parts-front';
import { serverForFile } from './support/servers';
import { chooseFiles, DONE_LINK, FILE_INPUT, fileNameOf, jobsShown, submitFile } from './support/uploads';

const MIB = 1024 * 1024;
const PART_BYTES = 5 * MIB;
/** 3 parts of 5, 5 and 2 MiB (the Teknik format's ciphertext is as long as the file). */
const SIZE = 12 * MIB;

const ref = serverForFile({
  host: UNGRANTED_HOST,
  record: true,
  settings: { parts: { partBytes: PART_BYTES, sessionLifetimeMs: 3_600_000, sessionsPerAddress: 0 } },
});
let front: PartsFront;

beforeAll(async () => {
  front = await startPartsFront(ref.server, UNGRANTED_HOST);
});
afterAll(async () => {
  await front?.close();
});

const PARTS_START = /^\/api\/v1\/Upload\/Parts$/i;
const PART = (index: number) => new RegExp(`^/api/v1/Upload/Parts/[A-Za-z0-9]+/${index}$`, 'i');
const ONE_REQUEST = /^\/api\/v1\/Upload$/i;
const DONE = /^\/api\/v1\/Upload\/Parts\/[A-Za-z0-9]+$/i;

/** What the front saw from the moment `mark` was taken. */
const since = (mark: number) => front.seen.slice(mark);
const matching = (seen: Seen[], method: string, path: RegExp) =>
  seen.filter((s) => s.method === method && path.test(s.path));

/** Upload scratch files in the extension's OPFS (an upload's encrypted copy or its parts). */
const uploadScratch = async (page: DriverPage) =>
  (await opfsNames(page)).filter((name) => name.startsWith('upload-'));

/**
 * The session begun after `mark` was aborted (DELETE, answered 204) and never finished, and the
 * server holds nothing of it: finishing it now is refused as unknown.
 */
async function expectSessionAborted(mark: number): Promise<void> {
  // Up to a minute: the server answers an abort once the session's parts in flight have ended, and a
  // part whose browser request was cut mid-body may wait for its slow-client limit (30 s) to end it.
  const aborted = await until(
    async () => matching(since(mark), 'DELETE', DONE).find((s) => s.status !== undefined),
    'the session aborted',
    60_000,
  ).catch((err) => {
    const seen = since(mark).map((s) => `${s.method} ${s.path} ${s.status ?? 'pending'}`);
    throw new Error(`${(err as Error).message} The front saw: ${seen.join('; ')}`);
  });
  expect(aborted.status).toBe(204);
  expect(matching(since(mark), 'POST', DONE)).toEqual([]);
  const done = await fetch(new URL(aborted.path, front.addresses.baseUrl), { method: 'POST' });
  expect(done.status).toBe(404);
  expect((await ref.server.storedBlobs()).inProgress).toBe(0);
}

forEachBrowser({ grantHosts: [UNGRANTED_HOST] }, (d) => {
  beforeAll(() => d.setSettings(serverSettings(front.addresses, 'current')));

  async function uploadFile(name: string, bytes: Buffer): Promise<{ link: string; page: DriverPage }> {
    const page = await d.open('upload.html');
    await page.waitFor(FILE_INPUT);
    const link = await submitFile(page, { name, buffer: bytes }, 120_000);
    return { link, page };
  }

  it('goes in parts to a server that takes them, and the link opens to the exact bytes', async () => {
    const bytes = randomBytes(SIZE);
    const mark = front.seen.length;
    const marked = ref.server.requests.length;
    const { link, page } = await uploadFile('in-parts.bin', bytes);
    const seen = since(mark);
    expect(matching(seen, 'POST', PARTS_START).map((s) => s.status)).toEqual([201]);
    for (const index of [0, 1, 2])
      expect(matching(seen, 'PUT', PART(index)).map((s) => s.status)).toEqual([204]);
    expect(matching(seen, 'PUT', PART(3))).toEqual([]);
    expect(matching(seen, 'POST', DONE).map((s) => s.status)).toEqual([200]);
    expect(matching(seen, 'POST', ONE_REQUEST)).toEqual([]);
    // The server's own recording: the three parts' bodies, 5 + 5 + 2 MiB, and no one-request upload.
    const atServer = ref.server.requests.slice(marked);
    const puts = atServer.filter((r) => r.method === 'PUT').map((r) => r.bodyBytes);
    expect(puts.sort((x, y) => x - y)).toEqual([SIZE - 2 * PART_BYTES, PART_BYTES, PART_BYTES]);
    expect(atServer.filter((r) => r.method === 'POST' && ONE_REQUEST.test(r.url))).toEqual([]);
    expect((await openLink(link)).equals(bytes)).toBe(true);
    // Each part's file goes once the server has it; none is left after the upload.
    await until(async () => ((await uploadScratch(page)).length === 0 ? true : undefined), 'no scratch file');
    await page.close();
  });

  it('goes in parts in the legacy variant too (?sub=api kept on every request)', async () => {
    await d.setSettings(serverSettings(front.addresses, 'legacy'));
    try {
      const bytes = randomBytes(SIZE);
      const mark = front.seen.length;
      const { link, page } = await uploadFile('legacy-parts.bin', bytes);
      const seen = since(mark);
      const start = /^\/v1\/Upload\/Parts\?sub=api$/i;
      const part = /^\/v1\/Upload\/Parts\/[A-Za-z0-9]+\/[0-2]\?sub=api$/i;
      const done = /^\/v1\/Upload\/Parts\/[A-Za-z0-9]+\?sub=api$/i;
      expect(matching(seen, 'POST', start).map((s) => s.status)).toEqual([201]);
      expect(matching(seen, 'PUT', part).map((s) => s.status)).toEqual([204, 204, 204]);
      expect(matching(seen, 'POST', done).map((s) => s.status)).toEqual([200]);
      expect((await openLink(link)).equals(bytes)).toBe(true);
      await page.close();
    } finally {
      await d.setSettings(serverSettings(front.addresses, 'current'));
    }
  });

  it('cuts the authenticated format wherever its records fall, and its link opens to the bytes', async () => {
    await d.setSettings(
      serverSettings(front.addresses, 'current', { defaults: { ...DEFAULT_UPLOAD, format: 'ece' } }),
    );
    try {
      const bytes = randomBytes(SIZE);
      const mark = front.seen.length;
      const { link, page } = await uploadFile('ece-parts.bin', bytes);
      expect(link).toMatch(/#ece1\./);
      const seen = since(mark);
      // A header and a tag per 64 KiB record more than the file: still 3 parts of 5 MiB at most.
      for (const index of [0, 1, 2])
        expect(matching(seen, 'PUT', PART(index)).map((s) => s.status)).toEqual([204]);
      expect((await ref.server.stored(fileNameOf(link)))?.linkFormat).toBe('ece1');
      expect((await openLink(link)).equals(bytes)).toBe(true);
      await page.close();
    } finally {
      await d.setSettings(serverSettings(front.addresses, 'current'));
    }
  });

  /**
   * Presses Test connection on the options page, as a person does: the extension asks the server's
   * `/_hushdrop/info` then, and keeps the answer in the server's record.
   */
  async function testConnection(): Promise<void> {
    const page = await d.open('options.html');
    try {
      await page.click('#test');
      await until(async () => /Connection works/.test(await page.text('#test ~ p')) || undefined, 'the test');
    } finally {
      await page.close();
    }
  }

  /**
   * Uploads a 16 MiB file and checks it went as one POST; returns what the front saw of it. The file
   * is chosen from disk: a buffer that large crosses the driver too slowly on a busy machine.
   */
  async function oneRequest(name: string): Promise<Seen[]> {
    const dir = await mkdtemp(join(tmpdir(), 'hushdrop-parts-'));
    try {
      const path = join(dir, name);
      const bytes = randomBytes(16 * MIB);
      await writeFile(path, bytes);
      const mark = front.seen.length;
      const page = await d.open('upload.html');
      await page.waitFor(FILE_INPUT);
      await chooseFiles(page, path);
      await page.waitFor(DONE_LINK, { timeout: 90_000 }).catch(async (err) => {
        const seen = since(mark).map((s) => `${s.method} ${s.path} ${s.status ?? 'cut'}`);
        throw new Error(
          `${(err as Error).message} The jobs showed: ${await jobsShown(page)} The front saw: ${seen.join('; ')}`,
        );
      });
      const link = await page.inputValue(DONE_LINK);
      const seen = since(mark);
      expect(seen.filter((s) => s.method === 'PUT')).toEqual([]);
      expect(matching(seen, 'POST', ONE_REQUEST).map((s) => s.status)).toEqual([200]);
      expect((await openLink(link)).equals(bytes)).toBe(true);
      await page.close();
      return seen;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  describe('a server without parts: one POST, and no Start', () => {
    afterAll(async () => {
      front.info = 'server';
      front.noParts = false;
      // The server's own answer again, for the scenarios after these.
      await testConnection();
    });

    it('its info answer lists no parts (an older Hushdrop)', async () => {
      front.info = 'no-parts';
      front.noParts = true;
      await testConnection();
      expect(matching(await oneRequest('no-parts-listed.bin'), 'POST', PARTS_START)).toEqual([]);
    });

    it('it has no info answer (Teknik)', async () => {
      front.info = 'none';
      front.noParts = true;
      await testConnection();
      expect(matching(await oneRequest('no-info.bin'), 'POST', PARTS_START)).toEqual([]);
    });

    it('its info listed parts but Start is refused: one Start, then none in the next page either', async () => {
      front.info = 'server';
      front.noParts = true;
      await testConnection();
      expect(
        matching(await oneRequest('start-refused.bin'), 'POST', PARTS_START).map((s) => s.status),
      ).toEqual([404]);
      // The refusal is in the server's record, which every page reads.
      expect(matching(await oneRequest('start-remembered.bin'), 'POST', PARTS_START)).toEqual([]);
    });
  });

  it('a Cancel mid-way leaves no history entry, no scratch file and no session on the server', async () => {
    const page = await d.open('upload.html');
    await page.waitFor(FILE_INPUT);
    const before = await historyCount(page);
    const mark = front.seen.length;
    front.holdPart = 1;
    try {
      await chooseFiles(page, { name: 'cancelled.bin', buffer: randomBytes(SIZE) });
      await until(async () => front.held ?? undefined, 'part 1 held at the front');
      await page.click({
        css: 'button',
        hasText: 'Cancel',
        within: { css: '.job[data-state="running"]', hasText: 'cancelled.bin' },
      });
      await page
        .waitFor({ css: '.job[data-state="cancelled"]', hasText: 'cancelled.bin' })
        .catch(async (err) => {
          throw new Error(`${(err as Error).message} The jobs showed: ${await jobsShown(page)}`);
        });
      expect(await historyCount(page)).toBe(before);
      await expectSessionAborted(mark);
      expect(await uploadScratch(page)).toEqual([]);
    } finally {
      front.holdPart = undefined;
      front.held = undefined;
      front.releaseHeld();
    }
    await page.close();
  });

  describe('a part whose connection drops (every answer closes its connection, so no browser re-sends)', () => {
    beforeAll(() => {
      front.closeConnections = true;
    });
    afterAll(() => {
      front.closeConnections = false;
      front.drop.clear();
      front.dropAnswer.clear();
    });

    it('dropped once: the extension asks which parts the server holds, sends it once more, and the upload completes', async () => {
      const bytes = randomBytes(SIZE);
      const mark = front.seen.length;
      front.drop.set(1, 1);
      const { link, page } = await uploadFile('dropped-once.bin', bytes);
      const seen = since(mark);
      expect(matching(seen, 'PUT', PART(1)).map((s) => s.status)).toEqual([undefined, 204]);
      for (const index of [0, 2])
        expect(matching(seen, 'PUT', PART(index)).map((s) => s.status)).toEqual([204]);
      expect(matching(seen, 'GET', DONE).map((s) => s.status)).toContain(200);
      expect((await openLink(link)).equals(bytes)).toBe(true);
      await page.close();
    });

    it('cut mid-part, an answer lost, the network down a while: the job waits for the network, then completes, sending no held part again', async () => {
      const bytes = randomBytes(SIZE);
      const mark = front.seen.length;
      const marked = ref.server.requests.length;
      // Part 1 breaks off mid-body; part 2 reaches the server whole, its answer lost.
      front.drop.set(1, 1);
      front.dropAnswer.set(2, 1);
      const page = await d.open('upload.html');
      await page.waitFor(FILE_INPUT);
      try {
        await chooseFiles(page, { name: 'resumed.bin', buffer: bytes });
        await until(
          async () => (matching(since(mark), 'PUT', PART(1)).length > 0 ? true : undefined),
          'part 1 cut at the front',
          60_000,
        );
        front.down = true;
        await page
          .waitFor(
            {
              css: 'label[data-waiting="true"]',
              hasText: 'Waiting for the network…',
              within: { css: '.job[data-state="running"]', hasText: 'resumed.bin' },
            },
            { timeout: 60_000 },
          )
          .catch(async (err) => {
            throw new Error(`${(err as Error).message} The jobs showed: ${await jobsShown(page)}`);
          });
      } finally {
        front.down = false;
      }
      await page.waitFor(DONE_LINK, { timeout: 90_000 }).catch(async (err) => {
        const seen = since(mark).map((s) => `${s.method} ${s.path} ${s.status ?? 'cut'}`);
        throw new Error(
          `${(err as Error).message} The jobs showed: ${await jobsShown(page)} The front saw: ${seen.join('; ')}`,
        );
      });
      const link = await page.inputValue(DONE_LINK);
      // The server got each part whole exactly once: part 2, which it held, was not sent again.
      const puts = partPutsAtServer(ref.server.requests.slice(marked));
      expect([...puts.keys()].sort()).toEqual([0, 1, 2]);
      for (const [index, bodies] of puts) expect(bodies, `part ${index}`).toHaveLength(1);
      expect(matching(since(mark), 'PUT', PART(1))).toHaveLength(2);
      expect(matching(since(mark), 'GET', DONE).map((s) => s.status)).toContain(200);
      expect((await openLink(link)).equals(bytes)).toBe(true);
      await page.close();
    });

    it('dropped every time: the job waits for the network; a Cancel while it waits leaves nothing behind', async () => {
      const page = await d.open('upload.html');
      await page.waitFor(FILE_INPUT);
      const before = await historyCount(page);
      const mark = front.seen.length;
      front.drop.set(1, Number.POSITIVE_INFINITY);
      await chooseFiles(page, { name: 'dropped-always.bin', buffer: randomBytes(SIZE) });
      const job = { css: '.job[data-state="running"]', hasText: 'dropped-always.bin' };
      await page
        .waitFor({ css: 'label[data-waiting="true"]', within: job }, { timeout: 60_000 })
        .catch(async (err) => {
          throw new Error(`${(err as Error).message} The jobs showed: ${await jobsShown(page)}`);
        });
      await page.click({ css: 'button', hasText: 'Cancel', within: job });
      await page.waitFor({ css: '.job[data-state="cancelled"]', hasText: 'dropped-always.bin' });
      expect(await historyCount(page)).toBe(before);
      expect(await uploadScratch(page)).toEqual([]);
      await expectSessionAborted(mark);
      await page.close();
    });
  });
});
