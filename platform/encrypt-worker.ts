// Dedicated worker for one upload: reads the chosen File a slice at a time, encrypts each slice at
// its offset (Teknik's AES-256-CTR) and writes it into an OPFS file through a sync access handle,
// which exists only in dedicated workers. Only one slice and its ciphertext are held at a time.
//
// Protocol: the page sends one `start`, then maybe `cancel`; the worker answers with `progress`
// reports and ends with exactly one of `done`, `unsupported` (nothing written: the page falls back
// to its own path), `cancelled` or `error`.
import { createCipher } from '../lib/crypto/cipher';

export interface EncryptStart {
  type: 'start';
  file: Blob;
  key: string;
  iv: string;
  /** Name of the OPFS file (in the root directory) to write. */
  name: string;
  chunkSize: number;
}

export type EncryptCommand = EncryptStart | { type: 'cancel' };

export type EncryptReport =
  | { type: 'progress'; done: number; total: number }
  | { type: 'done'; size: number }
  | { type: 'unsupported'; reason: string }
  | { type: 'cancelled' }
  | { type: 'error'; name: string; message: string };

// The sync access handle is typed in lib.webworker, which cannot be mixed with lib.dom here.
interface SyncAccessHandle {
  write(data: ArrayBufferView<ArrayBuffer>, options?: { at?: number }): number;
  truncate(size: number): void;
  getSize(): number;
  flush(): void;
  close(): void;
}
interface SyncCapableHandle {
  createSyncAccessHandle?: () => Promise<SyncAccessHandle>;
}

/** Least time between two progress reports, so the page is not flooded (about 400 slices/s). */
const REPORT_EVERY_MS = 50;

const scope = globalThis as unknown as {
  postMessage(message: EncryptReport): void;
  onmessage: ((event: MessageEvent<EncryptCommand>) => void) | null;
};

let cancelled = false;
let started = false;

async function openTarget(name: string): Promise<SyncAccessHandle | string> {
  try {
    const root = await navigator.storage.getDirectory();
    const handle = (await root.getFileHandle(name, { create: true })) as unknown as SyncCapableHandle;
    if (typeof handle.createSyncAccessHandle !== 'function') return 'no createSyncAccessHandle here';
    return await handle.createSyncAccessHandle();
  } catch (err) {
    return `OPFS unavailable in the worker: ${String(err)}`;
  }
}

async function encrypt(job: EncryptStart): Promise<EncryptReport> {
  const access = await openTarget(job.name);
  if (typeof access === 'string') return { type: 'unsupported', reason: access };
  try {
    access.truncate(0);
    const cipher = await createCipher(job.key, job.iv);
    const total = job.file.size;
    let reported = 0;
    for (let offset = 0; offset < total; ) {
      if (cancelled) return { type: 'cancelled' };
      const end = Math.min(offset + job.chunkSize, total);
      const plain = new Uint8Array(await job.file.slice(offset, end).arrayBuffer());
      if (plain.length !== end - offset)
        throw new Error(`Read ${plain.length} bytes at ${offset} instead of ${end - offset}.`);
      if (cancelled) return { type: 'cancelled' };
      const cipherText = (await cipher.cryptAt(plain, offset)) as Uint8Array<ArrayBuffer>;
      const written = access.write(cipherText, { at: offset });
      if (written !== cipherText.length)
        throw new Error(
          `Only ${written} of ${cipherText.length} bytes were written at ${offset} (disk full?).`,
        );
      offset = end;
      const now = Date.now();
      if (now - reported >= REPORT_EVERY_MS || offset === total) {
        reported = now;
        scope.postMessage({ type: 'progress', done: offset, total });
      }
    }
    access.flush();
    const size = access.getSize();
    if (size !== total) throw new Error(`The encrypted copy has ${size} bytes instead of ${total}.`);
    return { type: 'done', size };
  } finally {
    access.close();
  }
}

scope.onmessage = (event) => {
  const command = event.data;
  if (command.type === 'cancel') {
    cancelled = true;
    return;
  }
  if (command.type !== 'start' || started) return;
  started = true;
  encrypt(command).then(
    (report) => scope.postMessage(report),
    (err: unknown) =>
      scope.postMessage({
        type: 'error',
        name: err instanceof Error ? err.name : 'Error',
        message: err instanceof Error ? err.message : String(err),
      }),
  );
};
