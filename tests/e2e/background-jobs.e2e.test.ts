// Uploads that run in the background (Chromium: the offscreen document; Firefox: the background
// page), in both browsers: a file given to the popup, and the right-click entries on a page's
// image, blob: image and selected text. Each ends with the link on the clipboard and a
// notification that names the file and the server's host, never the link.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLink } from '../../devkit/links';
import { serverSettings } from '../../devkit/settings';
import { until } from '../../devkit/wait';
import type { Driver, JobView } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { screenshotAndAxe } from './support/axe';
import { UNGRANTED_HOST } from './support/hosts';
import { serverForFile } from './support/servers';
import { type Site, startSite } from './support/site';
import { endedJob, giveToPopup } from './support/uploads';

const ref = serverForFile({ record: true, host: UNGRANTED_HOST });
let site: Site;

beforeAll(async () => {
  site = await startSite(readFileSync('public/icon/128.png'), UNGRANTED_HOST);
});

afterAll(async () => {
  await site?.close();
});

/** The link is on the clipboard, and a notification names the file and the host, never the link. */
async function copiedAndNotified(d: Driver, job: JobView) {
  const link = job.link!;
  await until(async () => ((await d.clipboardText()) === link ? true : undefined), 'the copied link');
  const note = await until(
    async () => (await d.notifications()).find((n) => n.title === `Uploaded ${job.name}`),
    'the notification',
  );
  expect(note.text).toContain(new URL(link).host);
  expect(note.text).not.toContain(link.split('#')[1]!);
  expect(note.text).not.toContain(link.split('#')[0]!);
}

forEachBrowser({ grantHosts: [UNGRANTED_HOST] }, (d) => {
  beforeAll(() => d.setSettings(serverSettings(ref.server, 'current')));

  describe('popup', () => {
    it('uploads a file given to it in the background; the link is copied and a notification says so', async () => {
      const page = await d.open('popup.html');
      await page.waitFor('.drop');
      const content = randomBytes(300_000).toString('base64');
      await giveToPopup(d, page, { name: 'pasted.txt', text: content });
      const job = await endedJob(d, (j) => j.name === 'pasted.txt');
      expect(job.state, job.error).toBe('done');
      const link = { css: '.job-link', within: { css: '.job[data-state="done"]', hasText: 'pasted.txt' } };
      await page.waitFor(link);
      const value = await page.inputValue(link);
      expect(value).toBe(job.link);
      expect((await openLink(value)).toString()).toBe(content);
      await copiedAndNotified(d, job);
      await page.waitFor('h2#recent-h');
      await screenshotAndAxe(page, 'popup');
      await page.close();
    });

    it('Cancel in the popup stops the background job', async () => {
      const page = await d.open('popup.html');
      await page.waitFor('.drop');
      // The server holds the request unanswered, so the job is surely running when Cancel is clicked.
      ref.server.setFault('stall', { once: true });
      const job = { css: '.job', hasText: 'cancel-popup.bin' };
      try {
        await giveToPopup(d, page, { name: 'cancel-popup.bin', size: 512 * 1024 });
        await page.click({ css: 'button', hasText: 'Cancel', within: job });
        await page.waitFor({ css: '.job[data-state="cancelled"]', hasText: 'cancel-popup.bin' });
      } finally {
        // Cancelled before its request reached the server, the job leaves the fault armed for the next upload.
        ref.server.setFault(null);
      }
      expect(await page.text({ css: '[role="alert"]', within: job })).toMatch(/cancelled/);
      await page.close();
    });
  });

  describe('right-click upload', () => {
    it('uploads an image, copies the link and notifies', async () => {
      const page = await d.openUrl(`${site.origin}/`);
      await page.waitFor('#img');
      await d.contextMenu(page, '#img', 'media');
      const job = await endedJob(d, (j) => j.name === 'cat.png');
      expect(job.state, job.error).toBe('done');
      expect((await openLink(job.link!)).equals(site.image)).toBe(true);
      await copiedAndNotified(d, job);
      await page.close();
    });

    it('uploads a blob: image, fetched inside the page', async () => {
      const page = await d.openUrl(`${site.origin}/blob.html`);
      await until(
        async () => (await page.attribute('#img', 'src'))?.startsWith('blob:') || undefined,
        'blob',
      );
      const before = (await d.jobs()).length;
      await d.contextMenu(page, '#img', 'media');
      await until(async () => ((await d.jobs()).length > before ? true : undefined), 'a new job');
      const job = await endedJob(d, (j) => j.name.startsWith('upload-') && j.name.endsWith('.png'));
      expect(job.state, job.error).toBe('done');
      expect((await openLink(job.link!)).equals(site.image)).toBe(true);
      await page.close();
    });

    it('a link whose file redirects to another site: refused, as permission was asked for the link’s site only', async () => {
      // 127.0.0.1 is granted by the manifest, so only the redirect check stands between the page and it.
      const elsewhere = await startSite(Buffer.from('a file on another site'));
      try {
        const to = `${site.origin}/redirect?to=${encodeURIComponent(`${elsewhere.origin}/cat.png`)}`;
        const page = await d.openUrl(`${site.origin}/link?to=${encodeURIComponent(to)}`);
        await page.waitFor('#link');
        await d.contextMenu(page, '#link', 'link');
        const job = await endedJob(d, (j) => j.name.startsWith('redirect'));
        expect(job.state).toBe('failed');
        expect(job.error).toContain(`sent the file on to another site (127.0.0.1:`);
        expect(job.link).toBeUndefined();
        await page.close();
      } finally {
        await elsewhere.close();
      }
    });

    it('uploads selected text', async () => {
      const page = await d.openUrl(`${site.origin}/`);
      await page.evaluate(() => window.getSelection()!.selectAllChildren(document.getElementById('note')!));
      await d.contextMenu(page, '#note', 'selection');
      const job = await endedJob(d, (j) => j.name.startsWith('selection-'));
      expect(job.state, job.error).toBe('done');
      expect((await openLink(job.link!)).toString()).toBe('A cat, and a note about it.');
      await page.close();
    });
  });
});
