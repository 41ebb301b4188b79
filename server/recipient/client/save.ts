// Two ways to hand the decrypted file to the browser's download. Through the service worker (the
// usual way): the file is decrypted as the download writes it, so memory stays small whatever its
// size. In memory (where a browser offers no service worker, e.g. some private windows): the file is
// decrypted into a Blob first and then saved; that holds the whole file.
import type { IntegrityProblem } from '../../../lib/crypto/integrity';
import type { RecipientFile } from '../../../lib/upload/download-page';
import { chooseDecoder, LinkIntegrityError } from './decoders';
import { saveName, saveType } from './names';
import {
  type FailReason,
  type PingMessage,
  type PingReply,
  type PrepareMessage,
  STREAM_PATH,
  type WorkerReply,
} from './protocol';
import { CutError, counted, fetchStored } from './stored';

export interface SaveRequest {
  /** The page's address with its fragment. */
  href: string;
  file: RecipientFile;
  /** The stored bytes' address, absolute. */
  bytes: string;
  onProgress(done: number): void;
}

export type SaveResult =
  | { ok: true; done: number }
  | {
      ok: false;
      reason: FailReason;
      status?: number;
      done?: number;
      message?: string;
      problem?: IntegrityProblem;
    };

/** Thrown when no service worker could be started: nothing was fetched yet, so another way may try. */
export class NoWorker extends Error {
  override name = 'NoWorker';
}

const PING_MS = 10_000;

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function activeWorker(scriptUrl: string, scope: string): Promise<ServiceWorker> {
  let registration: ServiceWorkerRegistration;
  try {
    if (!('serviceWorker' in navigator)) throw new Error('no service workers here');
    registration = await navigator.serviceWorker.register(scriptUrl, { scope });
  } catch (err) {
    throw new NoWorker(String(err));
  }
  // Some embedders answer a blocked registration with nothing rather than an error.
  if (!registration) throw new NoWorker('no registration');
  if (registration.active) return registration.active;
  const pending = registration.installing ?? registration.waiting;
  if (!pending) throw new NoWorker('the worker did not install');
  return new Promise((resolve, reject) => {
    const check = () => {
      if (pending.state === 'activated') resolve(pending);
      if (pending.state === 'redundant') reject(new NoWorker('the worker did not start'));
    };
    pending.addEventListener('statechange', check);
    check();
  });
}

export async function saveThroughWorker(
  request: SaveRequest,
  worker: { script: string; scope: string },
): Promise<SaveResult> {
  const active = await activeWorker(worker.script, worker.scope);
  const id = randomId();
  const channel = new MessageChannel();
  const frame = document.createElement('iframe');
  frame.hidden = true;
  let done = 0;
  let settle: (r: SaveResult) => void = () => {};
  const result = new Promise<SaveResult>((resolve) => {
    settle = resolve;
    channel.port1.onmessage = (e: MessageEvent<WorkerReply>) => {
      const reply = e.data;
      if (reply.type === 'ready') {
        // The download's address holds only the random id; the browser's downloads list keeps it.
        frame.src = new URL(STREAM_PATH + id, worker.scope).href;
        document.body.append(frame);
      } else if (reply.type === 'progress') {
        done = reply.done;
        request.onProgress(reply.done);
      } else if (reply.type === 'done') resolve({ ok: true, done: reply.done });
      else resolve({ ...reply, ok: false });
    };
  });
  const prepare: PrepareMessage = {
    type: 'prepare',
    id,
    href: request.href,
    bytes: request.bytes,
    iv: request.file.iv,
    size: request.file.size,
    name: request.file.name,
    fileType: request.file.type,
  };
  active.postMessage(prepare, [channel.port2]);
  const ping = setInterval(() => {
    const answer = new MessageChannel();
    answer.port1.onmessage = (e: MessageEvent<PingReply>) => {
      answer.port1.close();
      // The browser stopped the worker that ran the download: what it saved is cut short.
      if (e.data?.known === false) settle({ ok: false, reason: 'stopped', done });
    };
    active.postMessage({ type: 'ping', id } satisfies PingMessage, [answer.port2]);
  }, PING_MS);
  try {
    return await result;
  } finally {
    clearInterval(ping);
    channel.port1.close();
    // Removing the frame at once could stop a download that Firefox is still starting.
    setTimeout(() => frame.remove(), 60_000);
  }
}

export async function saveInMemory(request: SaveRequest): Promise<SaveResult> {
  const decoder = chooseDecoder(request.href, { iv: request.file.iv, size: request.file.size });
  const stored = await fetchStored(request.bytes);
  if (!stored.ok) return stored;
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let done = 0;
  try {
    const reader = (await decoder.open(stored.body))
      .pipeThrough(counted(decoder.plainSize, request.onProgress))
      .getReader();
    for (;;) {
      const step = await reader.read();
      if (step.done) break;
      parts.push(step.value as Uint8Array<ArrayBuffer>);
      done += step.value.length;
    }
  } catch (err) {
    // Nothing was handed to the browser yet: the parts held so far are dropped with this function.
    if (err instanceof LinkIntegrityError) return { ok: false, reason: 'changed', problem: err.problem };
    return { ok: false, reason: 'cut', done: err instanceof CutError ? err.done : done };
  }
  const url = URL.createObjectURL(new Blob(parts, { type: saveType(request.file.type) }));
  const a = document.createElement('a');
  a.href = url;
  a.download = saveName(request.file.name);
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { ok: true, done };
}
