// The page's side of the encrypt workers (encrypt-worker-files.ts, encrypt-worker-send.ts): one command
// to a new worker, as a promise. Every use needs the same care: a Cancel asks the worker to stop (so
// it closes its file or aborts its fetch) and ends it after a short grace; the worker is ended once
// the answer is in; and a worker that fails before its first message never ran at all (not bundled,
// refused by CSP), which is not the same as one that failed at work: that is a decline ('no worker'),
// and the way goes on without one.
import type { FileCipher } from '../../lib/crypto/file-cipher';
import { t } from '../../lib/i18n';
import { Declined } from '../../lib/upload/plan';
import type { FilesCommand, FilesReport } from './encrypt-worker-files';
import type { SendCommand, SendReport } from './encrypt-worker-send';

/** How long a cancelled worker gets to stop by itself before it is terminated. */
const CANCEL_GRACE_MS = 2000;

/** The two workers, each started by the literal `new Worker(new URL(…))` the bundler looks for. */
const WORKERS = {
  files: () => new Worker(new URL('./encrypt-worker-files.ts', import.meta.url), { type: 'module' }),
  send: () => new Worker(new URL('./encrypt-worker-send.ts', import.meta.url), { type: 'module' }),
};

interface Protocol {
  files: { command: FilesCommand; report: FilesReport };
  send: { command: SendCommand | { type: 'cancel' }; report: SendReport };
}

/** What a report does: settle the session, or (undefined) nothing yet. */
export type Settle<T> = { value: T } | { error: unknown } | undefined;

export interface SessionHandlers<W extends keyof Protocol, T> {
  /** Each report in turn; progress reports usually settle nothing. */
  report(report: Protocol[W]['report']): Settle<T>;
  /** The worker failed after its first message: bytes may have gone, so this is a failure, never a decline. */
  failed(message: string): unknown;
  /** What a Cancel ends the session with. */
  aborted(): unknown;
  /** Told once the command is posted, with a way to post more (the files worker is handed its files). */
  started?(post: (command: Protocol[W]['command']) => void): void;
}

/** Runs `command` in a new worker of kind `kind`; Declined('no worker') when none ran. */
export function workerSession<W extends keyof Protocol, T>(
  kind: W,
  command: Protocol[W]['command'],
  signal: AbortSignal | undefined,
  on: SessionHandlers<W, T>,
): Promise<T | Declined> {
  if (typeof Worker === 'undefined') return Promise.resolve(new Declined('no worker', 'no Worker here'));
  let worker: Worker;
  try {
    worker = WORKERS[kind]();
  } catch (err) {
    return Promise.resolve(new Declined('no worker', String(err)));
  }
  return new Promise((resolve, reject) => {
    let heard = false;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const finish = (settle: Settle<T | Declined>) => {
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
      worker.postMessage({ type: 'cancel' });
      graceTimer = setTimeout(() => finish({ error: on.aborted() }), CANCEL_GRACE_MS);
    };
    worker.onmessage = (event: MessageEvent<Protocol[W]['report']>) => {
      heard = true;
      finish(on.report(event.data));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      finish(
        heard ? { error: on.failed(event.message) } : { value: new Declined('no worker', event.message) },
      );
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

/** How the disk way and the parts way have the files worker seal a file. */
export interface SealIntoFiles {
  file: Blob;
  cipher: FileCipher;
  /** Bytes of every part but the last (the whole ciphertext for the disk way's one copy). */
  partBytes: number;
  chunkSize: number;
  freeSpent: boolean;
  /** The way's own stop: a Cancel, or its first failure. */
  signal: AbortSignal;
  /** Ciphertext written so far (a report at most every 50 ms). */
  onProgress?(done: number, total: number): void;
  /** Part `index` is written and closed (`size` bytes). */
  onPartDone?(index: number, size: number): void;
  /** Told once the worker runs, with a way to hand it a part's file (made and held by the page). */
  handOut(give: (index: number, name: string) => void): void;
  /** What a Cancel or the way's stop ends it with. */
  aborted(): unknown;
}

/**
 * Seals `file` into OPFS files in the files worker: resolves with the bytes written, or
 * Declined('no worker') when no worker with a sync access handle ran here (nothing was written).
 */
export function sealIntoFiles(s: SealIntoFiles): Promise<{ size: number } | Declined> {
  const command: FilesCommand = {
    type: 'seal',
    file: s.file,
    cipher: s.cipher,
    partBytes: s.partBytes,
    chunkSize: s.chunkSize,
    freeSpent: s.freeSpent,
  };
  return workerSession<'files', { size: number } | Declined>('files', command, s.signal, {
    report(r) {
      // Once stopped, only the worker's last word counts: by then it has closed its file, which can
      // then be removed (the grace ends a worker that does not say it).
      if (r.type === 'progress' || r.type === 'part-done') {
        if (s.signal.aborted) return undefined;
        if (r.type === 'progress') s.onProgress?.(r.done, r.total);
        else s.onPartDone?.(r.index, r.size);
      } else if (s.signal.aborted) return { error: s.aborted() };
      else if (r.type === 'done') return { value: { size: r.size } };
      else if (r.type === 'declined') return { value: new Declined('no worker', r.detail) };
      else if (r.type === 'cancelled') return { error: s.aborted() };
      else {
        const err = new Error(t('encryptFailed', r.message));
        err.name = r.name === 'QuotaExceededError' ? r.name : 'EncryptError';
        return { error: err };
      }
      return undefined;
    },
    failed: (message) => new Error(t('encryptWorkerFailed', message)),
    aborted: s.aborted,
    started: (post) => s.handOut((index, name) => post({ type: 'part-file', index, name })),
  });
}
