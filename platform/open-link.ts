// Opening `url#key`: download the ciphertext, decrypt it chunk by chunk into a disk-backed OPFS
// file, and hand back that file for a download. Nothing is rendered in the extension's origin.
import { createCipher, deriveIv, type ParsedLink } from '../lib/crypto';

export class OpenLinkError extends Error {
  override name = 'OpenLinkError';
}

export interface OpenProgress {
  done: number;
  total?: number;
}

const CHUNK = 1 << 20;

/** Types that must never be handed to the browser as what they are (they could run script). */
const ACTIVE_TYPES =
  /^(text\/html|application\/xhtml|image\/svg|text\/xml|application\/xml|text\/javascript|application\/javascript)/i;
export function safeBlobType(type: string): string {
  return ACTIVE_TYPES.test(type) ? 'application/octet-stream' : type || 'application/octet-stream';
}
/** Raster images may be previewed in an <img>; everything else is only downloaded. */
export function previewable(type: string): boolean {
  return /^image\/(png|jpeg|gif|webp|avif|bmp)$/i.test(type);
}

export async function fetchAndDecrypt(
  link: ParsedLink,
  {
    iv = deriveIv(link.key),
    onProgress,
    signal,
  }: { iv?: string; onProgress?: (p: OpenProgress) => void; signal?: AbortSignal },
): Promise<{ file: File; contentType: string; cleanup: () => Promise<void> }> {
  let res: Response;
  try {
    res = await fetch(link.url, { credentials: 'omit', referrerPolicy: 'no-referrer', signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new OpenLinkError('The server could not be reached. Check your connection and try again.');
  }
  if (res.status === 404 || res.status === 410)
    throw new OpenLinkError('The file is no longer on the server: it was deleted or has expired.');
  if (!res.ok || !res.body)
    throw new OpenLinkError(`The server could not send the file (HTTP ${res.status}).`);
  const contentType = res.headers.get('content-type')?.split(';')[0]?.trim() || 'application/octet-stream';
  const expected = Number(res.headers.get('content-length')) || undefined;

  const root = await navigator.storage.getDirectory();
  const name = `open-${crypto.randomUUID()}.bin`;
  const handle = await root.getFileHandle(name, { create: true });
  const cleanup = () => root.removeEntry(name).catch(() => {});
  const writable = await handle.createWritable();
  const cipher = await createCipher(link.key, iv);
  let offset = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (!pendingBytes) return;
    const chunk = new Uint8Array(pendingBytes);
    let at = 0;
    for (const p of pending) {
      chunk.set(p, at);
      at += p.length;
    }
    pending = [];
    pendingBytes = 0;
    await writable.write({
      type: 'write',
      position: offset,
      data: (await cipher.cryptAt(chunk, offset)) as Uint8Array<ArrayBuffer>,
    });
    offset += chunk.length;
    onProgress?.({ done: offset, total: expected });
  };
  try {
    const reader = res.body.getReader();
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (err) {
        if (signal?.aborted) throw err;
        throw new OpenLinkError(
          `The download stopped before the end (${offset + pendingBytes} bytes received). Try again.`,
        );
      }
      if (step.done) break;
      pending.push(step.value);
      pendingBytes += step.value.length;
      if (pendingBytes >= CHUNK) await flush();
    }
    await flush();
    if (expected !== undefined && offset !== expected)
      throw new OpenLinkError(
        `The download stopped before the end (${offset} of ${expected} bytes). Try again.`,
      );
    await writable.close();
    return { file: await handle.getFile(), contentType, cleanup };
  } catch (err) {
    await writable.abort().catch(() => {});
    await cleanup();
    throw err;
  }
}
