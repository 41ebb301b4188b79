// One upload, run in an extension page: encrypt (client mode) chunk by chunk into a
// disk-backed OPFS file, send it with XHR for progress, then record it in history.
import { deriveIv, encryptBlob, randomKey } from '../lib/crypto';
import type { UploadEntry } from '../lib/history';
import {
  deletionLink,
  sendUpload,
  shareLink,
  type UploadOptions,
  type UploadTarget,
  xhrTransport,
} from '../lib/upload';
import { addUpload, HistoryWriteError } from './history';

export interface UploadProgress {
  phase: 'encrypting' | 'uploading';
  done: number;
  total: number;
}

export interface UploadOutcome {
  entry: UploadEntry;
  /** Set when the upload worked but history could not be written: the link must stay visible. */
  historyError?: HistoryWriteError;
}

const CHUNK = 1 << 20;

async function encryptToDisk(
  file: Blob,
  key: string,
  iv: string,
  onProgress: (p: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<{ body: File; cleanup: () => Promise<void> }> {
  const root = await navigator.storage.getDirectory();
  const name = `upload-${crypto.randomUUID()}.bin`;
  const handle = await root.getFileHandle(name, { create: true });
  const cleanup = () => root.removeEntry(name).catch(() => {});
  try {
    const writable = await handle.createWritable();
    try {
      await encryptBlob(
        file,
        { key, iv },
        (bytes, offset) =>
          writable.write({ type: 'write', position: offset, data: bytes as Uint8Array<ArrayBuffer> }),
        {
          chunkSize: CHUNK,
          signal,
          onProgress: (done, total) => onProgress({ phase: 'encrypting', done, total }),
        },
      );
      await writable.close();
    } catch (err) {
      await writable.abort().catch(() => {});
      throw err;
    }
    return { body: await handle.getFile(), cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

export async function runUpload(
  file: File,
  target: UploadTarget,
  options: UploadOptions,
  { onProgress = () => {}, signal }: { onProgress?: (p: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<UploadOutcome> {
  let key: string | undefined;
  let iv: string | undefined;
  let body: Blob = file;
  let cleanup = async () => {};
  if (options.mode === 'client') {
    key = randomKey();
    iv = deriveIv(key);
    ({ body, cleanup } = await encryptToDisk(file, key, iv, onProgress, signal));
  }
  try {
    const result = await sendUpload({
      target,
      options,
      file: { name: file.name || 'file', type: file.type || 'application/octet-stream' },
      body,
      iv,
      transport: xhrTransport(XMLHttpRequest),
      signal,
      onProgress: (sent, total) => onProgress({ phase: 'uploading', done: sent, total }),
    });
    const entry: UploadEntry = {
      id: crypto.randomUUID(),
      link: shareLink(result, key),
      url: result.url.split('#')[0]!,
      fileName: result.fileName,
      key: key ?? result.key,
      iv: iv ?? result.iv,
      variant: target.variant,
      mode: options.mode,
      deletionLink: deletionLink(target, result),
      expirationDate: result.expirationDate,
      maxDownloads: result.maxDownloads || undefined,
      size: file.size,
      type: file.type || 'application/octet-stream',
      name: file.name || 'file',
      time: Date.now(),
      server: target.variant === 'legacy' ? target.addresses.baseUrl : target.addresses.apiUrl,
    };
    for (const k of Object.keys(entry) as (keyof UploadEntry)[]) if (entry[k] === undefined) delete entry[k];
    try {
      await addUpload(entry);
      return { entry };
    } catch (err) {
      if (err instanceof HistoryWriteError) return { entry, historyError: err };
      throw err;
    }
  } finally {
    await cleanup();
  }
}
