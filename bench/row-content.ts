// Row f: the content script's cost on a page of 10,000 links. Two browsers run side by side, one
// with the extension and one without; each load alternates between them. Measure: the main-thread
// task time of the tab's renderer (CDP Performance.getMetrics TaskDuration) from the navigation
// until 1.5 s after the load event, which covers the script run at document_idle.
// Three pages: ordinary links (f1), links with an unrelated `type` attribute (f2, what a loose
// `a[type]` selector picks up), and payment-request links (f3, what a hostile page can pile up).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchBrowser } from './chromium';
import { median, sleep } from './common';

export interface ContentResult {
  withExtension: number[];
  without: number[];
  /** Script time alone (CDP ScriptDuration), which is nearly all the extension's on these pages. */
  scriptWith: number[];
  scriptWithout: number[];
  /** Loads where the extension's isolated world was seen (should be all of them). */
  injected: number;
}

export type LinkPage = 'ordinary' | 'typed' | 'payment';

const LINKS = 10_000;

function linkHtml(kind: LinkPage, i: number): string {
  switch (kind) {
    case 'ordinary':
      return `<a href="https://example.org/articles/${i}?ref=list">Article number ${i}</a>`;
    case 'typed':
      return `<a type="text/html" href="https://example.org/articles/${i}?ref=list">Article number ${i}</a>`;
    case 'payment':
      return `<a href="bitcoin:?r=${encodeURIComponent(`https://shop.example.org/pay/${i}`)}">Invoice ${i}</a>`;
  }
}

function pageHtml(kind: LinkPage): string {
  const items: string[] = [];
  for (let i = 0; i < LINKS; i++) items.push(`<li>${linkHtml(kind, i)}</li>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>10,000 links</title></head><body><h1>Links</h1><ul>${items.join('\n')}</ul></body></html>`;
}

async function load(
  b: BenchBrowser,
  url: string,
): Promise<{ task: number; script: number; injected: boolean }> {
  const page = await b.ctx.newPage();
  try {
    const cdp = await b.ctx.newCDPSession(page);
    let injected = false;
    cdp.on('Runtime.executionContextCreated', (e: any) => {
      if (e.context?.auxData?.type === 'isolated' && e.context.name === 'Hushdrop') injected = true;
    });
    await cdp.send('Runtime.enable');
    await cdp.send('Performance.enable');
    await page.goto(url, { waitUntil: 'load' });
    await sleep(1500);
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? Number.NaN) * 1000;
    return { task: metric('TaskDuration'), script: metric('ScriptDuration'), injected };
  } finally {
    await page.close();
  }
}

export async function contentRow(
  withExt: BenchBrowser,
  without: BenchBrowser,
  runs: number,
  kind: LinkPage = 'ordinary',
): Promise<ContentResult> {
  const html = pageHtml(kind);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(html);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${kind}-links.html`;
  const result: ContentResult = {
    withExtension: [],
    without: [],
    scriptWith: [],
    scriptWithout: [],
    injected: 0,
  };
  try {
    // One warm-up load each (process start, caches), not counted.
    await load(withExt, url);
    await load(without, url);
    for (let r = 0; r < runs; r++) {
      const order = r % 2 ? [without, withExt] : [withExt, without];
      for (const b of order) {
        const { task, script, injected } = await load(b, url);
        if (b === withExt) {
          result.withExtension.push(task);
          result.scriptWith.push(script);
          if (injected) result.injected++;
        } else {
          result.without.push(task);
          result.scriptWithout.push(script);
        }
      }
    }
  } finally {
    server.close();
  }
  return result;
}

export const contentRatio = (r: ContentResult) => median(r.withExtension) / median(r.without);

/**
 * The extension's script time as a share of the page's task time without it. The pages run no
 * script of their own (ScriptDuration is 0 without the extension), so this is the extension's
 * cost alone, and much steadier than the task-time ratio on a busy machine.
 */
export const scriptShare = (r: ContentResult) =>
  (median(r.scriptWith) - median(r.scriptWithout)) / median(r.without);
