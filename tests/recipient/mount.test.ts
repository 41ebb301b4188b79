// The recipient routes on their own, mounted into a bare node:http server that reads every small body
// itself before it asks them (as the product server bounds bodies), over a store kept in a Map.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RecipientUpload, recipientRoutes } from '../../server/recipient';

interface Upload extends RecipientUpload {
  bytes: Buffer;
  downloads: number;
}
const uploads = new Map<string, Upload>();
uploads.set('AbCdE.bin', {
  fileName: 'AbCdE.bin',
  originalName: 'a.bin',
  contentType: 'application/octet-stream',
  contentLength: 4,
  iv: 'VY3CdcZ6gKGKHh0T',
  key: null,
  bytes: Buffer.from([1, 2, 3, 4]),
  downloads: 0,
});
const routes = recipientRoutes<Upload>({
  find: async (name) => uploads.get(name),
  countView: (u) => {
    u.downloads += 1;
  },
  read: (u) => Readable.from([u.bytes]),
});

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer(async (req, res) => {
    // Read the body first, whole, as a server that bounds bodies does.
    for await (const _ of req);
    const name = /^\/u\/([^/]+)$/.exec(req.url ?? '')?.[1];
    if (!(await routes.answer(req, req, res, req.method === 'GET' ? name : undefined))) {
      res.writeHead(418);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

it('answers its own requests even when the body was read before, and leaves the rest', async () => {
  const page = await fetch(`${base}/u/AbCdE.bin`);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  const bytes = await fetch(`${base}/_hushdrop/file/AbCdE.bin`, { method: 'POST', body: 'file=AbCdE.bin' });
  expect(Buffer.from(await bytes.arrayBuffer())).toEqual(Buffer.from([1, 2, 3, 4]));
  expect(uploads.get('AbCdE.bin')!.downloads).toBe(1);
  expect((await fetch(`${base}/u/Other.bin`)).status).toBe(418);
  expect((await fetch(`${base}/v1/Upload`, { method: 'POST', body: 'x' })).status).toBe(418);
});
