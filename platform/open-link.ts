// Opening `url#key`: download the ciphertext, decrypt it chunk by chunk into a disk-backed OPFS
// file, and hand back that file for a download. Nothing is rendered in the extension's origin.
import { createCipher, deriveIv, type ParsedLink } from '../lib/crypto';
import { downloadDataForm, parseDownloadPage } from '../lib/upload/download-page';

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

/** Pages are small; an HTML answer above this is taken to be the file itself. */
const PAGE_LIMIT = 1 << 20;

async function get(url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'omit', referrerPolicy: 'no-referrer', signal, ...init });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new OpenLinkError('The server could not be reached. Check your connection and try again.');
  }
  if (res.status === 404 || res.status === 410)
    throw new OpenLinkError('The file is no longer on the server: it was deleted or has expired.');
  if (!res.ok || !res.body)
    throw new OpenLinkError(`The server could not send the file (HTTP ${res.status}).`);
  return res;
}

function typeOf(res: Response): string {
  return res.headers.get('content-type')?.split(';')[0]?.trim() || 'application/octet-stream';
}

export async function fetchAndDecrypt(
  link: ParsedLink,
  {
    iv = deriveIv(link.key),
    onProgress,
    signal,
  }: { iv?: string; onProgress?: (p: OpenProgress) => void; signal?: AbortSignal },
): Promise<{ file: File; contentType: string; cleanup: () => Promise<void> }> {
  let res = await get(link.url, {}, signal);
  let contentType = typeOf(res);
  const length = Number(res.headers.get('content-length'));
  if (contentType === 'text/html' && length > 0 && length <= PAGE_LIMIT) {
    // Teknik serves a download page, not the bytes, for files whose key it does not keep. An HTML
    // file uploaded encrypted also comes back as text/html, so only a page that parses counts.
    const bytes = await res.arrayBuffer();
    const page = parseDownloadPage(new TextDecoder().decode(bytes), link.url);
    if (page) {
      res = await get(page.downloadDataUrl, { method: 'POST', body: downloadDataForm(page) }, signal);
      if (typeOf(res) === 'application/json')
        throw new OpenLinkError('The server says this file does not exist any more.');
      iv = page.iv;
      contentType = page.fileType || typeOf(res);
    } else {
      res = new Response(bytes, { headers: { 'content-length': String(bytes.byteLength) } });
    }
  }
  return { ...(await decryptToDisk(res, link.key, iv, onProgress, signal)), contentType };
}

/** Streams a response's body through the cipher into a disk-backed OPFS file. */
async function decryptToDisk(
  res: Response,
  key: string,
  iv: string,
  onProgress?: (p: OpenProgress) => void,
  signal?: AbortSignal,
): Promise<{ file: File; cleanup: () => Promise<void> }> {
  if (!res.body) throw new OpenLinkError('The server sent no file.');
  const expected = Number(res.headers.get('content-length')) || undefined;
  const root = await navigator.storage.getDirectory();
  const name = `open-${crypto.randomUUID()}.bin`;
  const handle = await root.getFileHandle(name, { create: true });
  const cleanup = () => root.removeEntry(name).catch(() => {});
  const writable = await handle.createWritable();
  const cipher = await createCipher(key, iv);
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
    return { file: await handle.getFile(), cleanup };
  } catch (err) {
    await writable.abort().catch(() => {});
    await cleanup();
    throw err;
  }
}
