// One request as the routes see it, and the shape of routes mounted into the server (the recipient
// page). Its own file so that a mounted part (server/recipient/mount.ts) and the handler that mounts it
// (app.ts) both import it without importing each other.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { ApiContext } from './api/context';
import type { Links } from './api/upload';
import type { Reply } from './http/responses';
import type { Route } from './router';

/** One request as the routes see it. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** Read the body from here, never from `req` (a test's recording may sit in between). */
  body: Readable;
  route: Route;
  /** The client's address (after trusted proxies). */
  address: string;
  /** The public addresses this request's links use. */
  links: Links;
  reply: Reply;
}

/** Routes mounted into the server (the recipient page): answer a request and return true, or return false. */
export type MountedRoutes = (exchange: Exchange, ctx: ApiContext) => Promise<boolean>;
