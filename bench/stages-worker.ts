// The probe page's dedicated worker (stages.ts, stage `sink-handed-decrypt`): a different thread
// from the service worker fetches and decrypts, and hands the plaintext to the service worker over
// a MessagePort, at most WINDOW chunks ahead of what the service worker's response has taken.
import { createCipher } from '../lib/crypto/cipher';
import { cryptStream } from '../lib/crypto/stream';

declare const self: any;
const KEY = new Uint8Array(32).fill(7);
const IV = new Uint8Array(16).fill(9);
const WINDOW = 16;

self.onmessage = async (e: MessageEvent<{ port: MessagePort }>) => {
  const port = e.data.port;
  let credit = WINDOW;
  let wake: (() => void) | undefined;
  port.onmessage = () => {
    credit++;
    wake?.();
  };
  const body = (await fetch('/cipher', { method: 'POST', cache: 'no-store' })).body!;
  const reader = cryptStream(body, await createCipher(KEY, IV)).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    while (credit === 0) await new Promise<void>((r) => (wake = r));
    credit--;
    const chunk =
      value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice();
    port.postMessage(chunk, [chunk.buffer]);
  }
  port.postMessage(null);
};
