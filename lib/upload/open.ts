// Opening a link: the file's bytes from its server (through Teknik's download page when the server
// sends one: download-page.ts), decrypted as they arrive when the link carries a key (cryptStream),
// into a sink the caller gives (the viewer: a disk-backed scratch file). Nothing is trusted: the
// answer must come from the link's server (redirects elsewhere are refused), the length is held to
// the size the upload recorded, else to what the server announced, else to a limit, and a server
// that stops sending is given up on. fetch, the timers and the sink come in as parameters. A file in
// the authenticated format is verified record by record; a change anywhere fails the whole download,
// and the caller throws away what reached the sink.
import { createCipher, cryptStream, eceDecryptStream, LinkIntegrityError } from '../crypto';
import { formatBytes, formatNumber, plural, t } from '../i18n';
import { followDownloadPage } from './download-page';
import { OpenLinkError } from './errors';
import { type Timers, watchdog } from './transport';

export { OpenLinkError };

/** What to open and how. */
export interface OpenTarget {
  /** The file's address, without a fragment. */
  url: string;
  /**
   * Set when the download must be decrypted: a Teknik key and its IV, or the authenticated
   * format's secret (`format: 'ece'`).
   */
  cipher?: { format?: 'teknik'; key: string; iv: string } | { format: 'ece'; secret: Uint8Array };
  /** The bytes the server stored, when known from the upload: a download may not be longer. */
  knownSize?: number;
}

export interface OpenProgress {
  done: number;
  total?: number;
}

export interface OpenOptions {
  fetch: typeof fetch;
  /** Where the (decrypted) bytes go; asked for once the server has answered with them. */
  openSink: () => Promise<WritableStream<Uint8Array>>;
  onProgress?: (p: OpenProgress) => void;
  signal?: AbortSignal;
  /** How long the server may send nothing before the download is given up (undefined: the default). */
  silenceMs?: number;
  /** The most bytes written when neither the server nor the history says a length (undefined: the default). */
  unannouncedLimit?: number;
  timers?: Timers;
}

/** How long the server may send nothing before the download is given up. */
export const OPEN_SILENCE_MS = 60_000;

/**
 * The most a download with no length from the server and none recorded may write: without it a
 * server could fill the disk (the extension holds unlimitedStorage). 4 GiB is above what the
 * servers Hushdrop knows take in one file; the viewer lowers it to the space the browser has.
 */
export const OPEN_UNANNOUNCED_LIMIT = 4 * 2 ** 30;

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

const globalTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

function typeOf(res: Response): string {
  return res.headers.get('content-type')?.split(';')[0]?.trim() || 'application/octet-stream';
}

function announcedLength(res: Response): number | undefined {
  const n = Number(res.headers.get('content-length') ?? Number.NaN);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * The same server as the link's: the same origin, or the same host and port moved from http to
 * https (an upgrade is still the server in the link).
 */
function sameServer(answered: string, asked: string): boolean {
  const a = new URL(answered);
  const b = new URL(asked);
  if (a.origin === b.origin) return true;
  const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
  return (
    a.hostname === b.hostname &&
    b.protocol === 'http:' &&
    a.protocol === 'https:' &&
    port(b) === '80' &&
    port(a) === '443'
  );
}

/**
 * The length a download must have: the size recorded at upload when there is one (a server may
 * not announce more), else what the server announced. A larger announcement is refused before
 * a byte is written.
 */
function lengthToExpect(announced: number | undefined, recorded: number | undefined): number | undefined {
  if (recorded === undefined) return announced;
  if (announced !== undefined && announced > recorded)
    throw new OpenLinkError(t('openTooLong', plural('bytes', recorded)));
  return recorded;
}

/** Downloads `target` into the sink; resolves with the file's type and size once all of it is there. */
export async function openLink(
  target: OpenTarget,
  {
    fetch: fetchImpl,
    openSink,
    onProgress,
    signal,
    silenceMs = OPEN_SILENCE_MS,
    unannouncedLimit = OPEN_UNANNOUNCED_LIMIT,
    timers = globalTimers,
  }: OpenOptions,
): Promise<{ contentType: string; size: number }> {
  const controller = new AbortController();
  const stopOnCaller = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', stopOnCaller, { once: true });
  let timedOut = false;
  const dog = watchdog(timers, silenceMs, () => {
    timedOut = true;
    controller.abort();
  });
  const silent = () => new OpenLinkError(t('openSilent', Math.round(silenceMs / 1000)));

  const get = async (url: string, init: RequestInit = {}): Promise<Response> => {
    dog.restart();
    let res: Response;
    try {
      res = await fetchImpl(url, {
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        signal: controller.signal,
        ...init,
      });
    } catch (err) {
      if (timedOut) throw silent();
      if (signal?.aborted) throw err;
      throw new OpenLinkError(t('openUnreachable'));
    }
    dog.restart();
    // fetch follows redirects itself; an answer that ended on another server is not read at all.
    // (Its request went out with no cookies and no referrer; the key is in the fragment, never sent.)
    if (!sameServer(res.url || url, target.url)) {
      await res.body?.cancel().catch(() => {});
      throw new OpenLinkError(t('openRedirectElsewhere', new URL(res.url || url).host));
    }
    if (res.status === 404 || res.status === 410) throw new OpenLinkError(t('openGone'));
    if (!res.ok) throw new OpenLinkError(t('openHttp', String(res.status)));
    return res;
  };

  try {
    signal?.throwIfAborted();
    let res = await get(target.url);
    let contentType = typeOf(res);
    let cipher = target.cipher;
    if (cipher) {
      const answer = await followDownloadPage(
        res,
        target.url,
        get,
        cipher.format === 'ece' ? 'ece1' : undefined,
      );
      res = answer.response;
      if (answer.iv && cipher.format !== 'ece') {
        cipher = { ...cipher, iv: answer.iv };
        contentType = answer.fileType || typeOf(res);
      }
    }
    if (!res.body) throw new OpenLinkError(t('openNoBody'));
    const limit = lengthToExpect(announcedLength(res), target.knownSize);
    const reader = res.body.getReader();
    let received = 0;
    // The server's bytes, counted and held to the limit; a broken connection is told as such.
    const counted = new ReadableStream<Uint8Array>(
      {
        async pull(out) {
          let step: ReadableStreamReadResult<Uint8Array>;
          try {
            step = await reader.read();
          } catch (err) {
            if (timedOut) throw silent();
            if (signal?.aborted) throw err;
            throw new OpenLinkError(t('openCut', formatBytes(received)));
          }
          if (step.done) {
            if (limit !== undefined && received !== limit)
              throw new OpenLinkError(t('openCutOf', formatNumber(received), plural('bytes', limit)));
            out.close();
            return;
          }
          dog.restart();
          received += step.value.length;
          const cap = limit ?? unannouncedLimit;
          if (received > cap) {
            await reader.cancel().catch(() => {});
            throw new OpenLinkError(t('openTooLong', plural('bytes', cap)));
          }
          onProgress?.({ done: received, total: limit });
          out.enqueue(step.value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    const plain = !cipher
      ? counted
      : cipher.format === 'ece'
        ? eceDecryptStream(counted, cipher.secret)
        : cryptStream(counted, await createCipher(cipher.key, cipher.iv));
    await plain.pipeTo(await openSink());
    return { contentType, size: received };
  } catch (err) {
    // The file is not what was uploaded: told as a failed opening, in the integrity check's words.
    if (err instanceof LinkIntegrityError) throw new OpenLinkError(err.message, { cause: err });
    if (timedOut && !(err instanceof OpenLinkError)) throw silent();
    throw err;
  } finally {
    dog.stop();
    signal?.removeEventListener('abort', stopOnCaller);
  }
}
