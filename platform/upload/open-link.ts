// Opening a link: download the file, decrypt it chunk by chunk (when it needs it) into a
// disk-backed OPFS scratch file, and hand back that file for a download. Nothing is rendered in
// the extension's origin. The decrypted copy is plaintext on disk: the viewer holds its lock and
// removes it when the tab goes; the background sweeps what a closed tab could not remove.
import { createCipher } from '../../lib/crypto';
import { formatBytes, formatNumber, plural, t } from '../../lib/i18n';
import { downloadDataForm, parseDownloadPage } from '../../lib/upload/download-page';
import { watchdog } from '../../lib/upload/transport';
import { createScratch, type Scratch } from '../storage/scratch-files';

export class OpenLinkError extends Error {
  override name = 'OpenLinkError';
}

export interface OpenProgress {
  done: number;
  total?: number;
}

/** What to open and how. */
export interface OpenTarget {
  /** The file's address, without a fragment. */
  url: string;
  /** Set when the download must be decrypted: the key, and the IV (derived from the key when absent). */
  cipher?: { key: string; iv: string };
  /** The size recorded at upload, when known: a download may not be longer. */
  knownSize?: number;
}

const CHUNK = 1 << 20;
/** How long the server may send nothing before the download is given up. */
export const OPEN_SILENCE_MS = 60_000;

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

/** Aborts `controller` when nothing arrives for `ms`; `timedOut` says whether it did. */
function silenceGuard(controller: AbortController, ms: number) {
  let timedOut = false;
  const dog = watchdog(
    { setTimeout: (f, t) => setTimeout(f, t), clearTimeout: (h) => clearTimeout(h as number) },
    ms,
    () => {
      timedOut = true;
      controller.abort();
    },
  );
  return {
    heard: dog.restart,
    stop: dog.stop,
    get timedOut() {
      return timedOut;
    },
  };
}

function silenceError(ms: number): OpenLinkError {
  return new OpenLinkError(t('openSilent', Math.round(ms / 1000)));
}

function typeOf(res: Response): string {
  return res.headers.get('content-type')?.split(';')[0]?.trim() || 'application/octet-stream';
}

function announcedLength(res: Response): number | undefined {
  const n = Number(res.headers.get('content-length') ?? Number.NaN);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

export async function fetchAndDecrypt(
  target: OpenTarget,
  {
    onProgress,
    signal,
    silenceMs = OPEN_SILENCE_MS,
  }: {
    onProgress?: (p: OpenProgress) => void;
    signal?: AbortSignal;
    /** Undefined: the default. */
    silenceMs?: number;
  } = {},
): Promise<{ file: File; contentType: string; cleanup: () => Promise<void> }> {
  const controller = new AbortController();
  const stopOnCaller = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', stopOnCaller, { once: true });
  const guard = silenceGuard(controller, silenceMs);
  const origin = new URL(target.url).origin;

  const get = async (url: string, init: RequestInit): Promise<Response> => {
    guard.heard();
    let res: Response;
    try {
      res = await fetch(url, {
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        signal: controller.signal,
        ...init,
      });
    } catch (err) {
      if (guard.timedOut) throw silenceError(silenceMs);
      if (signal?.aborted) throw err;
      throw new OpenLinkError(t('openUnreachable'));
    }
    guard.heard();
    if (res.status === 404 || res.status === 410) throw new OpenLinkError(t('openGone'));
    if (!res.ok || !res.body) throw new OpenLinkError(t('openHttp', String(res.status)));
    return res;
  };

  try {
    let res = await get(target.url, {});
    let contentType = typeOf(res);
    let cipher = target.cipher;
    const length = announcedLength(res);
    if (cipher && contentType === 'text/html' && length !== undefined && length > 0 && length <= PAGE_LIMIT) {
      // Teknik serves a download page, not the bytes, for files whose key it does not keep. An HTML
      // file uploaded encrypted also comes back as text/html, so only a page that parses counts.
      const bytes = await res.arrayBuffer();
      const page = parseDownloadPage(new TextDecoder().decode(bytes), target.url);
      if (page) {
        const where = new URL(page.downloadDataUrl);
        if (where.origin !== origin) throw new OpenLinkError(t('openElsewhere', where.host));
        res = await get(page.downloadDataUrl, { method: 'POST', body: downloadDataForm(page) });
        if (typeOf(res) === 'application/json') throw new OpenLinkError(t('openNoSuchFile'));
        cipher = { ...cipher, iv: page.iv };
        contentType = page.fileType || typeOf(res);
      } else {
        res = new Response(bytes, { headers: { 'content-length': String(bytes.byteLength) } });
      }
    }
    const limit = announcedLength(res) ?? target.knownSize;
    const opened = await writeToDisk(res, cipher, limit, guard, onProgress);
    return { ...opened, contentType };
  } catch (err) {
    if (guard.timedOut && !(err instanceof OpenLinkError)) throw silenceError(silenceMs);
    throw err;
  } finally {
    guard.stop();
    signal?.removeEventListener('abort', stopOnCaller);
  }
}

/** Streams a response's body (through the cipher when there is one) into an OPFS scratch file. */
async function writeToDisk(
  res: Response,
  cipherText: OpenTarget['cipher'],
  limit: number | undefined,
  guard: { heard(): void; readonly timedOut: boolean },
  onProgress?: (p: OpenProgress) => void,
): Promise<{ file: File; cleanup: () => Promise<void> }> {
  if (!res.body) throw new OpenLinkError(t('openNoBody'));
  const scratch: Scratch = await createScratch('open');
  const writable = await scratch.handle.createWritable();
  const cipher = cipherText ? await createCipher(cipherText.key, cipherText.iv) : undefined;
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
    const data = cipher ? await cipher.cryptAt(chunk, offset) : chunk;
    await writable.write({ type: 'write', position: offset, data: data as Uint8Array<ArrayBuffer> });
    offset += chunk.length;
    onProgress?.({ done: offset, total: limit });
  };
  try {
    const reader = res.body.getReader();
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (err) {
        if (guard.timedOut) throw err;
        throw new OpenLinkError(t('openCut', formatBytes(offset + pendingBytes)));
      }
      if (step.done) break;
      guard.heard();
      pending.push(step.value);
      pendingBytes += step.value.length;
      if (limit !== undefined && offset + pendingBytes > limit) {
        await reader.cancel().catch(() => {});
        throw new OpenLinkError(t('openTooLong', plural('bytes', limit)));
      }
      if (pendingBytes >= CHUNK) await flush();
    }
    await flush();
    if (limit !== undefined && offset !== limit)
      throw new OpenLinkError(t('openCutOf', formatNumber(offset), plural('bytes', limit)));
    await writable.close();
    return { file: await scratch.handle.getFile(), cleanup: scratch.remove };
  } catch (err) {
    await writable.abort().catch(() => {});
    await scratch.remove();
    throw err;
  }
}
