// Download pages: for a file whose key the server did not keep, a GET of its URL gives an HTML
// page, not the bytes. Teknik's (teknik.md §6) names the IV, the type, the file name and the address
// to POST (`file=<name>&decrypt=false`) for the stored ciphertext in its inline script; the Hushdrop
// server's recipient page says the same in a non-executable JSON block (RecipientFile). This file
// is the whole of that protocol: reading the page, and following it (open.ts calls it).
import { t } from '../i18n';
import { OpenLinkError } from './errors';

export interface DownloadPage {
  /** Absolute address of the DownloadData action. */
  downloadDataUrl: string;
  fileName: string;
  fileType?: string;
  /** Empty for the authenticated format, whose link's secret is all it takes. */
  iv: string;
  /** `ece1`: the authenticated format (only the Hushdrop page says so). */
  format?: 'ece1';
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

/** The id of the Hushdrop recipient page's `<script type="application/json">` block. */
export const RECIPIENT_DATA_ID = 'hushdrop-file';

/** What the Hushdrop recipient page says about its file, in its JSON block. */
export interface RecipientFile {
  /** The server's name for the file (its link's last segment). */
  file: string;
  /** The name it was uploaded with. */
  name: string;
  type: string;
  /** Bytes stored (the Teknik format's ciphertext is as long as the file). */
  size: number;
  iv: string;
  /** Where a POST gets the stored bytes (and uses up one download), relative to the page. */
  bytes: string;
  /** `ece1`: the authenticated format (`iv` is then empty); absent for the Teknik format. */
  format?: 'ece1';
}

/** The JSON block's value as a RecipientFile; undefined when any field is missing or mistyped. */
export function asRecipientFile(value: unknown): RecipientFile | undefined {
  const v = (value ?? {}) as Record<string, unknown>;
  const texts = ['file', 'name', 'type', 'iv', 'bytes'].every((k) => typeof v[k] === 'string');
  if (v.format !== undefined && v.format !== 'ece1') return undefined;
  if (!texts || v.file === '' || (v.iv === '' && v.format !== 'ece1') || v.bytes === '') return undefined;
  if (!Number.isSafeInteger(v.size) || (v.size as number) < 0) return undefined;
  const { file, name, type, size, iv, bytes, format } = v as unknown as RecipientFile;
  return { file, name, type, size, iv, bytes, ...(format ? { format } : {}) };
}

/** The recipient page's block, read from its HTML; undefined when there is none (or it is broken). */
function recipientFile(html: string): RecipientFile | undefined {
  const m = new RegExp(`<script type="application/json" id="${RECIPIENT_DATA_ID}">([^<]*)</script>`).exec(
    html,
  );
  if (!m) return undefined;
  try {
    return asRecipientFile(JSON.parse(m[1]!));
  } catch {
    return undefined;
  }
}

/** Reads a Teknik download page or a Hushdrop recipient page; undefined for any other HTML. */
export function parseDownloadPage(html: string, pageUrl: string): DownloadPage | undefined {
  const block = recipientFile(html);
  const downloadDataUrl = block ? block.bytes : variable(html, 'downloadDataUrl');
  const fileName = block ? block.file : variable(html, 'fileName');
  const iv = block ? block.iv : variable(html, 'iv');
  const fileType = block ? block.type || undefined : variable(html, 'fileType');
  const format = block?.format;
  if (!downloadDataUrl || !fileName || (!iv && !format)) return undefined;
  let absolute: URL;
  try {
    absolute = new URL(downloadDataUrl, pageUrl);
  } catch {
    return undefined;
  }
  if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') return undefined;
  return { downloadDataUrl: absolute.href, fileName, fileType, iv: iv ?? '', ...(format ? { format } : {}) };
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
  /** The format the link's fragment names: a page is followed only when it says the same. */
  linkFormat?: 'ece1',
): Promise<FileAnswer> {
  const type = res.headers.get('content-type')?.split(';')[0]?.trim();
  const length = Number(res.headers.get('content-length') ?? Number.NaN);
  if (type !== 'text/html' || !(length > 0 && length <= PAGE_LIMIT)) return { response: res };
  const bytes = await res.arrayBuffer();
  const page = parseDownloadPage(new TextDecoder().decode(bytes), fileUrl);
  if (!page) return { response: new Response(bytes, { headers: res.headers }) };
  // A Teknik key never decrypts an authenticated upload's bytes, nor the reverse.
  if (page.format !== linkFormat) throw new OpenLinkError(t('linkFormatMismatch'));
  const where = new URL(page.downloadDataUrl);
  if (where.origin !== new URL(fileUrl).origin) throw new OpenLinkError(t('openElsewhere', where.host));
  const data = await post(page.downloadDataUrl, { method: 'POST', body: downloadDataForm(page) });
  if (data.headers.get('content-type')?.split(';')[0]?.trim() === 'application/json')
    throw new OpenLinkError(t('openNoSuchFile'));
  return { response: data, iv: page.iv, fileType: page.fileType };
}
