// Handing a spent buffer's memory back at once, where that works.
//
// Why: encrypting a file makes a new ArrayBuffer for every chunk (WebCrypto has no output buffer),
// and the collector frees them only now and then. Firefox lets them pile up: a 300 MiB upload grew
// its extension process by about 100 MiB before a collection came. Detaching a buffer
// (ArrayBuffer.prototype.transfer(0)) frees its bytes in Firefox there and then: the same upload's
// peak fell to about 28 MiB, the worker's own start included. Chromium did the opposite: detached
// buffers kept their memory (the whole file, +316 MiB for 300 MiB), so only the browser adapter
// turns this on (platform/browser/, `freeSpentBuffers`).

type Transferable = ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };

/**
 * Detaches the buffer under `bytes` so its memory is freed now. Only a view of a whole buffer is
 * touched: part of a buffer may be someone else's bytes. The caller must hold no other view of it.
 */
export function freeBuffer(bytes: Uint8Array): void {
  const buffer = bytes.buffer as Transferable;
  if (bytes.byteOffset !== 0 || bytes.byteLength !== buffer.byteLength || bytes.byteLength === 0) return;
  if (typeof buffer.transfer !== 'function') return;
  try {
    buffer.transfer(0);
  } catch {
    // Not detachable (a SharedArrayBuffer, a wasm memory): the collector frees it as before.
  }
}
