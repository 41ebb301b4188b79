// How a program gets the stored bytes of an upload whose link opens the recipient page (README,
// "Recipients"): a GET of the link gives the page, whose JSON block names the address to POST.
// Links served directly (plain uploads, kept keys) answer the GET with the file itself.
import { parseDownloadPage } from '../lib/upload/download-page';

export interface Fetched {
  status: number;
  headers: Headers;
  bytes: Uint8Array<ArrayBuffer>;
  /** Whether the bytes came through the recipient page's POST. */
  viaPage: boolean;
}

export async function storedBytes(link: string): Promise<Fetched> {
  const url = link.split('#')[0]!;
  const res = await fetch(url);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const page = /^text\/html/.test(res.headers.get('content-type') ?? '')
    ? parseDownloadPage(new TextDecoder().decode(bytes), url)
    : undefined;
  if (!page) return { status: res.status, headers: res.headers, bytes, viaPage: false };
  const stored = await fetch(page.downloadDataUrl, { method: 'POST' });
  return {
    status: stored.status,
    headers: stored.headers,
    bytes: new Uint8Array(await stored.arrayBuffer()),
    viaPage: true,
  };
}
