// The test server: the Hushdrop server (server/) wrapped with what only tests need, through the product's
// test seams: injected faults on the upload endpoints, a recording of every request, and imitations of
// old Teknik servers (a key in every URL, other deletion wordings, Teknik's download page). None of this
// exists in server/, so no deployment can switch it on.

import { mkdir, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { makeTlsIdentity } from '../../devkit/tls';
import { hashToken } from '../../server/accounts/tokens';
import type { ApiContext } from '../../server/api/context';
import { checkDeletion, DOWNLOAD_DATA_PATH, replyDeletionPage } from '../../server/api/downloads';
import { serverInfo } from '../../server/api/info';
import { handleUpload } from '../../server/api/upload';
import type { Exchange, Seams } from '../../server/app';
import { defaultSettings, NO_LIMITS, type ServerSettings } from '../../server/config/settings';
import { drain } from '../../server/http/body';
import { directReply, jsonBody, type Reply, replyJson, replyNotFound } from '../../server/http/responses';
import { startServer as startHushdrop } from '../../server/server';
import { replyDownloadPage, servesPage } from './download-page';
import { dripReply, droppedReply, FaultSwitch, playFault } from './faults';
import { Recorder } from './record';
import { s3ForTestServer } from './storage-under-test';
import { listStoredBlobs, readStored } from './stored';
import type { DeletionMode, ReferenceServer, ServerOptions } from './types';

export { findInRecorded } from './record';
export type {
  Account,
  DeletionMode,
  Fault,
  RecordedRequest,
  ReferenceServer,
  ServerOptions,
  StoredBlobs,
  StoredUpload,
  Variant,
} from './types';

/** A reply that adds `#key` to the result's url whenever there is a key (Teknik 2016–2018). */
function keyInEveryUrlReply(reply: Reply): Reply {
  return (status, headers, body) => {
    let json: any;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      return reply(status, headers, body);
    }
    const result = json?.result;
    if (result && typeof result.key === 'string' && !String(result.url).includes('#')) {
      result.url = `${result.url}#${result.key}`;
      return reply(status, headers, jsonBody(json));
    }
    reply(status, headers, body);
  };
}

/** Deletion links answered in another server's words, or "deleted" while the file stays. */
async function deleteInOtherWords(
  ctx: ApiContext,
  res: ServerResponse,
  mode: Exclude<DeletionMode, 'teknik'>,
  fileName: string,
  deletionKey: string,
): Promise<void> {
  const reply = directReply(res);
  const check = await checkDeletion(ctx, fileName, deletionKey);
  if (!check.found) return replyNotFound(reply);
  if (mode === 'keeps-file') return replyDeletionPage(reply, fileName, check.allowed);
  if (check.allowed) await ctx.uploads.remove(check.record);
  reply(
    200,
    { 'Content-Type': 'text/plain; charset=utf-8' },
    Buffer.from(check.allowed ? 'File deleted' : 'Wrong deletion key'),
  );
}

export async function startServer(opts: ServerOptions): Promise<ReferenceServer> {
  const host = opts.host ?? '127.0.0.1';
  await mkdir(opts.dataDir, { recursive: true });
  const recorder = opts.record ? new Recorder(opts.dataDir) : null;
  await recorder?.init();
  const faults = new FaultSwitch();
  const stalled = new Set<ServerResponse>();
  const dripTimers = new Set<NodeJS.Timeout>();
  const dripIntervalMs = opts.dripIntervalMs ?? 20;

  const base = defaultSettings(opts.dataDir);
  const settings: ServerSettings = {
    ...base,
    host,
    port: opts.port ?? 0,
    maxUploadBytes: opts.maxUploadBytes,
    accounts: await Promise.all(
      (opts.accounts ?? []).map(async (a) => ({ username: a.username, tokenHash: await hashToken(a.token) })),
    ),
    limits: NO_LIMITS,
    accessLog: 'off',
    // Expiry is also enforced on access; a test that is about the sweeper sets its own interval.
    sweepIntervalMs: 3_600_000,
    // A store given in `settings` (tests/server/main.ts from STORAGE_URL) wins over the suite's.
    s3: opts.settings && 's3' in opts.settings ? opts.settings.s3 : await s3ForTestServer(),
    ...opts.settings,
    parts: { ...base.parts, ...opts.settings?.parts },
  };

  const intercept = async (x: Exchange, ctx: ApiContext): Promise<boolean> => {
    const { route, res } = x;
    if (opts.noParts && route.kind.startsWith('parts-')) {
      await drain(x.body);
      replyNotFound(x.reply);
      return true;
    }
    if (opts.noParts && route.kind === 'info') {
      // An older Hushdrop's answer: the same, without `parts`.
      const { parts: _, ...older } = serverInfo(ctx.settings, x.links);
      replyJson(x.reply, 200, older, { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-cache' });
      return true;
    }
    if (route.kind === 'upload') {
      const fault = faults.take();
      if (fault && fault !== 'drip' && fault !== 'answer-then-drop') {
        await playFault(fault, {
          req: x.req,
          res,
          body: x.body,
          reply: x.reply,
          maxUploadBytes: opts.maxUploadBytes,
          stalled,
        });
        return true;
      }
      if (!fault && !opts.keyInEveryUrl) return false;
      let reply =
        fault === 'drip'
          ? dripReply(res, dripIntervalMs, dripTimers)
          : fault === 'answer-then-drop'
            ? droppedReply(res)
            : x.reply;
      if (opts.keyInEveryUrl) reply = keyInEveryUrlReply(reply);
      await handleUpload(ctx, { ...x, variant: route.variant, reply });
      return true;
    }
    if (route.kind === 'download' && opts.downloadPage) {
      const record = await ctx.uploads.find(route.fileName);
      if (!record || !servesPage(record)) return false;
      // The page is not the file: the bytes come from DownloadData, which counts the view.
      replyDownloadPage(res, record, `${x.links.uploadUrl}${DOWNLOAD_DATA_PATH}`);
      return true;
    }
    if (route.kind === 'delete' && opts.deletion && opts.deletion !== 'teknik') {
      await deleteInOtherWords(ctx, res, opts.deletion, route.fileName, route.deletionKey);
      return true;
    }
    return false;
  };
  const seams: Seams = { intercept, ...(recorder ? { tapBody: (req) => recorder.tap(req) } : {}) };

  const identity = opts.tls ? await makeTlsIdentity(host) : undefined;
  const http2 = opts.tls?.http2 ?? true;
  const hushdrop = await startHushdrop(settings, {
    now: opts.now,
    seams,
    ...(identity ? { tlsCredentials: { ...identity, http2 } } : {}),
    ...(opts.onSweep ? { onSweep: opts.onSweep } : {}),
  });

  let tls: ReferenceServer['tls'];
  if (identity) {
    const certificatePath = join(opts.dataDir, 'tls', 'cert.pem');
    await mkdir(join(opts.dataDir, 'tls'), { recursive: true });
    await writeFile(certificatePath, identity.certificatePem);
    tls = {
      certificatePem: identity.certificatePem,
      certificatePath,
      spkiSha256: identity.spkiSha256,
      protocols: hushdrop.protocols ?? [],
    };
  }

  let closing: Promise<void> | null = null;
  return {
    baseUrl: hushdrop.links.baseUrl,
    ...(tls ? { tls } : {}),
    apiUrl: hushdrop.links.apiUrl,
    uploadUrl: hushdrop.links.uploadUrl,
    requests: recorder?.requests ?? [],
    hushdrop,
    setFault: (fault, faultOpts) => faults.set(fault, faultOpts),
    stored: (fileName) => readStored(hushdrop.storage, fileName),
    storedBlobs: () => listStoredBlobs(hushdrop.storage.blobs),
    close(): Promise<void> {
      closing ??= (async () => {
        for (const timer of dripTimers) clearInterval(timer);
        dripTimers.clear();
        // Ends keep-alive, stalled and in-flight connections alike, so close() never waits on a client.
        await hushdrop.close({ graceMs: 0 });
      })();
      return closing;
    },
  };
}
