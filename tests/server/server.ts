// The reference upload server: both variants of the Teknik Upload API v1 in one node:http server.
// Routes (P = port):
//   POST /v1/Upload?sub=api          legacy upload        GET /<name>?sub=u, /u/<name>          download
//   POST /api/v1/Upload              current upload       GET /<name>/<key>?sub=u, /u/<name>/<key>  delete

import { createReadStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { recipientRoutes } from '../../server/recipient';
import { DOWNLOAD_DATA_PATH, handleDownloadData } from './download-page';
import { handleDelete, handleDownload } from './downloads';
import { dripReply, FaultSwitch, playFault } from './faults';
import { Recorder } from './record';
import { directReply, escapeHtml, replyHtml, replyNotFound } from './responses';
import { type StoredRecord, UploadStore } from './store';
import { createTlsServer, makeTlsIdentity } from './tls';
import type { ReferenceServer, ServerOptions, StoredUpload, Variant } from './types';
import { handleUpload, type Links } from './upload';

export { findInRecorded } from './record';
export type {
  Account,
  DeletionMode,
  Fault,
  RecordedRequest,
  ReferenceServer,
  ServerOptions,
  StoredUpload,
  Variant,
} from './types';

type Route =
  | { kind: 'upload'; variant: Variant }
  | { kind: 'download'; fileName: string }
  | { kind: 'delete'; fileName: string; deletionKey: string }
  | { kind: 'download-data' }
  | { kind: 'index' }
  | { kind: 'none' };

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Paths match case-insensitively, as ASP.NET routes did; file names and keys keep their case. */
function route(method: string, rawUrl: string): Route {
  const url = new URL(rawUrl, 'http://reference.invalid');
  const sub = url.searchParams.get('sub')?.toLowerCase();
  const raw = url.pathname.split('/').filter((s) => s !== '');
  const segments = raw.map(decodeSegment);
  if (segments.some((s) => s === null)) return { kind: 'none' };
  const parts = segments as string[];
  const lower = parts.map((s) => s.toLowerCase());
  const isGet = method === 'GET' || method === 'HEAD';

  const fileRoute = (rest: string[]): Route => {
    if (method === 'POST' && rest.map((s) => s.toLowerCase()).join('/') === 'action/downloaddata')
      return { kind: 'download-data' };
    if (!isGet) return { kind: 'none' };
    if (rest.length === 1) return { kind: 'download', fileName: rest[0] };
    if (rest.length === 2 && method === 'GET')
      return { kind: 'delete', fileName: rest[0], deletionKey: rest[1] };
    return { kind: 'none' };
  };

  if (sub === 'api') {
    const isUpload = method === 'POST' && lower.length === 2 && lower[0] === 'v1' && lower[1] === 'upload';
    return isUpload ? { kind: 'upload', variant: 'legacy' } : { kind: 'none' };
  }
  if (sub === 'u') return fileRoute(parts);
  if (method === 'POST' && lower.length === 3 && lower.join('/') === 'api/v1/upload') {
    return { kind: 'upload', variant: 'current' };
  }
  if (lower[0] === 'u') return fileRoute(parts.slice(1));
  if (isGet && parts.length === 0) return { kind: 'index' };
  return { kind: 'none' };
}

export async function startServer(opts: ServerOptions): Promise<ReferenceServer> {
  const host = opts.host ?? '127.0.0.1';
  const now = opts.now ?? Date.now;
  const dripIntervalMs = opts.dripIntervalMs ?? 20;
  await mkdir(opts.dataDir, { recursive: true });
  const store = new UploadStore(join(opts.dataDir, 'files'));
  await store.init();
  const recorder = opts.record ? new Recorder(opts.dataDir) : null;
  await recorder?.init();
  const faults = new FaultSwitch();
  const stalled = new Set<ServerResponse>();
  const dripTimers = new Set<NodeJS.Timeout>();
  const links: Links = { baseUrl: '', uploadUrl: '' };
  const recipient = recipientRoutes<StoredRecord>({
    find: (name) => store.live(name, now()),
    countView: (record) => {
      record.downloads += 1;
    },
    read: (record) => createReadStream(record.path),
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body: Readable = recorder ? recorder.tap(req) : req;
    const method = req.method ?? 'GET';
    const target = route(method, req.url ?? '/');
    const link = target.kind === 'download' && !opts.downloadPage ? target.fileName : undefined;
    if (await recipient.answer(req, body, res, link)) return;
    if (target.kind !== 'upload' && target.kind !== 'download-data') body.resume();
    const reply = directReply(res);
    switch (target.kind) {
      case 'upload': {
        const fault = faults.take();
        if (fault && fault !== 'drip') {
          await playFault(fault, { req, res, body, reply, maxUploadBytes: opts.maxUploadBytes, stalled });
          return;
        }
        const ctx = {
          variant: target.variant,
          store,
          links,
          accounts: opts.accounts ?? [],
          maxUploadBytes: opts.maxUploadBytes,
          now,
          keyInEveryUrl: opts.keyInEveryUrl,
        };
        await handleUpload(
          ctx,
          req,
          body,
          fault === 'drip' ? dripReply(res, dripIntervalMs, dripTimers) : reply,
        );
        return;
      }
      case 'download':
        await handleDownload(
          {
            store,
            now,
            downloadPage: opts.downloadPage ? `${links.uploadUrl}${DOWNLOAD_DATA_PATH}` : undefined,
          },
          req,
          res,
          target.fileName,
        );
        return;
      case 'download-data':
        await handleDownloadData(store, now(), req, body, res);
        return;
      case 'delete':
        await handleDelete({ store, now, deletion: opts.deletion }, res, target.fileName, target.deletionKey);
        return;
      case 'index':
        replyHtml(
          reply,
          200,
          'Hushdrop reference server',
          `<h1>Hushdrop reference upload server</h1><p>Legacy: POST ${escapeHtml(links.baseUrl)}/v1/Upload?sub=api` +
            `<br>Current: POST ${escapeHtml(links.baseUrl)}/api/v1/Upload</p>`,
        );
        return;
      case 'none':
        replyNotFound(reply);
        return;
    }
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: unknown) => {
      console.error('reference server: request failed', err);
      if (!res.headersSent) replyHtml(directReply(res), 500, 'Error', '<h1>500 — Internal Server Error</h1>');
      else res.destroy();
    });
  };
  const identity = opts.tls ? await makeTlsIdentity(host) : undefined;
  const http2 = opts.tls?.http2 ?? true;
  let server: import('node:net').Server;
  let closeConnections: () => void;
  if (identity) {
    ({ server, closeConnections } = createTlsServer(identity, http2, onRequest));
  } else {
    const plain = createServer({ requestTimeout: 0 }, onRequest);
    server = plain;
    closeConnections = () => plain.closeAllConnections();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  links.baseUrl = `${identity ? 'https' : 'http'}://${hostPart}:${port}`;
  links.uploadUrl = `${links.baseUrl}/u`;

  let tls: ReferenceServer['tls'];
  if (identity) {
    const certificatePath = join(opts.dataDir, 'tls', 'cert.pem');
    await mkdir(join(opts.dataDir, 'tls'), { recursive: true });
    await writeFile(certificatePath, identity.certificatePem);
    tls = {
      certificatePem: identity.certificatePem,
      certificatePath,
      spkiSha256: identity.spkiSha256,
      protocols: http2 ? ['h2', 'http/1.1'] : ['http/1.1'],
    };
  }

  let closing: Promise<void> | null = null;
  return {
    baseUrl: links.baseUrl,
    ...(tls ? { tls } : {}),
    apiUrl: `${links.baseUrl}/api`,
    uploadUrl: links.uploadUrl,
    requests: recorder?.requests ?? [],
    setFault: (fault, faultOpts) => faults.set(fault, faultOpts),
    stored(fileName: string): StoredUpload | undefined {
      const record = store.get(fileName);
      if (!record) return undefined;
      const { expiresAt: _internal, ...upload } = record;
      return upload;
    },
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of dripTimers) clearInterval(timer);
        dripTimers.clear();
        server.close(() => resolve());
        // Ends keep-alive, stalled and in-flight connections alike, so close() never waits on a client.
        closeConnections();
      });
      return closing;
    },
  };
}
