// Teknik's download page (teknik.md §6): for a file whose key the server did not keep, a GET of
// its URL gives an HTML page, not the bytes. Its inline script names the IV, the type, the file
// name and the address to POST (`file=<name>&decrypt=false`) for the stored ciphertext. This file
// is the whole of that protocol: reading the page, and following it (open.ts calls it).
import { t } from '../i18n';
import { OpenLinkError } from './errors';

export interface DownloadPage {
  /** Absolute address of the DownloadData action. */
  downloadDataUrl: string;
  fileName: string;
  fileType?: string;
  iv: string;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  '#39': "'",
  '#x2F': '/',
};

/** A JavaScript string literal's value: the escapes a server template writes, and HTML entities. */
function unquote(text: string): string {
  return text
    .replace(/\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|\\(.)/g, (_, u, x, c) =>
      u ? String.fromCharCode(Number.parseInt(u, 16)) : x ? String.fromCharCode(Number.parseInt(x, 16)) : c,
    )
    .replace(/&(#x?[0-9a-fA-F]+|[a-z]+);/g, (whole, name: string) => {
      if (ENTITIES[name]) return ENTITIES[name]!;
      if (name.startsWith('#x')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
      return whole;
    });
}

function variable(html: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}\\s*=\\s*(['"])((?:\\\\.|(?!\\1).)*)\\1`).exec(html);
  return m ? unquote(m[2]!) : undefined;
}

/** Reads a Teknik download page; undefined when the HTML is not one (e.g. an error page). */
export function parseDownloadPage(html: string, pageUrl: string): DownloadPage | undefined {
  const downloadDataUrl = variable(html, 'downloadDataUrl');
  const fileName = variable(html, 'fileName');
  const iv = variable(html, 'iv');
  if (!downloadDataUrl || !fileName || !iv) return undefined;
  let absolute: URL;
  try {
    absolute = new URL(downloadDataUrl, pageUrl);
  } catch {
    return undefined;
  }
  if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') return undefined;
  return { downloadDataUrl: absolute.href, fileName, fileType: variable(html, 'fileType'), iv };
}

/** The form Teknik's page posts for the stored bytes (`decrypt=false`: the browser decrypts). */
export function downloadDataForm(page: DownloadPage): URLSearchParams {
  return new URLSearchParams({ file: page.fileName, decrypt: 'false' });
}

/** Pages are small; an HTML answer above this is taken to be the file itself. */
const PAGE_LIMIT = 1 << 20;

/** A file's bytes as the server answered them; `iv` and `fileType` when they came through the page. */
export interface FileAnswer {
  response: Response;
  iv?: string;
  fileType?: string;
}

/**
 * For an encrypted download: when the answer to a GET of `fileUrl` is Teknik's download page, the
 * ciphertext it points to, fetched with `post` from the same server only (never another one the
 * page names). An HTML file uploaded encrypted comes back as text/html too, so only a page that
 * parses counts; any other answer is handed back as it came.
 */
export async function followDownloadPage(
  res: Response,
  fileUrl: string,
  post: (url: string, init: RequestInit) => Promise<Response>,
): Promise<FileAnswer> {
  const type = res.headers.get('content-type')?.split(';')[0]?.trim();
  const length = Number(res.headers.get('content-length') ?? Number.NaN);
  if (type !== 'text/html' || !(length > 0 && length <= PAGE_LIMIT)) return { response: res };
  const bytes = await res.arrayBuffer();
  const page = parseDownloadPage(new TextDecoder().decode(bytes), fileUrl);
  if (!page) return { response: new Response(bytes, { headers: res.headers }) };
  const where = new URL(page.downloadDataUrl);
  if (where.origin !== new URL(fileUrl).origin) throw new OpenLinkError(t('openElsewhere', where.host));
  const data = await post(page.downloadDataUrl, { method: 'POST', body: downloadDataForm(page) });
  if (data.headers.get('content-type')?.split(';')[0]?.trim() === 'application/json')
    throw new OpenLinkError(t('openNoSuchFile'));
  return { response: data, iv: page.iv, fileType: page.fileType };
}
