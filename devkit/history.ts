// A large upload history as the extension's own export file (the format its import reads), for
// the e2e test and the bench row that fill the history to the import cap. Entries are spread over
// four hosts and two types, newest last; one has a name disguised with a bidi override.
/** The number of the entry whose name carries a right-to-left override. */
export const DISGUISED_AT = 1234;
/** Its stored name; shown as "invoicefdp.exe". */
export const DISGUISED_NAME = 'invoice\u202Efdp.exe';

const KEY = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';

/** The entry's host: files-0.example … files-3.example. */
export const hostOf = (n: number) => `files-${n % 4}.example`;

/** The name of entry `n`: "report-0042.pdf" or "photo-0043.png", or the disguised one. */
export function historyName(n: number): string {
  if (n === DISGUISED_AT) return DISGUISED_NAME;
  const id = String(n).padStart(4, '0');
  return n % 2 ? `photo-${id}.png` : `report-${id}.pdf`;
}

export function historyEntry(n: number, start = Date.UTC(2026, 0, 1)) {
  const url = `https://${hostOf(n)}/f${n}`;
  return {
    id: `bulk-${n}`,
    link: `${url}#${KEY}`,
    url,
    fileName: `f${n}`,
    key: KEY,
    variant: 'current',
    mode: 'client',
    deletionLink: `${url}/delete/k${n}`,
    size: 1000 + ((n * 7919) % 100_000),
    type: n % 2 ? 'image/png' : 'application/pdf',
    name: historyName(n),
    time: start + n * 60_000,
    server: `https://${hostOf(n)}/api`,
  };
}

/** An export of `count` uploads, the bytes the uploads page's Export would save. */
export function historyExport(count: number): Buffer {
  const uploads = Array.from({ length: count }, (_, n) => historyEntry(n));
  return Buffer.from(JSON.stringify({ format: 'hushdrop-history', version: 1, uploads }, null, 2));
}
