// One command to the encrypt worker (encrypt-worker.ts), as a promise. Both of its uses, writing the
// encrypted copy and sending the streamed upload, need the same care: a Cancel asks the worker to stop
// (so it closes its file or aborts its fetch) and ends it after a short grace; the worker is ended
// once the answer is in; and a worker that fails before its first message never ran at all (not
// bundled, refused by CSP), which is not the same as one that failed at work.
import type { EncryptCommand, EncryptReport } from './encrypt-worker';

/** How long a cancelled worker gets to stop by itself before it is terminated. */
const CANCEL_GRACE_MS = 2000;

/** What a report does: settle the session, or (undefined) nothing yet. */
export type Settle<T> = { value: T } | { error: unknown } | undefined;

export interface SessionHandlers<T> {
  /** Each report in turn; progress reports usually settle nothing. */
  report(report: EncryptReport): Settle<T>;
  /** The worker itself failed; `heard`: it had sent a message before ('no-worker': it never ran). */
  failed(heard: boolean, message: string): Settle<T | 'no-worker'>;
  /** What a Cancel ends the session with. */
  aborted(): unknown;
  /** Told once the command is posted, with a way to post more (an upload in parts hands out its files). */
  started?(post: (command: EncryptCommand) => void): void;
}

/** Runs `command` in a new encrypt worker; 'no-worker' when none could be made (nothing ran). */
export function encryptWorkerSession<T>(
  command: EncryptCommand,
  signal: AbortSignal | undefined,
  on: SessionHandlers<T>,
): Promise<T | 'no-worker'> {
  if (typeof Worker === 'undefined') return Promise.resolve('no-worker');
  let worker: Worker;
  try {
    worker = new Worker(new URL('./encrypt-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return Promise.resolve('no-worker');
  }
  return new Promise((resolve, reject) => {
    let heard = false;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const finish = (settle: Settle<T | 'no-worker'>) => {
      if (!settle) return;
      clearTimeout(graceTimer);
      signal?.removeEventListener('abort', onAbort);
      worker.onmessage = null;
      worker.onerror = null;
      // Ends the worker's fetch too, if it still runs.
      worker.terminate();
      if ('error' in settle) reject(settle.error);
      else resolve(settle.value);
    };
    const onAbort = () => {
      worker.postMessage({ type: 'cancel' } satisfies EncryptCommand);
      graceTimer = setTimeout(() => finish({ error: on.aborted() }), CANCEL_GRACE_MS);
    };
    worker.onmessage = (event: MessageEvent<EncryptReport>) => {
      heard = true;
      finish(on.report(event.data));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      finish(on.failed(heard, event.message) ?? { error: new Error(event.message) });
    };
    if (signal?.aborted) {
      finish({ error: on.aborted() });
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage(command);
    on.started?.((more) => worker.postMessage(more));
  });
}
