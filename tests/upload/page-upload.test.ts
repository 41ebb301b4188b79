// An upload as the server's own page makes it (lib/upload/page-upload.ts), against the real server in
// this process, its requests recorded: the variant the page picks from the info answer, parts for
// every size where the server takes them, one request where it does not, "Delete after", and an
// account where the server requires one. fetch stands in for the page's XMLHttpRequest.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eceDecryptBytes } from '../../lib/crypto';
import { parseShareLink } from '../../lib/crypto/link';
import { deferred } from '../../lib/deferred';
import { UploadError } from '../../lib/upload/errors';
import {
  type PagePart,
  type PageUploadArgs,
  pageTarget,
  resumeFromPage,
  uploadFromPage,
} from '../../lib/upload/page-upload';
import type { PartsExchange } from '../../lib/upload/parts-runner';
import { Declined } from '../../lib/upload/plan';
import { firstPartDigest, readRecord, recordText } from '../../lib/upload/resume-record';
import { readServerInfo } from '../../lib/upload/server-info';
import { readServerKind } from '../../lib/upload/server-kind';
import { fetchTransport } from '../../lib/upload/transport';
import { partPutsAtServer } from '../e2e/support/parts-front';
import { serversStoppedAfterEach, storedFiles } from '../server/test-helpers';
import { fetchExchange } from './fetch-exchange';

const start = serversStoppedAfterEach();
const PART = 5 * 1024 * 1024;

/** A server, and what its page would know of it: the info answer, read as the page reads it. */
async function server(opts: Parameters<typeof start>[0] = {}) {
  const s = await start({
    record: true,
    ...opts,
    settings: {
      parts: { partBytes: PART, sessionLifetimeMs: 3_600_000, sessionsPerAddress: 0 },
      ...opts.settings,
    },
  });
  const json = await (await fetch(`${s.server.baseUrl}/_hushdrop/info`)).json();
  const info = readServerInfo(json, `${s.server.baseUrl}/`)!;
  return { s: s.server, to: pageTarget(info)!, takesParts: readServerKind(json).parts };
}

function args(
  at: Awaited<ReturnType<typeof server>>,
  plain: Uint8Array<ArrayBuffer>,
  more: Partial<PageUploadArgs> = {},
): PageUploadArgs {
  return {
    file: new Blob([plain]),
    name: 'Foto vom Fest.jpg',
    type: 'image/jpeg',
    to: at.to,
    takesParts: at.takesParts,
    exchange: fetchExchange,
    transport: fetchTransport(fetch),
    ...more,
  };
}

/** The stored bytes of a link, opened with its secret: the file as it was chosen. */
async function opened(at: Awaited<ReturnType<typeof server>>, link: string): Promise<Buffer> {
  const parsed = parseShareLink(link);
  if (parsed.format !== 'ece') throw new Error(`not an authenticated link: ${link}`);
  const name = new URL(link).pathname.split('/').pop()!;
  const stored = await at.s.stored(name);
  return Buffer.from(await eceDecryptBytes(new Uint8Array(await stored!.bytes()), parsed.secret));
}

const PART_PUT = /\/Upload\/Parts\/[A-Za-z0-9]+\/\d+\?sub=api$/;

describe('an upload from the server’s page', () => {
  it('a small file goes in one part, in the authenticated format, and its link opens it', async () => {
    const at = await server();
    expect(at.to.variant).toBe('legacy');
    expect(at.takesParts).toBe(true);
    const plain = new Uint8Array(randomBytes(1000));
    const up = await uploadFromPage(args(at, plain));
    expect(up.link).toMatch(/#ece1\.[A-Za-z0-9_-]{22}$/);
    expect(at.s.requests.filter((r) => r.method === 'PUT' && PART_PUT.test(r.url))).toHaveLength(1);
    expect(at.s.requests.filter((r) => /\/v1\/Upload\?sub=api$/.test(r.url))).toEqual([]);
    expect((await opened(at, up.link)).equals(Buffer.from(plain))).toBe(true);
    // The deletion link deletes it.
    expect(up.deletion).toMatch(/\?sub=u$/);
    expect((await fetch(up.deletion!)).status).toBe(200);
    expect(await storedFiles(at.s)).toEqual([]);
  });

  it('a file of several parts is read as it is sent, each part once; progress reaches the whole', async () => {
    const at = await server();
    const plain = new Uint8Array(randomBytes(2 * PART + 99));
    const shares: number[] = [];
    const up = await uploadFromPage(args(at, plain, { onProgress: (p) => shares.push(p.done / p.total) }));
    expect(at.s.requests.filter((r) => r.method === 'PUT' && PART_PUT.test(r.url))).toHaveLength(3);
    expect((await opened(at, up.link)).equals(Buffer.from(plain))).toBe(true);
    expect(shares.at(-1)).toBe(1);
  });

  it('“Delete after 1 download” reaches the server', async () => {
    const at = await server();
    expect(at.to.expiry).toContain('view');
    const up = await uploadFromPage(
      args(at, new Uint8Array(randomBytes(10)), { expiry: { unit: 'view', length: 1 } }),
    );
    expect((await at.s.stored(up.result.fileName))?.maxDownloads).toBe(1);
  });

  it('a server without parts gets one request, and the link opens the same', async () => {
    const at = await server({ noParts: true });
    expect(at.takesParts).toBe(false);
    const plain = new Uint8Array(randomBytes(70_000));
    const up = await uploadFromPage(args(at, plain));
    expect(at.s.requests.filter((r) => r.method === 'PUT')).toEqual([]);
    expect((await opened(at, up.link)).equals(Buffer.from(plain))).toBe(true);
  });

  it('a server that requires an account: the current variant, refused without one, taken with it', async () => {
    const at = await server({
      accounts: [{ username: 'anna', token: 'tok-anna-123456' }],
      settings: { requireAccount: true },
    });
    expect(at.to).toMatchObject({ variant: 'current', needsAccount: true });
    const plain = new Uint8Array(randomBytes(2000));
    await expect(uploadFromPage(args(at, plain))).rejects.toMatchObject({ name: 'UploadError', status: 401 });
    const up = await uploadFromPage(
      args(at, plain, { credentials: { username: 'anna', token: 'tok-anna-123456' } }),
    );
    expect((await opened(at, up.link)).equals(Buffer.from(plain))).toBe(true);
  });

  it('a Cancel ends it with nothing stored', async () => {
    const at = await server();
    const cancel = new AbortController();
    const outcome = uploadFromPage(
      args(at, new Uint8Array(randomBytes(3 * PART)), {
        signal: cancel.signal,
        onProgress: (p) => {
          if (p.done >= PART) cancel.abort();
        },
      }),
    );
    await expect(outcome).rejects.toMatchObject({ name: 'UploadError', kind: 'aborted' });
    expect(await storedFiles(at.s)).toEqual([]);
  });
});

describe('an upload in parts resumed after a reload', () => {
  const PART_INDEX = /\/Upload\/Parts\/[A-Za-z0-9]+\/(\d+)\?sub=api$/;
  const START = /\/Upload\/Parts\?sub=api$/;

  /**
   * The page's first life: it uploads a file of four parts until the server holds every part but part
   * 2, whose request never ends; then the page is reloaded (its requests fail, and its Abort never
   * arrives). What it kept of the session at Start is read back as the page reads its stored text.
   */
  async function brokenOff(at: Awaited<ReturnType<typeof server>>, plain: Uint8Array<ArrayBuffer>) {
    const file = new File([plain], 'Urlaub am Meer.mov', { lastModified: 1_700_000_000_000 });
    const reloaded = () => new UploadError('http', 'The page was reloaded.', { status: 400 });
    let gone = false;
    const partTwo = deferred<never>();
    const held = new Set<number>();
    const allButTwo = deferred<void>();
    const exchange: PartsExchange<PagePart> = async (req, options) => {
      if (gone) throw reloaded();
      const index = req.method === 'PUT' ? PART_INDEX.exec(req.url)?.[1] : undefined;
      if (index === '2') return partTwo.promise;
      const answer = await fetchExchange(req, options);
      if (index !== undefined && answer.status === 204) held.add(Number(index));
      if (held.size === 3) allButTwo.resolve();
      return answer;
    };
    let stored: string | undefined;
    const first = uploadFromPage(
      args(at, plain, {
        file,
        name: file.name,
        exchange,
        async onSession(session, cipher) {
          const { name, size, lastModified } = file;
          const firstPart = await firstPartDigest(file, session.partBytes);
          stored = recordText({
            session,
            variant: at.to.variant,
            cipher,
            file: { name, size, lastModified, firstPart },
          });
        },
      }),
    );
    await allButTwo.promise;
    gone = true;
    partTwo.reject(reloaded());
    await expect(first).rejects.toThrow('The page was reloaded.');
    const record = readRecord(stored);
    if (!record) throw new Error('no record was kept');
    return { file, record };
  }

  it('sends only the part the server does not hold, and the link opens the file', async () => {
    const at = await server();
    const plain = new Uint8Array(randomBytes(3 * PART + 1000));
    const { file, record } = await brokenOff(at, plain);
    expect(record.session.parts).toBe(4);
    const mark = at.s.requests.length;
    const shares: number[] = [];
    const resumed = await resumeFromPage(
      args(at, plain, { file, name: file.name, onProgress: (p) => shares.push(p.done / p.total) }),
      record,
    );
    if (resumed instanceof Declined) throw new Error(`declined: ${resumed.reason}`);
    // Each part reached the server once, over both lives; the second sent part 2 only, and no Start.
    const puts = partPutsAtServer(at.s.requests);
    expect([...puts.keys()].sort()).toEqual([0, 1, 2, 3]);
    for (const [index, bodies] of puts) expect(bodies, `part ${index}`).toHaveLength(1);
    const again = at.s.requests.slice(mark);
    expect(again.filter((r) => r.method === 'PUT').map((r) => PART_INDEX.exec(r.url)?.[1])).toEqual(['2']);
    expect(again.filter((r) => r.method === 'POST' && START.test(r.url))).toEqual([]);
    expect(shares.at(-1)).toBe(1);
    expect((await opened(at, resumed.link)).equals(Buffer.from(plain))).toBe(true);
  });

  it('a session the server no longer holds is declined with nothing sent: the file goes as a new upload', async () => {
    const at = await server();
    const plain = new Uint8Array(randomBytes(3 * PART + 1000));
    const { file, record } = await brokenOff(at, plain);
    // The session goes, as the sweeper removes an expired one.
    const url = `${at.s.baseUrl}/v1/Upload/Parts/${record.session.id}?sub=api`;
    expect((await fetch(url, { method: 'DELETE' })).status).toBe(204);
    const mark = at.s.requests.length;
    const resumed = await resumeFromPage(args(at, plain, { file, name: file.name }), record);
    expect(resumed).toBeInstanceOf(Declined);
    expect((resumed as Declined).reason).toBe('session gone');
    expect(at.s.requests.slice(mark).map((r) => r.method)).toEqual(['GET']);
    expect(await storedFiles(at.s)).toEqual([]);
  });

  it('a Cancel before the held parts are known aborts the session: nothing is left', async () => {
    const at = await server();
    const plain = new Uint8Array(randomBytes(3 * PART + 1000));
    const { file, record } = await brokenOff(at, plain);
    const cancel = new AbortController();
    cancel.abort();
    const resumed = resumeFromPage(args(at, plain, { file, name: file.name, signal: cancel.signal }), record);
    await expect(resumed).rejects.toMatchObject({ name: 'UploadError', kind: 'aborted' });
    const url = `${at.s.baseUrl}/v1/Upload/Parts/${record.session.id}?sub=api`;
    expect((await fetch(url)).status).toBe(404);
    expect((await at.s.storedBlobs()).inProgress).toBe(0);
  });
});
