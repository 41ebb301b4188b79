import { describe, expect, it } from 'vitest';
import {
  exportHistory,
  HistoryImportError,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ENTRIES,
  newEntries,
  openingOf,
  parseHistoryExport,
  readHistoryExport,
  type UploadEntry,
} from '../../lib/history';

const entry = (n: number, extra: Partial<UploadEntry> = {}): UploadEntry => ({
  id: `id-${n}`,
  link: `https://u.example/f${n}.png#abcdefghijklmnopqrstuvwxyzABCDEF`,
  url: `https://u.example/f${n}.png`,
  fileName: `f${n}.png`,
  key: 'abcdefghijklmnopqrstuvwxyzABCDEF',
  iv: '0123456789ABCDEF',
  variant: 'current',
  mode: 'client',
  deletionLink: `https://u.example/f${n}.png/del`,
  size: 100 + n,
  type: 'image/png',
  name: `photo ${n}.png`,
  time: 1_700_000_000_000 + n,
  server: 'https://api.example',
  ...extra,
});

describe('history export and import', () => {
  it('round-trips every field', () => {
    const list = [
      entry(1),
      entry(2, { deletionLink: undefined, maxDownloads: 3, expirationDate: '2030-01-01T00:00:00Z' }),
      entry(3, { sha256: 'ab'.repeat(32) }),
      entry(4, { mode: 'server', keyKept: true, link: 'https://u.example/f4.png' }),
    ];
    delete list[1]!.deletionLink;
    expect(parseHistoryExport(exportHistory(list))).toEqual(list);
  });

  it('merges without duplicates (same id or same link)', () => {
    const have = [entry(1), entry(2)];
    const incoming = [entry(2), entry(3), { ...entry(1), id: 'other' }, entry(3)];
    expect(newEntries(have, incoming).map((e) => e.id)).toEqual(['id-3']);
  });

  it.each([
    ['not JSON', 'nope {', /could not be read/],
    ['another format', JSON.stringify({ uploads: [] }), /not a Hushdrop export/],
    [
      'a bad entry',
      exportHistory([entry(1), { ...entry(2), size: 'big' as any }]),
      /Upload 2 .*nothing was imported/,
    ],
    [
      'a script link',
      exportHistory([{ ...entry(1), link: 'javascript:alert(1)' }]),
      /link that is not a web address/,
    ],
    ['an unknown mode', exportHistory([{ ...entry(1), mode: 'weird' as any }]), /unknown mode/],
    ['a bad hash', exportHistory([{ ...entry(1), sha256: 'not-hex' }]), /invalid sha256/],
    [
      'a deletion link on another host',
      exportHistory([{ ...entry(1), deletionLink: 'http://127.0.0.1:9/admin/drop-database?confirm=yes' }]),
      /deletion link on another server \(127\.0\.0\.1:9\)/,
    ],
    [
      'a deletion link on another port of the same host',
      exportHistory([{ ...entry(1), deletionLink: 'https://u.example:8443/f1.png/del' }]),
      /deletion link on another server/,
    ],
    ['a key of any text', exportHistory([{ ...entry(1), key: 'k"ey<>' }]), /key that is not/],
    ['a key of the wrong length', exportHistory([{ ...entry(1), key: 'abc' }]), /key that is not/],
    ['a bad IV', exportHistory([{ ...entry(1), iv: '0123' }]), /IV that is not 16/],
    [
      'a link with another key',
      exportHistory([{ ...entry(1), link: 'https://u.example/f1.png#ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ' }]),
      /link that is not its file’s address and key/,
    ],
    [
      'a link to another file',
      exportHistory([{ ...entry(1), link: 'https://evil.example/x#abcdefghijklmnopqrstuvwxyzABCDEF' }]),
      /link that is not its file’s address and key/,
    ],
    ['a non-boolean keyKept', exportHistory([{ ...entry(1), keyKept: 'yes' as any }]), /invalid keyKept/],
    [
      'too many entries',
      JSON.stringify({
        format: 'hushdrop-history',
        version: 1,
        uploads: Array.from({ length: IMPORT_MAX_ENTRIES + 1 }, () => ({})),
      }),
      /lists 5,001 uploads; Hushdrop imports at most 5,000/,
    ],
    ['a file over the size cap', ' '.repeat(IMPORT_MAX_BYTES + 1), /too large .*nothing was imported/],
  ])('refuses %s with a sentence', (_, text, message) => {
    expect(() => parseHistoryExport(text)).toThrow(HistoryImportError);
    expect(() => parseHistoryExport(text)).toThrow(message);
  });

  it('drops fields it does not know', () => {
    const text = exportHistory([{ ...entry(1), evil: '<script>' } as any]);
    expect(parseHistoryExport(text)[0]).not.toHaveProperty('evil');
  });
});

describe('entries in the authenticated format', () => {
  const SECRET = 'AAECAwQFBgcICQoLDA0ODw';
  const ece = (n: number, extra: Partial<UploadEntry> = {}) =>
    entry(n, {
      key: SECRET,
      iv: undefined,
      format: 'ece',
      link: `https://u.example/f${n}.png#ece1.${SECRET}`,
      ...extra,
    });

  it('round-trip through export and import, format included', () => {
    const e = ece(1);
    delete e.iv;
    expect(parseHistoryExport(exportHistory([e]))).toEqual([e]);
    expect(openingOf(e)).toBe('decrypt');
  });

  it('are refused when the secret, link, mode or IV does not fit the format', () => {
    const bad: Partial<UploadEntry>[] = [
      {
        key: 'abcdefghijklmnopqrstuvwxyzABCDEF',
        link: 'https://u.example/f1.png#ece1.abcdefghijklmnopqrstuvwxyzABCDEF',
      },
      // Not the canonical spelling (the last character carries 2 bits).
      { key: `${SECRET.slice(0, 21)}B`, link: `https://u.example/f1.png#ece1.${SECRET.slice(0, 21)}B` },
      { link: `https://u.example/f1.png#${SECRET}` },
      { mode: 'server' },
      { iv: '0123456789ABCDEF' },
      { format: 'rot13' as 'ece' },
    ];
    for (const extra of bad) {
      const e = ece(1, extra);
      if (!('iv' in extra)) delete e.iv;
      expect(() => parseHistoryExport(exportHistory([e])), JSON.stringify(extra)).toThrow(HistoryImportError);
    }
  });
});

describe('how an upload is opened', () => {
  it('decrypts what the browser encrypted and what the server encrypted without keeping the key', () => {
    expect(openingOf(entry(1))).toBe('decrypt');
    expect(openingOf(entry(1, { mode: 'server', keyKept: false }))).toBe('decrypt');
  });

  it('opens directly what the server decrypts itself, or what was never encrypted', () => {
    // A server that keeps the key may still answer url#key (Teknik did before 2018): the record decides.
    expect(openingOf(entry(1, { mode: 'server', keyKept: true }))).toBe('direct');
    expect(
      openingOf(entry(1, { mode: 'server', keyKept: undefined, link: 'https://u.example/f1.png' })),
    ).toBe('direct');
    expect(openingOf(entry(1, { mode: 'none', key: undefined, link: 'https://u.example/f1.png' }))).toBe(
      'direct',
    );
  });
});

describe('reading an export file', () => {
  it('refuses a file over the limit by its size, before reading it', async () => {
    let read = false;
    // A real Blob that notes when it is read: the refusal must come from its size alone.
    class Watched extends Blob {
      override text() {
        read = true;
        return super.text();
      }
    }
    const big = new Watched([new Uint8Array(IMPORT_MAX_BYTES + 1)]);
    await expect(readHistoryExport(big)).rejects.toThrow(HistoryImportError);
    expect(read).toBe(false);
  });

  it('reads a file within the limit', async () => {
    const list = [entry(1)];
    expect(await readHistoryExport(new Blob([exportHistory(list)]))).toEqual(list);
  });
});
