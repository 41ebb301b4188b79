// The recipient page's service worker: it fetches the stored bytes, decrypts them as they arrive,
// and answers the download address with the decrypted stream, so the browser writes the file to
// disk as it is decrypted (how Send saved large files). Memory stays bounded by the streams'
// queues. Its scope is /_hushdrop/, a path no upload can take.
import { chooseDecoder, LinkIntegrityError } from './decoders';
import { contentDisposition, saveType } from './names';
import {
  type PageMessage,
  type PingReply,
  type PrepareMessage,
  STREAM_PATH,
  type WorkerReply,
} from './protocol';
import { CutError, counted, fetchStored } from './stored';

// The parts of the service worker global this file uses (its own lib would clash with the DOM's).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  data: unknown;
  ports: readonly MessagePort[];
}
interface WorkerScope {
  addEventListener(type: 'install' | 'activate', listener: (e: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (e: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (e: ExtendableMessageEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  registration: { scope: string };
}
const worker = self as unknown as WorkerScope;

interface Job {
  body: ReadableStream<Uint8Array>;
  headers: Record<string, string>;
  timer: ReturnType<typeof setTimeout>;
}
const jobs = new Map<string, Job>();
/** Every download this run of the worker prepared: a ping for another id comes from before a stop. */
const prepared = new Set<string>();
/** A prepared download the page never asked for is dropped (its bytes are not read). */
const UNCLAIMED_MS = 60_000;
const PROGRESS_EVERY = 1 << 20;

worker.addEventListener('install', (e) => e.waitUntil(worker.skipWaiting()));
worker.addEventListener('activate', (e) => e.waitUntil(worker.clients.claim()));

worker.addEventListener('message', (e) => {
  const message = e.data as PageMessage;
  const port = e.ports[0];
  if (message?.type === 'prepare' && port) {
    prepared.add(message.id);
    e.waitUntil(prepare(message, port));
  }
  // Receiving a ping is what keeps this worker running; the answer tells the page whether it is
  // still the worker that runs its download (Firefox ends a stopped worker's download as if it were whole).
  if (message?.type === 'ping' && port)
    port.postMessage({ known: prepared.has(message.id) } satisfies PingReply);
});

async function prepare(m: PrepareMessage, port: MessagePort): Promise<void> {
  const reply = (r: WorkerReply) => port.postMessage(r);
  let decoder: ReturnType<typeof chooseDecoder>;
  try {
    decoder = chooseDecoder(m.href, { iv: m.iv, size: m.size });
  } catch (err) {
    reply({ type: 'failed', reason: 'link', message: (err as Error).message });
    return;
  }
  const stored = await fetchStored(m.bytes);
  if (!stored.ok) {
    reply({ type: 'failed', reason: stored.reason, status: stored.status });
    return;
  }
  let done = 0;
  let reported = 0;
  const progress = counted(decoder.plainSize, (n) => {
    done = n;
    if (done - reported < PROGRESS_EVERY) return;
    reported = done;
    reply({ type: 'progress', done });
  });
  const body = watched((await decoder.open(stored.body)).pipeThrough(progress), {
    end: () => reply({ type: 'done', done }),
    fail: (err) =>
      reply(
        err instanceof LinkIntegrityError
          ? { type: 'failed', reason: 'changed', problem: err.problem }
          : { type: 'failed', reason: 'cut', done: err instanceof CutError ? err.done : done },
      ),
  });
  const timer = setTimeout(() => {
    jobs.delete(m.id);
    body.cancel().catch(() => {});
  }, UNCLAIMED_MS);
  jobs.set(m.id, {
    body,
    headers: {
      'Content-Type': saveType(m.fileType),
      'Content-Disposition': contentDisposition(m.name),
      'Content-Length': String(decoder.plainSize),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
    timer,
  });
  reply({ type: 'ready' });
}

/**
 * The same bytes, read as the browser's download asks for them; says when they ended, and when
 * they failed or the download was stopped, so the page can tell the person.
 */
function watched(
  source: ReadableStream<Uint8Array>,
  on: { end: () => void; fail: (err: unknown) => void },
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let settled = false;
  const settle = (f: () => void) => {
    if (!settled) f();
    settled = true;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          controller.close();
          settle(on.end);
        } else controller.enqueue(value);
      } catch (err) {
        settle(() => on.fail(err));
        controller.error(err);
      }
    },
    cancel(reason) {
      settle(() => on.fail(reason));
      return reader.cancel(reason);
    },
  });
}

worker.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  const prefix = new URL(STREAM_PATH, worker.registration.scope).pathname;
  if (!url.pathname.startsWith(prefix)) return;
  const id = url.pathname.slice(prefix.length);
  const job = jobs.get(id);
  if (!job) return; // the server answers: this download is not prepared
  jobs.delete(id);
  clearTimeout(job.timer);
  e.respondWith(new Response(job.body, { headers: job.headers }));
});
