// Row f: the content script's cost on a page of 10,000 ordinary links. Two browsers run side by
// side, one with the extension and one without; each load alternates between them. Measure: the
// main-thread task time of the tab's renderer (CDP Performance.getMetrics TaskDuration) from the
// navigation until 1.5 s after the load event, which covers the script run at document_idle.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchBrowser } from './chromium';
import { median, sleep } from './common';

export interface ContentResult {
  withExtension: number[];
  without: number[];
  /** Loads where the extension's isolated world was seen (should be all of them). */
  injected: number;
}

const LINKS = 10_000;

function pageHtml(): string {
  const items: string[] = [];
  for (let i = 0; i < LINKS; i++)
    items.push(`<li><a href="https://example.org/articles/${i}?ref=list">Article number ${i}</a></li>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>10,000 links</title></head><body><h1>Links</h1><ul>${items.join('\n')}</ul></body></html>`;
}

async function load(b: BenchBrowser, url: string): Promise<{ task: number; injected: boolean }> {
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
    const task = metrics.find((m) => m.name === 'TaskDuration')?.value ?? Number.NaN;
    return { task: task * 1000, injected };
  } finally {
    await page.close();
  }
}

export async function contentRow(
  withExt: BenchBrowser,
  without: BenchBrowser,
  runs: number,
): Promise<ContentResult> {
  const html = pageHtml();
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(html);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/links.html`;
  const result: ContentResult = { withExtension: [], without: [], injected: 0 };
  try {
    // One warm-up load each (process start, caches), not counted.
    await load(withExt, url);
    await load(without, url);
    for (let r = 0; r < runs; r++) {
      const order = r % 2 ? [without, withExt] : [withExt, without];
      for (const b of order) {
        const { task, injected } = await load(b, url);
        if (b === withExt) {
          result.withExtension.push(task);
          if (injected) result.injected++;
        } else result.without.push(task);
      }
    }
  } finally {
    server.close();
  }
  return result;
}

export const contentRatio = (r: ContentResult) => median(r.withExtension) / median(r.without);
