// The README's way to run a Hushdrop server for other people: its config example, started as written
// (the environment moves the data folder, port and log into a temporary folder), behind a TLS reverse
// proxy that does what the README's nginx snippet does. Links come out with the public https address,
// the log names the address the proxy reports, and a client cannot choose its own address. On the `s3`
// project the environment puts the uploads in S3 too, as the README's S3 section does (product-store.ts).

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTlsIdentity, type TlsIdentity } from '../../devkit/tls';
import type { ProductServer } from './product-cli';
import { type ProductStore, productStore, startProductOn } from './product-store';
import { bytesOf, form } from './test-helpers';

const README = join(__dirname, '..', '..', 'README.md');
const PUBLIC = 'https://drop.example.org';

/** The JSON block right after the README's marker for the tested config example. */
async function readmeConfig(): Promise<Record<string, unknown>> {
  const text = await readFile(README, 'utf8');
  const marker = text.indexOf('<!-- tested config example -->');
  expect(marker).toBeGreaterThan(0);
  const block = /```json\n([\s\S]*?)\n```/.exec(text.slice(marker))!;
  return JSON.parse(block[1]!);
}

let scratch: string;
let server: ProductServer;
let store: ProductStore;
let proxy: Server;
let proxyUrl: string;
let identity: TlsIdentity;
let accessLog: string;

/** A TLS front like the README's nginx: it sets X-Forwarded-For/-Proto/-Host itself, whatever the client sent. */
function startProxy(upstream: string): Promise<Server> {
  const target = new URL(upstream);
  const front = createHttpsServer({ key: identity.keyPem, cert: identity.certificatePem }, (req, res) => {
    const headers = { ...req.headers };
    headers['x-forwarded-for'] = req.socket.remoteAddress!;
    headers['x-forwarded-proto'] = 'https';
    headers['x-forwarded-host'] = new URL(PUBLIC).host;
    const out = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  return new Promise((resolve) => front.listen(0, '127.0.0.1', () => resolve(front)));
}

/** A request through the proxy from `localAddress` (another loopback address than the proxy's own). */
function viaProxy(
  path: string,
  init: { method?: string; body?: Buffer; headers?: Record<string, string> } = {},
): Promise<{ status: number; text: string; headers: IncomingMessage['headers'] }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      `${proxyUrl}${path}`,
      {
        method: init.method ?? 'GET',
        headers: init.headers,
        ca: identity.certificatePem,
        localAddress: '127.0.0.2',
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode!, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

async function formBody(data: FormData): Promise<{ body: Buffer; type: string }> {
  const req = new Request('http://form.invalid/', { method: 'POST', body: data });
  return { body: Buffer.from(await req.arrayBuffer()), type: req.headers.get('content-type')! };
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'hushdrop-deploy-'));
  const config = join(scratch, 'config.json');
  await writeFile(config, JSON.stringify(await readmeConfig()));
  accessLog = join(scratch, 'access.log');
  identity = await makeTlsIdentity('127.0.0.1');
  store = await productStore(join(scratch, 'data'));
  server = await startProductOn(store, {
    CONFIG: config,
    PORT: '0',
    ACCESS_LOG: accessLog,
  });
  proxy = await startProxy(server.listenUrl);
  proxyUrl = `https://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await server?.stop();
  // Without a proxy (the server did not start), `proxy?.close(resolve)` would never resolve.
  if (proxy) await new Promise((resolve) => proxy.close(resolve));
  await store?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('the README’s config example behind a TLS proxy', () => {
  it('prints the public addresses, and answers uploads with https links that work through the proxy', async () => {
    expect([server.baseUrl, server.apiUrl, server.uploadUrl]).toEqual([
      PUBLIC,
      `${PUBLIC}/api`,
      `${PUBLIC}/u`,
    ]);
    const { body, type } = await formBody(
      form({
        encrypt: 'false',
        genDeletionKey: 'true',
        file: { bytes: bytesOf('through the proxy'), name: 'p.txt' },
      }),
    );
    const made = await viaProxy('/api/v1/Upload', {
      method: 'POST',
      body,
      headers: { 'Content-Type': type, 'X-Forwarded-For': '198.51.100.99' },
    });
    expect(made.status).toBe(200);
    const result = JSON.parse(made.text).result;
    expect(result.url).toBe(`${PUBLIC}/u/${result.fileName}`);
    const path = new URL(result.url).pathname;
    expect((await viaProxy(path)).text).toBe('through the proxy');

    const info = JSON.parse((await viaProxy('/_hushdrop/info')).text);
    expect(info).toMatchObject({
      server: 'hushdrop',
      variants: {
        legacy: { base_url: PUBLIC },
        current: { api_url: `${PUBLIC}/api`, upload_url: `${PUBLIC}/u` },
      },
      maxAgeSeconds: 30 * 86400,
    });
    await viaProxy(`${path}/${result.deletionKey}`);
    // The deletion link through the proxy removed the one upload from the store, record and bytes.
    expect(await store.contents()).toEqual({ records: [], blobs: [], inProgress: 0 });
    // Secrets where a careless client might put them: a token, a key in the query and in the path.
    const token = 'tokenTOKENtoken1234567890';
    const key = 'abcdefghijklmnopqrstuvwxyzABCDEF';
    await viaProxy('/api/v1/Upload', {
      method: 'POST',
      body,
      headers: {
        'Content-Type': type,
        Authorization: `Basic ${Buffer.from(`alice:${token}`).toString('base64')}`,
      },
    });
    await viaProxy(`${path}?key=${key}`);
    await viaProxy(`/u/${key}`);

    // The log names the address the proxy reported, never the one the client claimed; and no key.
    await server.stop();
    const log = await readFile(accessLog, 'utf8');
    expect(log).toMatch(/ 127\.0\.0\.2 POST upload-current 200 /);
    expect(log).not.toContain('198.51.100.99');
    expect(log).not.toContain(result.deletionKey);
    expect(log).not.toContain(result.fileName);
    for (const secret of [token, key, Buffer.from(`alice:${token}`).toString('base64')])
      expect(log).not.toContain(secret);
    expect(log.trim().split('\n')).toHaveLength(7);
  });
});
