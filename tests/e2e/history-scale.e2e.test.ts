// History at the import cap, in both browsers: 5,000 uploads brought in through the uploads page's
// own Import. The page renders one page of rows with "Show more", a search finds exactly the right
// entries (by name, by host and type, a disguised name shown without its bidi override), axe
// finds nothing serious, and the popup lists three recent uploads, links to all uploads and to
// payment requests, and stays under the browsers' 600 px popup limit.
import { beforeAll, describe, expect, it } from 'vitest';
import { DISGUISED_AT, historyExport, historyName, hostOf } from '../../devkit/history';
import { until } from '../../devkit/wait';
import type { DriverPage } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { screenshotAndAxe } from './support/axe';
import { historyCount } from './support/history';

const COUNT = 5000;
const PAGE = 50;

/** The data-id of every row of the list, in order. */
const rowIds = (page: DriverPage) =>
  page.evaluate(() => [...document.querySelectorAll('tbody tr')].map((r) => r.getAttribute('data-id')));

/** Waits until the list shows exactly `ids`, in that order. */
async function listShows(page: DriverPage, ids: string[], what: string) {
  await until(
    async () => (JSON.stringify(await rowIds(page)) === JSON.stringify(ids) ? true : undefined),
    what,
  );
}

/** Entry numbers from newest to oldest that satisfy `keep`. */
const newestFirst = (keep: (n: number) => boolean) =>
  Array.from({ length: COUNT }, (_, i) => COUNT - 1 - i).filter(keep);
const ids = (numbers: number[]) => numbers.map((n) => `bulk-${n}`);

forEachBrowser({}, (d) => {
  describe('history at the import cap', () => {
    let list: DriverPage;

    beforeAll(async () => {
      list = await d.open('uploads.html');
      await list.waitFor('#import');
      await list.setInputFiles('#import', {
        name: 'history.json',
        mimeType: 'application/json',
        buffer: historyExport(COUNT),
      });
      await until(
        async () => (/Imported 5,000 uploads/.test(await list.text('[role="status"]')) ? true : undefined),
        'the import of 5,000 uploads',
        120_000,
      );
      expect(await historyCount(list)).toBe(COUNT);
    });

    it('the uploads page shows one page of the newest, and Show more adds the next', async () => {
      await listShows(list, ids(newestFirst((n) => n >= COUNT - PAGE)), 'the first page');
      expect(await list.text('#shown-count')).toBe('Showing 50 of 5,000 uploads.');
      await screenshotAndAxe(list, 'uploads-5000');
      await list.click('#show-more');
      await listShows(list, ids(newestFirst((n) => n >= COUNT - 2 * PAGE)), 'the second page');
      expect(await list.text('#shown-count')).toBe('Showing 100 of 5,000 uploads.');
    });

    it('a search finds exactly the matching uploads, by name, and by host and type together', async () => {
      await list.fill('#search', 'REPORT-004');
      await listShows(list, ids([48, 46, 44, 42, 40]), 'the reports 0040–0048');
      expect(await list.count('#show-more')).toBe(0);

      // Every upload on files-1.example is a photo; on files-2.example, a report.
      await list.fill('#search', `${hostOf(1)} image/png`);
      const photos = newestFirst((n) => hostOf(n) === hostOf(1));
      expect(photos).toHaveLength(1250);
      await listShows(list, ids(photos.slice(0, PAGE)), 'the first page of photos on files-1.example');
      expect(await list.text('#shown-count')).toBe('Showing 50 of 1,250 uploads.');

      await list.fill('#search', `${hostOf(2)} image/png`);
      await until(async () => ((await list.count('tbody tr')) === 0 ? true : undefined), 'no match');
      expect(await list.text('main')).toContain('Nothing matches the search.');
    });

    it('a disguised name is found by what it shows, and shown without its bidi override', async () => {
      await list.fill('#search', 'invoicefdp');
      await listShows(list, ids([DISGUISED_AT]), 'the disguised upload');
      const row = await list.text('tbody tr');
      expect(row).toContain('invoicefdp.exe');
      expect(row).not.toContain('\u202E');
      expect(historyName(DISGUISED_AT)).toContain('\u202E');
      // A blank search shows everything again. (A space: WebDriver's clear, which Firefox's fill('')
      // ends with, fires no input event, while a person's Backspace does.)
      await list.fill('#search', ' ');
      await listShows(list, ids(newestFirst((n) => n >= COUNT - PAGE)), 'the first page again');
    });

    it('the popup lists the three newest, links to all uploads and payment requests, and stays under 600 px', async () => {
      const popup = await d.open('popup.html');
      await popup.waitFor('h2#recent-h');
      await listShows(popup, ids([4999, 4998, 4997]), 'the three newest in the popup');
      expect(await popup.attribute('#all-uploads', 'href')).toBe(d.url('uploads.html'));
      expect(await popup.attribute('#payment-requests', 'href')).toBe(d.url('payment.html'));
      // The popup's own height: its content, not the tab's viewport it is opened in here.
      const height = await popup.evaluate(() => {
        const body = document.body;
        return body.getBoundingClientRect().bottom + Number.parseFloat(getComputedStyle(body).marginBottom);
      });
      expect(height).toBeGreaterThan(100);
      expect(height).toBeLessThan(600);
      await screenshotAndAxe(popup, 'popup-5000');
      await popup.close();
    });
  });
});
