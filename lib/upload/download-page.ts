// Teknik's download page (teknik.md §6): for a file whose key the server did not keep, a GET of
// its URL gives an HTML page, not the bytes. Its inline script names the IV, the type, the file
// name and the address to POST (`file=<name>&decrypt=false`) for the stored ciphertext.

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
