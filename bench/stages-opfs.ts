// The probe page's second dedicated worker (stages.ts, stages `opfs-*`): the download staged in the
// origin's private file system instead of streamed through the service worker. The worker fetches
// (and, for /ece, decrypts) and writes with a sync access handle; the page then downloads that file.
import { eceDecryptStream } from '../lib/crypto/ece-stream';

declare const self: any;
const ECE_SECRET = new Uint8Array(16).fill(5);

self.onmessage = async (e: MessageEvent<{ path: string; name: string }>) => {
  const { path, name } = e.data;
  const dir = await navigator.storage.getDirectory();
  const handle = await dir.getFileHandle(name, { create: true });
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
