import { describe, expect, it } from 'vitest';
import type { UploadEntry } from '../../lib/history';
import {
  HISTORY_PAGE_SIZE,
  HistoryIndex,
  normalizeQuery,
  searchText,
  visibleRows,
} from '../../lib/history/search';

const KEY = 'abcdefghijklmnopqrstuvwxyzABCDEF';

const entry = (n: number, extra: Partial<UploadEntry> = {}): UploadEntry => ({
  id: `id-${n}`,
  link: `https://u${n % 3}.example/f${n}.png#${KEY}`,
  url: `https://u${n % 3}.example/f${n}.png`,
  fileName: `f${n}.png`,
  key: KEY,
  variant: 'current',
  mode: 'client',
  size: (n * 7919) % 1000,
  type: n % 2 ? 'image/png' : 'application/pdf',
  name: `File ${n}.${n % 2 ? 'png' : 'pdf'}`,
  time: 1_700_000_000_000 + n * 1000,
  server: 'https://api.example',
  ...extra,
});

const many = (count: number) => Array.from({ length: count }, (_, i) => entry(i));
const ids = (list: UploadEntry[]) => list.map((e) => e.id);

describe('searchText', () => {
  it('holds the shown name, the type and the file address, lowercased, and never the key', () => {
    const text = searchText(entry(1, { name: 'Invoice\u202Efdp.EXE' }));
    expect(text).toContain('invoicefdp.exe');
    expect(text).toContain('image/png');
    expect(text).toContain('https://u1.example/f1.png');
    expect(text).not.toContain(KEY.toLowerCase());
  });
});

describe('normalizeQuery', () => {
  it('trims and lowercases; a pasted share link loses its key', () => {
    expect(normalizeQuery('  Photo ')).toBe('photo');
    expect(normalizeQuery(`https://U1.example/f1.png#${KEY}`)).toBe('https://u1.example/f1.png');
    expect(normalizeQuery('a#b')).toBe('a#b');
  });
});

describe('HistoryIndex', () => {
  const index = new HistoryIndex(many(5000));

  it('an empty query gives every entry, newest first by default order', () => {
    const all = index.search('', 'newest');
    expect(all).toHaveLength(5000);
    expect(all[0]!.id).toBe('id-4999');
    expect(all[4999]!.id).toBe('id-0');
  });

  it('finds by name, case-insensitively, only the entries that match', () => {
    expect(ids(index.search('FILE 4242.', 'newest'))).toEqual(['id-4242']);
    const pdf = index.search('.pdf', 'newest');
    expect(pdf).toHaveLength(2500);
    expect(pdf.every((e) => e.name.endsWith('.pdf'))).toBe(true);
  });

  it('finds by type and by the server host; every word must match', () => {
    expect(index.search('image/png', 'oldest')).toHaveLength(2500);
    const u2 = index.search('u2.example', 'oldest');
    expect(u2.every((e) => e.url.startsWith('https://u2.example/'))).toBe(true);
    expect(u2).toHaveLength(1666);
    expect(ids(index.search('u2.example 4997', 'newest'))).toEqual(['id-4997']);
    expect(index.search('u1.example 4997', 'newest')).toEqual([]);
  });

  it('a pasted share link finds its entry; the key alone finds nothing', () => {
    expect(ids(index.search(entry(77).link, 'newest'))).toEqual(['id-77']);
    expect(index.search(KEY, 'newest')).toEqual([]);
  });

  it('sorts by time, name (numbers in order) and size', () => {
    const small = new HistoryIndex([entry(10), entry(9), entry(100), entry(2)]);
    expect(ids(small.search('', 'oldest'))).toEqual(['id-2', 'id-9', 'id-10', 'id-100']);
    expect(ids(small.search('', 'name'))).toEqual(['id-2', 'id-9', 'id-10', 'id-100']);
    const bySize = small.search('', 'size').map((e) => e.size);
    expect(bySize).toEqual([...bySize].sort((a, b) => b - a));
  });

  it('a search keeps the chosen order', () => {
    const bySize = index.search('.png', 'size').map((e) => e.size);
    expect(bySize).toEqual([...bySize].sort((a, b) => b - a));
  });

  it('does not keep a reference to the caller’s array', () => {
    const list = many(3);
    const small = new HistoryIndex(list);
    list.pop();
    expect(small.size).toBe(3);
  });
});

describe('visibleRows', () => {
  it('gives the first pages only', () => {
    const list = many(5000);
    expect(visibleRows(list, 1)).toHaveLength(HISTORY_PAGE_SIZE);
    expect(visibleRows(list, 0)).toHaveLength(HISTORY_PAGE_SIZE);
    expect(visibleRows(list, 3)).toEqual(list.slice(0, 3 * HISTORY_PAGE_SIZE));
    expect(visibleRows(list.slice(0, 7), 2)).toHaveLength(7);
  });
});
