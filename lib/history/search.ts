// Search, sort and paging of the upload history, fast at the import cap (5,000 entries): each
// entry's searchable text is lowercased once when the index is built, each sort order is computed
// once and kept, and a query is one pass of substring checks over the kept order. The page then
// renders only the first page of matches.
import type { UploadEntry } from '.';
import { displayName } from './file-names';

export type HistorySort = 'newest' | 'oldest' | 'name' | 'size';

/** Rows rendered at first, and added by each "Show more". */
export const HISTORY_PAGE_SIZE = 50;

/**
 * What a search looks in, lowercased: the name as shown (no bidi controls), the type, and the
 * file's address on the server (its host and path; never the key after "#").
 */
export function searchText(e: Pick<UploadEntry, 'name' | 'type' | 'url'>): string {
  return `${displayName(e.name)}\n${e.type}\n${e.url}`.toLowerCase();
}

/** A query as it is matched: trimmed, lowercased; a pasted share link loses its key. */
export function normalizeQuery(query: string): string {
  const q = query.trim().toLowerCase();
  return /^https?:\/\//.test(q) ? q.split('#')[0]! : q;
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

const ORDERS: Record<HistorySort, (a: UploadEntry, b: UploadEntry) => number> = {
  newest: (a, b) => b.time - a.time,
  oldest: (a, b) => a.time - b.time,
  name: (a, b) => collator.compare(displayName(a.name), displayName(b.name)) || b.time - a.time,
  size: (a, b) => b.size - a.size || b.time - a.time,
};

export class HistoryIndex {
  private readonly entries: UploadEntry[];
  private readonly texts: string[];
  private readonly orders = new Map<HistorySort, number[]>();

  constructor(entries: readonly UploadEntry[]) {
    this.entries = [...entries];
    this.texts = this.entries.map(searchText);
  }

  get size(): number {
    return this.entries.length;
  }

  /** Positions of the entries in `sort` order, computed on first use. */
  private order(sort: HistorySort): number[] {
    let order = this.orders.get(sort);
    if (!order) {
      const cmp = ORDERS[sort];
      order = this.entries.map((_, i) => i).sort((i, j) => cmp(this.entries[i]!, this.entries[j]!));
      this.orders.set(sort, order);
    }
    return order;
  }

  /** The entries matching `query` (every word of it, anywhere), in `sort` order. */
  search(query: string, sort: HistorySort): UploadEntry[] {
    const words = normalizeQuery(query).split(/\s+/).filter(Boolean);
    const out: UploadEntry[] = [];
    for (const i of this.order(sort)) {
      const text = this.texts[i]!;
      if (words.every((w) => text.includes(w))) out.push(this.entries[i]!);
    }
    return out;
  }
}

/** The rows to render: the first `pages` pages of `matches`. */
export function visibleRows<T>(matches: readonly T[], pages: number): T[] {
  return matches.slice(0, Math.max(1, pages) * HISTORY_PAGE_SIZE);
}
