// An upload as the server's own page makes it (lib/upload/page-upload.ts), against the real server in
// this process, its requests recorded: the variant the page picks from the info answer, parts for
// every size where the server takes them, one request where it does not, "Delete after", and an
// account where the server requires one. fetch stands in for the page's XMLHttpRequest.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eceDecryptBytes } from '../../lib/crypto';
import { parseShareLink } from '../../lib/crypto/link';
import { type PageUploadArgs, pageTarget, uploadFromPage } from '../../lib/upload/page-upload';
import { readServerInfo } from '../../lib/upload/server-info';
import { readServerKind } from '../../lib/upload/server-kind';
import { fetchTransport } from '../../lib/upload/transport';
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
