// The request handler: the checks every request goes through (address, rate limit, bounded body, slow
// clients, access log), then the route. No listening here (server.ts), so tests can wrap it.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BlockList } from 'node:net';
import type { Readable } from 'node:stream';
import type { ApiContext } from './api/context';
import { handleDelete, handleDownload, handleDownloadData } from './api/downloads';
import { serverInfo } from './api/info';
import {
  handlePartPut,
  handlePartsAbort,
  handlePartsDone,
  handlePartsHeld,
  handlePartsStart,
  type PartsRequest,
} from './api/parts';
import { handleUpload, type Links, replyStorageError } from './api/upload';
import type { ServerSettings } from './config/settings';
import type { Exchange, MountedRoutes } from './exchange';
import type { AccessLog } from './http/access-log';
import { closeAfterReply, drain, hasBody, readSmallBody } from './http/body';
import { clientAddress, forwardedOrigin } from './http/client';
import { cutReason, cutRequest } from './http/cut';
import {
  directReply,
  escapeHtml,
  type Reply,
  replyAppError,
  replyHtml,
  replyJson,
  replyNotFound,
  replyTooMany,
} from './http/responses';
import { sameSecret } from './http/secret';
import { watchSlowClient } from './http/slow-clients';
import type { Metrics } from './metrics';
import { recipientRoutes } from './recipient-mount';
import { describeRoute, type Route, route } from './router';
import { isStorageError } from './storage/errors';
import type { NoRoom } from './storage/room';
import type { Variant } from './uploads/record';

export type { Exchange, MountedRoutes };

/** Bytes a route that takes no body still accepts (and ignores) before it refuses the request. */
const SMALL_BODY_LIMIT = 8 * 1024;
/** A refused upload request is read up to this much before the connection is cut. */
const REFUSED_UPLOAD_CAP = 256 * 1024 * 1024;

/** Ways in for tests (tests/server wraps the product with them); nothing in a deployment sets these. */
export interface Seams {
  /** Gives the stream the body is read from (a recording tap). */
  tapBody?(req: IncomingMessage): Readable;
  /** Sees each request after the server's own checks, before the routes; true when it answered. */
  intercept?: MountedRoutes;
}

export interface AppDeps {
  ctx: ApiContext;
  proxies: BlockList | null;
  accessLog: AccessLog;
  /** Serves /_hushdrop/metrics (settings.metrics gives its token); absent: that path is not found. */
  metrics?: Metrics;
  seams?: Seams;
  /** Health answers 503 once this says the server is stopping. */
  stopping: () => boolean;
  /** Whether the store answers (health). */
  checkStorage: () => Promise<void>;
  /** Since when and why the store has had no room for uploads, or null (health). */
  storageFull: () => NoRoom | null;
}

export interface App {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** The addresses links use when no public URL is configured (set once the server listens). */
  setListeningOrigin(origin: string): void;
  /** The links for requests that do not come through a trusted proxy. */
  defaultLinks(): Links;
}

/** How the access log says a request ended early: why the server cut it, or only that it was cut. */
function cutOf(req: IncomingMessage, res: ServerResponse): { cut?: string | true } {
  const reason = cutReason(req);
  if (reason) return { cut: reason };
  return res.writableFinished ? {} : { cut: true };
}

function linksFrom(settings: ServerSettings, origin: string): Links {
  const base = settings.publicUrls.baseUrl ?? origin;
  return {
    baseUrl: base,
    apiUrl: settings.publicUrls.apiUrl ?? `${base}/api`,
    uploadUrl: settings.publicUrls.uploadUrl ?? `${base}/u`,
  };
}

/** Routes whose body is an upload's (or a part of one): a refusal reads it first, up to a cap. */
function readsBody(target: Route): boolean {
  return target.kind === 'upload' || target.kind === 'parts-start' || target.kind === 'parts-put';
}

export function createApp(deps: AppDeps): App {
  const { ctx, proxies, accessLog, seams } = deps;
  const { settings } = ctx;
  let listeningOrigin = 'http://127.0.0.1';

  const linksFor = (req: IncomingMessage): Links => {
    if (settings.publicUrls.baseUrl) return linksFrom(settings, '');
    return linksFrom(settings, forwardedOrigin(req, proxies) ?? listeningOrigin);
  };

  async function dispatch(x: Exchange): Promise<void> {
    const { req, res, body, route: target, reply } = x;
    switch (target.kind) {
      case 'upload':
        return handleUpload(ctx, {
          variant: target.variant,
          req,
          res,
          body,
          reply,
          links: x.links,
          address: x.address,
        });
      case 'parts-start':
        return handlePartsStart(ctx, partsRequest(x, target.variant));
      case 'parts-put':
        return handlePartPut(ctx, partsRequest(x, target.variant), target.id, target.index);
      case 'parts-held':
        return handlePartsHeld(ctx, partsRequest(x, target.variant), target.id);
      case 'parts-done':
        return handlePartsDone(ctx, partsRequest(x, target.variant), target.id, x.links);
      case 'parts-abort':
        return handlePartsAbort(ctx, partsRequest(x, target.variant), target.id);
      case 'download':
        return handleDownload(ctx, req, res, target.fileName);
      case 'download-data':
        return handleDownloadData(ctx, req, res, body);
      case 'delete':
        return handleDelete(ctx, res, target.fileName, target.deletionKey);
      case 'info':
        return replyJson(reply, 200, serverInfo(settings, x.links), {
          'Access-Control-Allow-Origin': '*',
          'Cache-Control': 'no-cache',
        });
      case 'health':
        return health(reply);
      case 'metrics':
        return serveMetrics(req, reply);
      case 'index':
        return replyHtml(
          reply,
          200,
          'Hushdrop server',
          `<h1>Hushdrop server</h1><p>Legacy: POST ${escapeHtml(x.links.baseUrl)}/v1/Upload?sub=api` +
            `<br>Current: POST ${escapeHtml(x.links.apiUrl)}/v1/Upload</p>`,
        );
      case 'reserved':
      case 'none':
        return replyNotFound(reply);
    }
  }

  function partsRequest(x: Exchange, variant: Variant): PartsRequest {
    return {
      variant,
      req: x.req,
      res: x.res,
      body: x.body,
      reply: x.reply,
      links: x.links,
      address: x.address,
    };
  }

  async function health(reply: Reply): Promise<void> {
    if (deps.stopping())
      return replyJson(reply, 503, { status: 'stopping' }, { 'Cache-Control': 'no-store' });
    try {
      await deps.checkStorage();
    } catch {
      return replyJson(reply, 503, { status: 'storage unavailable' }, { 'Cache-Control': 'no-store' });
    }
    const full = deps.storageFull();
    if (full)
      return replyJson(
        reply,
        503,
        {
          status: 'storage full',
          message: `Since ${new Date(full.since).toISOString()} uploads that do not fit are refused (507): ${full.message} Downloads go on.`,
        },
        { 'Cache-Control': 'no-store' },
      );
    replyJson(reply, 200, { status: 'ok' }, { 'Cache-Control': 'no-store' });
  }

  async function serveMetrics(req: IncomingMessage, reply: Reply): Promise<void> {
    const token = settings.metrics?.token;
    if (!deps.metrics || !token) return replyNotFound(reply);
    const given = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSecret(given, token))
      return replyAppError(reply, 'The metrics need their token (Authorization: Bearer <token>).', 401, {
        'WWW-Authenticate': 'Bearer realm="metrics"',
      });
    const { body, type } = await deps.metrics.render();
    reply(200, { 'Content-Type': type, 'Cache-Control': 'no-store' }, Buffer.from(body));
  }

  /** Refuses a request (429, 413, 503) without reading more of its body than needed. */
  async function refuse(x: Exchange, answer: () => void): Promise<void> {
    if (readsBody(x.route)) {
      // Upload clients (browsers) show an answer only once their body is sent: read it, up to a cap.
      if ((await drain(x.body, REFUSED_UPLOAD_CAP)) === 'over-cap') closeAfterReply(x.req, x.res, x.body);
    } else if (hasBody(x.req)) closeAfterReply(x.req, x.res, x.body);
    answer();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const method = req.method ?? 'GET';
    const target = route(method, req.url ?? '/');
    const address = clientAddress(req, proxies);
    const writtenBefore = req.socket.bytesWritten;
    res.once('close', () => {
      accessLog({
        at: started,
        address,
        method,
        what: describeRoute(target),
        // A request cut before anything was answered has no status: never the 200 Node starts with.
        status: res.headersSent ? res.statusCode : null,
        bytes: req.socket.bytesWritten - writtenBefore,
        ms: Date.now() - started,
        ...cutOf(req, res),
      });
    });

    watchSlowClient(
      req,
      res,
      { windowMs: settings.timeouts.slowClientMs, minBytes: settings.timeouts.slowClientMinBytes },
      () =>
        cutRequest(req, res, 'slow-client', {
          status: 408,
          message: 'The request was too slow and has been cut off.',
        }),
    );

    const body = seams?.tapBody ? seams.tapBody(req) : req;
    const x: Exchange = {
      req,
      res,
      body,
      route: target,
      address,
      links: linksFor(req),
      reply: directReply(res),
    };

    if (target.kind === 'health') {
      if (hasBody(req)) closeAfterReply(req, res, body);
      return health(x.reply);
    }
    if (deps.stopping()) {
      return refuse(x, () =>
        replyAppError(x.reply, 'The server is restarting; try again in a moment.', 503, {
          'Retry-After': '5',
        }),
      );
    }
    const admitted = ctx.limits.admitRequest(address, ctx.now());
    if (!admitted.ok) return refuse(x, () => replyTooMany(x.reply, admitted.message, admitted.retryAfterMs));

    // Only uploads (one request, a Start, a part) and DownloadData read a body; every other route takes a few bytes at most.
    if (!readsBody(target) && target.kind !== 'download-data' && hasBody(req)) {
      const small = await readSmallBody(req, body, SMALL_BODY_LIMIT);
      if (!small.ok) {
        if (small.why === 'gone') return;
        closeAfterReply(req, res, body);
        return replyAppError(x.reply, 'This address takes no request body.', 413);
      }
    }

    if (seams?.intercept && (await seams.intercept(x, ctx))) return;
    if (recipientRoutes && (await recipientRoutes(x, ctx))) return;
    try {
      await dispatch(x);
    } catch (err) {
      // A store that fails where a route did not expect it (finding, deleting) is still a 503, not a 500.
      if (!isStorageError(err) || res.headersSent) throw err;
      replyStorageError(x.reply, err);
    }
  }

  return {
    handle,
    setListeningOrigin(origin) {
      listeningOrigin = origin;
    },
    defaultLinks: () => linksFrom(settings, listeningOrigin),
  };
}
