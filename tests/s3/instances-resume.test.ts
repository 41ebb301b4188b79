// An upload in parts resumes when the instance that took its first parts is gone (issue 33): two server
// processes on one S3 store behind one front, as a load balancer runs them. The instance that took the
// Start and the first parts is killed (SIGKILL) while two parts are in flight to it; the runner
// (lib/upload/parts-runner.ts) waits, asks which parts the store holds, now through the survivor, sends
// only the others, and Done; the file downloads whole from the survivor.
//
// The front sends every request to the first instance it has not found dead. A request it cannot
// connect with (connection refused) has reached no instance, so it is sent to the next one, as nginx's
// `proxy_next_upstream error` does: that is a balancer's failover, and asking again is harmless. A
// request whose instance dies after it got there is cut at the client, as a balancer must: the front
// cannot know what the instance did with it, and the client's resuming is what is under test.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedBytes } from '../../devkit/stored-bytes';
import { eceDecryptBytes } from '../../lib/crypto';
import { newFileCipher } from '../../lib/crypto/file-cipher';
import { deferred } from '../../lib/deferred';
import { MIN_PART_BYTES } from '../../lib/upload/parts';
import { Declined } from '../../lib/upload/plan';
import type { UploadTarget } from '../../lib/upload/types';
import type { ProductServer } from '../server/product-cli';
import { type ProductStore, productStore, startProductOn } from '../server/product-store';
import { sealedPartsUpload } from '../upload/sealed-parts';

const PART = MIN_PART_BYTES;
/** `…/Parts/<id>/<index>`: a part's PUT. */
const PART_PUT = /\/Upload\/Parts\/[A-Za-z0-9]+\/(\d+)\?sub=api$/;
/** `…/Parts/<id>`: held parts (GET), Done (POST). */
const SESSION = /\/Upload\/Parts\/[A-Za-z0-9]+\?sub=api$/;
/** A held part's last bytes stay at the front: the instance waits for them with the part open. */
const HELD_BACK = 64 * 1024;

interface Seen {
  method: string;
  path: string;
  /** Which instance (0, 1) the front sent it to, last. */
  to?: number;
  status?: number;
}

/**
 * The front: each request, its body read whole first (as nginx buffers one), to the first instance not
 * found dead. A PUT of a part in `hold` is sent to it all but its last bytes, and stays open there.
 */
async function startFailoverFront(instances: ProductServer[], hold: Set<number>) {
  const seen: Seen[] = [];
  const dead = new Set<number>();
  const held = new Map<number, ReturnType<typeof deferred<void>>>([...hold].map((i) => [i, deferred()]));

  const send = (entry: Seen, req: IncomingMessage, body: Buffer, res: ServerResponse) => {
    const to = instances.findIndex((_, i) => !dead.has(i));
    if (to < 0) return void res.destroy();
    entry.to = to;
    const target = new URL(instances[to]!.listenUrl);
    // A connection of its own each time: a pooled one to a dead instance would fail otherwise than refused.
    const upstream = request({
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent: false,
    });
    let answered = false;
    upstream.on('response', (answer) => {
      answered = true;
      entry.status = answer.statusCode;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (!answered && err.code === 'ECONNREFUSED') {
        dead.add(to);
        send(entry, req, body, res);
      } else res.destroy();
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    const index = req.method === 'PUT' ? PART_PUT.exec(req.url ?? '')?.[1] : undefined;
    const holding = index !== undefined && hold.delete(Number(index));
    if (!holding) return void upstream.end(body);
    upstream.write(body.subarray(0, body.length - HELD_BACK), () => held.get(Number(index))!.resolve());
  };

  const http = createServer((req, res) => {
    const entry: Seen = { method: req.method ?? '', path: req.url ?? '/' };
    seen.push(entry);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => send(entry, req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((ready) => http.listen(0, '127.0.0.1', ready));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const first = instances[0]!;
  const target: UploadTarget = {
    variant: 'legacy',
    addresses: {
      baseUrl: origin,
      apiUrl: `${origin}${new URL(first.apiUrl).pathname.replace(/\/$/, '')}`,
      uploadUrl: first.uploadUrl,
    },
  };
  return {
    target,
    seen,
    /** Resolves once every held part has been sent to its instance (all but its last bytes). */
    allHeld: Promise.all([...held.values()].map((d) => d.promise)),
    /** Index → the instances each PUT of that part went to, in order. */
    partPuts(): Map<number, number[]> {
      const by = new Map<number, number[]>();
      for (const r of seen) {
        const index = r.method === 'PUT' ? PART_PUT.exec(r.path)?.[1] : undefined;
        if (index !== undefined) by.set(Number(index), [...(by.get(Number(index)) ?? []), r.to!]);
      }
      return by;
    },
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((done) => http.close(() => done()));
    },
  };
}

let scratch: string;
let store: ProductStore;
const instances: ProductServer[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'hushdrop-instances-resume-'));
  store = await productStore(join(scratch, 'data'));
  const config = join(scratch, 'config.json');
  await writeFile(
    config,
    JSON.stringify({
      limits: { requestsPerMinute: 0, uploadsPerHourPerAddress: 0, uploadBytesPerDayPerAddress: 0 },
      parts: { partSizeMiB: PART / 2 ** 20, sessionsPerAddress: 0 },
    }),
  );
  // Two processes on one store (one bucket and prefix), each with a data folder of its own.
  instances.push(
    ...(await Promise.all(
      ['a', 'b'].map((name) => startProductOn(store, { CONFIG: config, DATA_DIR: join(scratch, name) })),
    )),
  );
});
afterAll(async () => {
  for (const instance of instances.splice(0)) await instance.stop('SIGKILL');
  await store?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('an upload in parts over two instances of one store, behind one front', () => {
  it('the instance holding its first parts killed mid-part: it resumes through the other, sends no held part again, and the file is whole', async () => {
    const [a, b] = instances as [ProductServer, ProductServer];
    // Five parts. Parts 0 and 1 reach A and are stored; 2 and 3 (the runner sends two at once) are held
    // open at A when it is killed; 4 is not sent yet.
    const front = await startFailoverFront(instances, new Set([2, 3]));
    try {
      const plain = new Uint8Array(randomBytes(4 * PART + PART / 2));
      const cipher = newFileCipher('ece');
      const waiting: boolean[] = [];
      const outcome = sealedPartsUpload(front.target, plain, { onWaiting: (w) => waiting.push(w) }, cipher);
      await Promise.race([
        front.allHeld,
        outcome.then(() => {
          throw new Error('The upload ended before parts 2 and 3 were held at instance A.');
        }),
      ]);
      expect(front.partPuts()).toEqual(
        new Map([
          [0, [0]],
          [1, [0]],
          [2, [0]],
          [3, [0]],
        ]),
      );
      expect(front.seen.filter((r) => r.method === 'PUT' && r.status === 204)).toHaveLength(2);
      expect(waiting).toEqual([]);

      await a.stop('SIGKILL');
      expect(a.child.signalCode).toBe('SIGKILL');

      const sent = await outcome;
      if (sent instanceof Declined) throw new Error(`declined: ${sent.reason}`);
      // Parts 0 and 1, which the store held, were sent once (to A); 2 and 3 again, and 4, to B only.
      expect(front.partPuts()).toEqual(
        new Map([
          [0, [0]],
          [1, [0]],
          [2, [0, 1]],
          [3, [0, 1]],
          [4, [1]],
        ]),
      );
      // It waited, asked B which parts are held (A refused the connection), and Done went to B. (Both
      // cut parts wait for one answer, unless the second cut comes only after it: not counted here.)
      expect(waiting[0]).toBe(true);
      expect(waiting.at(-1)).toBe(false);
      const session = (method: string) =>
        front.seen.filter((r) => r.method === method && SESSION.test(r.path)).map((r) => [r.to, r.status]);
      expect(session('GET').length).toBeGreaterThan(0);
      expect(new Set(session('GET').map(String))).toEqual(new Set(['1,200']));
      expect(session('POST')).toEqual([[1, 200]]);

      // Downloaded from the survivor as the recipient page does (the link's page, then its POST).
      const got = await storedBytes(`${b.uploadUrl}/${sent.result.fileName}`);
      expect([got.status, got.viaPage]).toEqual([200, true]);
      const secret = (cipher as { secret: Uint8Array }).secret;
      const opened = await eceDecryptBytes(got.bytes, secret);
      expect(Buffer.from(opened).equals(Buffer.from(plain))).toBe(true);
      // Nothing of the session is left in the store but Done's answer, kept for a repeated Done until the
      // session's expiry: no open write, no address record.
      const left = await store.contents();
      expect(left.inProgress).toBe(0);
      const done = front.seen.find((r) => r.method === 'POST' && SESSION.test(r.path))!;
      expect(left.records.filter((key) => key.startsWith('parts-'))).toEqual([
        `parts-${/\/Parts\/([A-Za-z0-9]+)\?/.exec(done.path)![1]}`,
      ]);
      expect(left.blobs).toHaveLength(1);
    } finally {
      await front.close();
    }
  });
});
