// The probe page's second dedicated worker (stages.ts, stages `opfs-*` and `fsa-*`): the download staged in
// the origin's private file system instead of streamed through the service worker. The worker fetches
// (and, for /ece, decrypts) and writes with a sync access handle; the page then downloads that file.
// With `writable`, it writes through createWritable() instead, in writes of at least `batch` bytes: what
// a file chosen with showSaveFilePicker() takes (no dialog can be answered headless, so a private file
// stands in for the chosen one; both are FileSystemWritableFileStreams, written to a swap file and
// moved into place at close).
import { eceDecryptStream } from '../lib/crypto/ece-stream';

declare const self: any;
const ECE_SECRET = new Uint8Array(16).fill(5);

async function throughWritable(
  handle: FileSystemFileHandle,
  plain: ReadableStream<Uint8Array>,
  batch: number,
) {
  const writable = await handle.createWritable();
  const reader = plain.getReader();
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  const flush = async () => {
    if (!heldBytes) return;
    const joined = new Uint8Array(heldBytes);
    let at = 0;
    for (const c of held) {
      joined.set(c, at);
      at += c.length;
    }
    held = [];
    heldBytes = 0;
    await writable.write(joined);
  };
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    held.push(r.value);
    heldBytes += r.value.length;
    if (heldBytes >= batch) await flush();
  }
  await flush();
  await writable.close();
}

self.onmessage = async (
  e: MessageEvent<{ path: string; name: string; writable?: boolean; batch?: number }>,
) => {
  const { path, name } = e.data;
  const dir = await navigator.storage.getDirectory();
  const handle = await dir.getFileHandle(name, { create: true });
  if (e.data.writable) {
    const body = (await fetch(path, { method: 'POST', cache: 'no-store' })).body!;
    await throughWritable(
      handle,
      path === '/ece' ? eceDecryptStream(body, ECE_SECRET) : body,
      e.data.batch ?? 0,
    );
    self.postMessage('written');
    return;
  }
  const sink = await (handle as any).createSyncAccessHandle();
  try {
    const body = (await fetch(path, { method: 'POST', cache: 'no-store' })).body!;
    const plain = path === '/ece' ? eceDecryptStream(body, ECE_SECRET) : body;
    const reader = plain.getReader();
    let at = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) at += sink.write(r.value, { at });
    sink.truncate(at);
    sink.flush();
  } finally {
    sink.close();
  }
  self.postMessage('written');
};
