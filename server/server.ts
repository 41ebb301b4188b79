// Starts the Hushdrop server: opens the store, listens (plain HTTP, or HTTPS with HTTP/2), runs the
// sweeper, and stops gracefully (requests in progress get a grace period, then are cut; an upload that is
// cut leaves nothing behind, because its bytes only become an upload once its record is written).

import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { Accounts } from './accounts/accounts';
import { LoginGuard } from './accounts/login-guard';
import { type AdminEndpoint, startAdmin } from './admin';
import type { ApiContext } from './api/context';
import type { Links } from './api/upload';
import { createApp, type Seams } from './app';
import { checkPartBytes } from './config/load';
import type { ServerSettings } from './config/settings';
import { type AccessEntry, type AccessLog, openAccessLog } from './http/access-log';
import { proxyList } from './http/client';
import { describeFailure } from './http/failure-log';
import { directReply, replyHtml } from './http/responses';
import { createTlsServer, type TlsCredentials } from './http/tls';
import { ByteQuotas } from './limits/byte-quotas';
import { Limits } from './limits/limits';
import { Metrics } from './metrics';
import { describeRoute, route } from './router';
import { fsReason, StartError } from './start-error';
import { openDiskStorage } from './storage/disk';
import { StorageRoom, watchRoom } from './storage/room';
import { openS3Storage } from './storage/s3';
import type { Storage } from './storage/types';
import { type Sweeper, type SweepReport, startSweeper } from './uploads/sweeper';
import { Uploads } from './uploads/uploads';

export interface StartOptions {
  /** The clock for expiry (default Date.now); tests move it. */
  now?: () => number;
  /** Test seams (tests/server); a deployment has none. */
  seams?: Seams;
  /** TLS from PEM text rather than settings.tls's files (tests make a certificate at start). */
  tlsCredentials?: TlsCredentials & { http2: boolean };
  /** Told after every sweep. */
  onSweep?: (report: SweepReport) => void;
  /** How long a stop waits for requests to settle once their connections are cut (default 10 s). */
  settleAfterCutMs?: number;
}

/** Once its connection is cut, a request's handler should end at once; a stop waits this long for it. */
const SETTLE_AFTER_CUT_MS = 10_000;

export interface HushdropServer {
  settings: ServerSettings;
  /** The addresses for links (public URLs, or the listening address). */
  links: Links;
  /** The port it listens on. */
  port: number;
  /** Whether it speaks HTTPS itself, and over which protocols. */
  protocols: string[] | null;
  storage: Storage;
  ctx: ApiContext;
  sweeper: Sweeper;
  /** Opens the access log file again by its name (SIGHUP, after logrotate moved it); false when it cannot. */
  reopenAccessLog(): boolean;
  /**
   * Stops: no new connections, requests in progress get `graceMs` (default the settings') to finish, then
   * every connection is cut; resolves once every request has settled and the store is closed.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export async function startServer(
  settings: ServerSettings,
  options: StartOptions = {},
): Promise<HushdropServer> {
  // Before anything is opened: settings written in code have not been through the config file's checks.
  checkPartBytes(settings.parts.partBytes);
  const now = options.now ?? Date.now;
  const accounts = new Accounts(
    settings.accounts,
    settings.accountsFile,
    new LoginGuard(settings.limits, now),
  );
  await accounts.init();
  const proxies = settings.trustedProxies.length > 0 ? proxyList(settings.trustedProxies) : null;
  const tls = options.tlsCredentials ?? (settings.tls ? await readTls(settings.tls) : undefined);

  // The log first: a start that cannot write it fails before anything else is opened or printed.
  const accessLog = openAccessLog(settings.accessLog);
  const metrics = settings.metrics ? new Metrics() : undefined;
  // Opening S3 does not contact the store: the server starts while it is down and answers 503 until it is back.
  // A write refused for lack of room is logged and shown in health until one fits again.
  const room = new StorageRoom();
  let storage: Storage;
  try {
    const opened = settings.s3 ? openS3Storage(settings.s3) : await openDiskStorage(settings.dataDir);
    // Watched on the store's own objects before the metrics wrap them, so each call is counted once.
    watchRoom(opened, room);
    storage = metrics ? metrics.instrument(opened) : opened;
  } catch (err) {
    await accessLog.close();
    throw err;
  }
  const uploads = new Uploads(storage, now, settings.parts);
  const ctx: ApiContext = {
    settings,
    uploads,
    accounts,
    limits: new Limits(settings.limits),
    quotas: new ByteQuotas(storage.records, settings.limits, now),
    now,
  };
  let stopping = false;
  const app = createApp({
    ctx,
    proxies,
    accessLog: metrics ? countedLog(accessLog, metrics) : accessLog,
    metrics,
    seams: options.seams,
    stopping: () => stopping,
    checkStorage: () => storage.check(),
    storageFull: () => room.full,
  });

  // Each request in progress, by what names it in a log line.
  const inFlight = new Map<Promise<void>, string>();
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    // Named by its route as in the access log, never by its URL (a deletion key is in the path).
    const named = `${req.method} ${describeRoute(route(req.method ?? 'GET', req.url ?? '/'))}`;
    const handled = app.handle(req, res).catch((err: unknown) => {
      console.error(`hushdrop server: ${named} failed: ${describeFailure(err)}`);
      if (!res.headersSent) replyHtml(directReply(res), 500, 'Error', '<h1>500 — Internal Server Error</h1>');
      else res.destroy();
    });
    inFlight.set(handled, named);
    void handled.finally(() => inFlight.delete(handled));
  };

  const { timeouts } = settings;
  let server: Server;
  let closeConnections: () => void;
  let closeIdle: () => void = () => {};
  if (tls) {
    try {
      ({ server, closeConnections } = createTlsServer(
        tls,
        tls.http2,
        timeouts,
        settings.maxConcurrentStreams,
        onRequest,
      ));
    } catch (err) {
      await storage.close();
      await accessLog.close();
      throw new StartError(
        `The TLS certificate and key${settings.tls ? ` (${settings.tls.certFile}, ${settings.tls.keyFile})` : ''} ` +
          `cannot be used: ${(err as Error).message}. Give a PEM certificate and its key (TLS_CERT and TLS_KEY, or tls.certFile and tls.keyFile).`,
      );
    }
  } else {
    const plain = createServer(
      {
        // No limit on a whole request (a large upload on a slow line takes long); slow clients are cut instead.
        requestTimeout: 0,
        headersTimeout: timeouts.headersMs,
        keepAliveTimeout: timeouts.keepAliveMs,
        connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
      },
      onRequest,
    );
    server = plain;
    closeConnections = () => plain.closeAllConnections();
    closeIdle = () => plain.closeIdleConnections();
  }

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(settings.port, settings.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await storage.close();
    await accessLog.close();
    throw listenError(err, settings.host, settings.port);
  }
  const { port } = server.address() as AddressInfo;
  const hostPart = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  app.setListeningOrigin(`${tls ? 'https' : 'http'}://${hostPart}:${port}`);

  const sweeper = startSweeper(uploads, {
    intervalMs: settings.sweepIntervalMs,
    orphanAgeMs: settings.orphanAgeMs,
    onSweep(report) {
      if (report.error)
        console.error(`hushdrop server: sweeping expired uploads failed: ${describeFailure(report.error)}`);
      metrics?.observeSweep(report);
      options.onSweep?.(report);
    },
  });

  // On disk, one process holds the folder: operator commands reach it through its admin socket.
  let admin: AdminEndpoint | undefined;
  if (!settings.s3) {
    try {
      admin = await startAdmin(settings.dataDir, uploads);
    } catch (err) {
      console.error(
        `hushdrop server: the admin socket in ${settings.dataDir} cannot be opened (${(err as Error).message}); ` +
          '`uploads remove` works only while the server is stopped.',
      );
    }
  }

  let closing: Promise<void> | null = null;
  const stop = async (graceMs: number) => {
    stopping = true;
    const adminClosed = admin?.close();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    closeIdle();
    if (inFlight.size > 0 && graceMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([Promise.allSettled(inFlight.keys()), grace]);
      clearTimeout(timer);
    }
    // Ends keep-alive, stalled and in-flight connections alike; cut uploads clean up after themselves.
    closeConnections();
    // A handler that does not end once its socket is gone must not hold the stop (SIGTERM) forever.
    const bound = Date.now() + (options.settleAfterCutMs ?? SETTLE_AFTER_CUT_MS);
    while (inFlight.size > 0 && Date.now() < bound) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, bound - Date.now());
      });
      await Promise.race([Promise.allSettled(inFlight.keys()), late]);
      clearTimeout(timer);
    }
    if (inFlight.size > 0) {
      console.error(
        `hushdrop server: stopping without waiting longer for ${inFlight.size} request(s) whose connections were cut: ${[...inFlight.values()].join(', ')}`,
      );
    }
    await sweeper.stop();
    await closed;
    await adminClosed;
    await accessLog.close();
    await storage.close();
  };

  return {
    settings,
    links: app.defaultLinks(),
    port,
    protocols: tls ? (tls.http2 ? ['h2', 'http/1.1'] : ['http/1.1']) : null,
    storage,
    ctx,
    sweeper,
    reopenAccessLog: () => accessLog.reopen(),
    close(closeOptions) {
      closing ??= stop(closeOptions?.graceMs ?? timeouts.shutdownGraceMs);
      return closing;
    },
  };
}

/** The access log, each of whose entries the metrics count too. */
function countedLog(log: AccessLog, metrics: Metrics): AccessLog {
  const both = (entry: AccessEntry) => {
    log(entry);
    metrics.observeRequest(entry);
  };
  return Object.assign(both, { reopen: () => log.reopen(), close: () => log.close() });
}

async function readTls(
  files: NonNullable<ServerSettings['tls']>,
): Promise<TlsCredentials & { http2: boolean }> {
  const read = async (path: string, what: string) => {
    try {
      return await readFile(path, 'utf8');
    } catch (err) {
      throw new StartError(`The TLS ${what} ${path} cannot be read: ${fsReason(err, path)}.`);
    }
  };
  return {
    certificatePem: await read(files.certFile, 'certificate file (TLS_CERT, tls.certFile)'),
    keyPem: await read(files.keyFile, 'key file (TLS_KEY, tls.keyFile)'),
    http2: files.http2,
  };
}

const LISTEN_REASONS: Record<string, string> = {
  EADDRINUSE: 'another program listens there already',
  EACCES: 'permission denied (ports below 1024 need privileges: keep it on a high port behind a proxy)',
  EADDRNOTAVAIL: 'the address is not one of this machine’s',
  ENOTFOUND: 'the host name is unknown',
};

function listenError(err: unknown, host: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (!code) return err;
  return new StartError(
    `It cannot listen on ${host}:${port}: ${LISTEN_REASONS[code] ?? (err as Error).message} (${code}). ` +
      'Choose another PORT or HOST (port, host).',
  );
}
