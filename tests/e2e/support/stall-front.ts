// A front for the reference server that passes every request through, except that the stored
// bytes of a download (`POST /_hushdrop/file/…`) stop after their first `after` bytes and wait
// there until the scenario releases them: a download held mid-way, for as long as a step needs.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deferred } from '../../../lib/deferred';

export interface StallFront {
  /** The front's origin: a page opened here fetches its stored bytes through the front. */
  origin: string;
  /** Settles once a download's first `after` bytes went out and the rest is held. */
  stalled: Promise<void>;
  /** Lets the held download go on (its browser may have dropped it by then). */
  release(): void;
  close(): Promise<void>;
}

const STORED = /^\/_hushdrop\/file\//;

export async function startStallFront(server: URL, after: number): Promise<StallFront> {
  const stalled = deferred<void>();
  const released = deferred<void>();
  const proxy: Server = createServer((req, res) => {
    const upstream = request(
      { host: server.hostname, port: server.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (!STORED.test(req.url ?? '')) return void answer.pipe(res);
        let sent = 0;
        let held = false;
        answer.on('data', (chunk: Buffer) => {
          const room = after - sent;
          if (held || chunk.length <= room) {
            sent += chunk.length;
            res.write(chunk);
            return;
          }
          res.write(chunk.subarray(0, room));
          sent = after;
          held = true;
          answer.pause();
          stalled.resolve();
          void released.promise.then(() => {
            res.write(chunk.subarray(room));
            answer.resume();
          });
        });
        answer.on('end', () => res.end());
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    stalled: stalled.promise,
    release: () => released.resolve(),
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}
