// Row i: the uploads page with 5,000 uploads (the import cap) against the same page with 50, in
// two browsers side by side, each filled through the page's own Import; rounds alternate between
// them. Timed in the page with performance.now():
// - render: from the navigation's start to the moment the first row of the list is in the
//   document and laid out (a MutationObserver installed before the page's own scripts run), and
//   to the whole history read and indexed (Export enabled; polled each frame);
// - search, once the history is indexed: from the input event of a query typed into the search field to the list showing that
//   query's first match, laid out. Three queries per round: a word that matches half the history,
//   a narrow one (five matches at 5,000), and the empty query that brings everything back.
import type { Page } from 'playwright-core';
import { historyEntry, historyExport, historyName } from '../devkit/history';
import type { BenchBrowser } from './chromium';

export interface HistoryResult {
  renderSmall: number[];
  renderLarge: number[];
  indexedSmall: number[];
  indexedLarge: number[];
  searchSmall: number[];
  searchLarge: number[];
}

/**
 * Installed before the page's scripts: notes when the first row is there, laid out. Source text,
 * not a function: tsx would wrap a function's inner functions in a helper the page does not have.
 */
const WATCH_FIRST_ROW = `new MutationObserver((_, observer) => {
  if (!document.querySelector('tbody tr')) return;
  document.body.getBoundingClientRect();
  window.__rowsAt = performance.now();
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });`;

/** Types `query` into the search field as one input event; resolves with ms until `firstId` leads the list. */
function timeSearch({ query, firstId }: { query: string; firstId: string }): Promise<number> {
  return new Promise((resolve) => {
    // No inner named functions: tsx would wrap them in a helper the page does not have.
    const field = document.querySelector<HTMLInputElement>('#search')!;
    let start = 0;
    const observer = new MutationObserver(() => {
      if (document.querySelector('tbody tr')?.getAttribute('data-id') !== firstId) return;
      document.body.getBoundingClientRect();
      observer.disconnect();
      resolve(performance.now() - start);
    });
    observer.observe(document.querySelector('main')!, { childList: true, subtree: true, attributes: true });
    start = performance.now();
    field.value = query;
    field.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** The newest entry of a history of `count` whose name contains `word` ('' for any). */
function firstMatch(count: number, word: string): string {
  for (let n = count - 1; n >= 0; n--) if (historyName(n).includes(word)) return historyEntry(n).id;
  throw new Error(`no entry of ${count} matches "${word}"`);
}

async function fill(b: BenchBrowser, count: number): Promise<Page> {
  const page = await b.ctx.newPage();
  await page.goto(b.url('uploads.html'));
  await page.setInputFiles('#import', {
    name: 'history.json',
    mimeType: 'application/json',
    buffer: historyExport(count),
  });
  await page.getByText(`Imported ${count.toLocaleString('en')} uploads`).waitFor({ timeout: 120_000 });
  await page.addInitScript(WATCH_FIRST_ROW);
  return page;
}

/** ms from the navigation to the first row, and to the whole history read and indexed (Export enabled). */
async function render(page: Page, url: string): Promise<{ rows: number; indexed: number }> {
  await page.goto(url);
  await page.waitForFunction(() => (window as any).__rowsAt !== undefined);
  // Polled every animation frame: this figure is to a frame (about 16 ms).
  const indexed = await page.waitForFunction(
    () => document.querySelector<HTMLButtonElement>('#export')?.disabled === false && performance.now(),
  );
  return {
    rows: await page.evaluate(() => (window as any).__rowsAt as number),
    indexed: (await indexed.jsonValue()) as number,
  };
}

async function searches(page: Page, count: number): Promise<number[]> {
  const out: number[] = [];
  for (const word of ['photo', 'report-004', '']) {
    const firstId = firstMatch(count, word);
    out.push(await page.evaluate(timeSearch, { query: word, firstId }));
  }
  return out;
}

export async function historyRow(
  small: BenchBrowser,
  large: BenchBrowser,
  runs: number,
): Promise<HistoryResult> {
  const [pageSmall, pageLarge] = [await fill(small, 50), await fill(large, 5000)];
  const result: HistoryResult = {
    renderSmall: [],
    renderLarge: [],
    indexedSmall: [],
    indexedLarge: [],
    searchSmall: [],
    searchLarge: [],
  };
  try {
    // One untimed round each first: the first load compiles the page's code.
    await render(pageSmall, small.url('uploads.html'));
    await render(pageLarge, large.url('uploads.html'));
    for (let i = 0; i < runs; i++) {
      const s = await render(pageSmall, small.url('uploads.html'));
      result.renderSmall.push(s.rows);
      result.indexedSmall.push(s.indexed);
      result.searchSmall.push(...(await searches(pageSmall, 50)));
      const l = await render(pageLarge, large.url('uploads.html'));
      result.renderLarge.push(l.rows);
      result.indexedLarge.push(l.indexed);
      result.searchLarge.push(...(await searches(pageLarge, 5000)));
    }
  } finally {
    await pageSmall.close();
    await pageLarge.close();
  }
  return result;
}
