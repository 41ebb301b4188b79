import { describe, expect, it } from 'vitest';
import {
  exportHistory,
  HistoryImportError,
  newEntries,
  parseHistoryExport,
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
    ['another format', JSON.stringify({ uploads: [] }), /not a Hushdrop history/],
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
  ])('refuses %s with a sentence', (_, text, message) => {
    expect(() => parseHistoryExport(text)).toThrow(HistoryImportError);
    expect(() => parseHistoryExport(text)).toThrow(message);
  });

  it('drops fields it does not know', () => {
    const text = exportHistory([{ ...entry(1), evil: '<script>' } as any]);
    expect(parseHistoryExport(text)[0]).not.toHaveProperty('evil');
  });
});
