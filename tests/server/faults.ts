// Injected failures of the upload endpoints, so clients can be tested against every way an upload breaks.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { drain } from '../../server/http/body';
import {
  JSON_TYPE,
  jsonBody,
  type Reply,
  replyAppError,
  replyHtml,
  tooLargeMessage,
} from '../../server/http/responses';
import type { Fault } from './types';

/** Teknik's default MaxUploadFileSize, quoted by 'too-large-413' when the server has no limit of its own. */
const DEFAULT_MAX_BYTES = 1024 ** 3;
/** 'close-mid-upload' cuts the connection after half the body, or after this much, whichever comes first. */
const CLOSE_AFTER_BYTES = 64 * 1024;

export class FaultSwitch {
  private fault: Fault | null = null;
  private once = false;

  set(fault: Fault | null, opts?: { once?: boolean }): void {
    this.fault = fault;
    this.once = fault !== null && opts?.once === true;
  }

  /** The fault for this upload request; a `once` fault is used up by it. */
  take(): Fault | null {
    const fault = this.fault;
    if (this.once) this.set(null);
    return fault;
  }
}

export interface FaultEnv {
  req: IncomingMessage;
  body: Readable;
  reply: Reply;
  maxUploadBytes: number | undefined;
  /** Responses that will never be answered; close() ends their sockets. */
  stalled: Set<ServerResponse>;
  res: ServerResponse;
}

/**
 * Plays every fault that stores nothing: not 'drip' (a correct answer, written slowly: see dripReply)
 * nor 'answer-then-drop' (a stored upload whose answer breaks off: see droppedReply).
 */
export async function playFault(
  fault: Exclude<Fault, 'drip' | 'answer-then-drop'>,
  env: FaultEnv,
): Promise<void> {
  const { body, reply } = env;
  switch (fault) {
    case 'close-mid-upload':
      cutMidBody(env.req, body);
      return;
    case 'stall':
      await drain(body);
      env.stalled.add(env.res);
      env.res.once('close', () => env.stalled.delete(env.res));
      return;
    case 'html-500':
      await drain(body);
      replyHtml(
        reply,
        500,
        'Internal Server Error',
        '<h1>500 — Internal Server Error</h1><p>Something broke.</p>',
      );
      return;
    case 'error-200':
      await drain(body);
      replyAppError(reply, 'Uploads are Disabled');
      return;
    case 'too-large-413':
      await drain(body);
      replyAppError(reply, tooLargeMessage(env.maxUploadBytes ?? DEFAULT_MAX_BYTES), 413);
      return;
    case 'proxy-413':
      await drain(body);
      reply(
        413,
        { 'Content-Type': 'text/html' },
        Buffer.from(
          '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n' +
            '<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
        ),
      );
      return;
    case 'malformed-json': {
      await drain(body);
      const whole = jsonBody({ result: { url: 'http://127.0.0.1/abcde.bin', fileName: 'abcde.bin' } });
      reply(200, { 'Content-Type': JSON_TYPE }, whole.subarray(0, Math.floor(whole.length / 2)));
      return;
    }
  }
}

function cutMidBody(req: IncomingMessage, body: Readable): void {
  const declared = Number(req.headers['content-length']);
  const half =
    Number.isFinite(declared) && declared > 0 ? Math.floor(declared / 2) : Number.POSITIVE_INFINITY;
  const limit = Math.max(1, Math.min(half, CLOSE_AFTER_BYTES));
  let seen = 0;
  const cut = () => req.socket.destroy();
  body.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen >= limit) cut();
  });
  body.once('end', cut);
}

/**
 * A reply that breaks off: the upload is stored, the head and half the body are sent, then the
 * connection goes. (Broken before any answer, Chromium itself sends a small body again on a reused
 * connection; after the head it never does, so what a client then does is its own choice.)
 */
export function droppedReply(res: ServerResponse): Reply {
  return (status, headers, body) => {
    // Over HTTP/2 the socket is shared and cannot be touched: the session goes instead.
    const stream = (res as unknown as { stream?: { session?: { destroy(): void } } }).stream;
    const drop = () => (stream?.session ? stream.session.destroy() : res.socket?.destroy());
    res.writeHead(status, { ...headers, 'Content-Length': String(body.length) });
    res.write(body.subarray(0, Math.floor(body.length / 2)), drop);
  };
}

/** A reply that sends the head at once, then the body one byte every `intervalMs`. */
export function dripReply(res: ServerResponse, intervalMs: number, timers: Set<NodeJS.Timeout>): Reply {
  return (status, headers, body) => {
    if (res.destroyed) return;
    res.writeHead(status, { ...headers, 'Content-Length': String(body.length) });
    res.flushHeaders();
    let sent = 0;
    const stop = () => {
      clearInterval(timer);
      timers.delete(timer);
    };
    const timer = setInterval(() => {
      if (res.destroyed) return stop();
      if (sent < body.length) {
        res.write(body.subarray(sent, sent + 1));
        sent += 1;
      }
      if (sent >= body.length) {
        stop();
        res.end();
      }
    }, intervalMs);
    timers.add(timer);
    res.once('close', stop);
  };
}
