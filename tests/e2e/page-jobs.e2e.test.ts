// An upload started on the upload page is one job like the others (issue 22), in both browsers: it
// shows in the popup and on the toolbar badge, Cancel in the popup stops it on the page, it ends
// with the link copied and a notification, its failure reads the same everywhere, and closing or
// reloading the page ends it.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { serverSettings } from '../../devkit/settings';
import { until } from '../../devkit/wait';
import type { Driver, DriverPage, JobView } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { UNGRANTED_HOST } from './support/hosts';
import { serverForFile } from './support/servers';
import { chooseFiles } from './support/uploads';

const ref = serverForFile({ record: true, host: UNGRANTED_HOST });

/** Chooses a file on the upload page, which starts its upload. */
async function pick(page: DriverPage, name: string): Promise<void> {
  await chooseFiles(page, { name, buffer: randomBytes(200_000) });
}

const jobNamed = async (d: Driver, name: string): Promise<JobView | undefined> =>
  (await d.jobs()).find((j) => j.name === name);

/** Waits for the job to reach `state` and returns it. */
const jobIn = (d: Driver, name: string, state: string): Promise<JobView> =>
  until(async () => {
    const job = await jobNamed(d, name);
    return job?.state === state ? job : undefined;
  }, `${name} to be ${state}`);

/**
 * Opens the upload page and starts an upload the server holds unanswered; resolves once it does.
 * The caller disarms the fault (see tests/e2e/README.md).
 */
async function heldUpload(d: Driver, name: string): Promise<DriverPage> {
  const page = await d.open('upload.html');
  const before = ref.server.requests.length;
  ref.server.setFault('stall', { once: true });
  await pick(page, name);
  await until(
    async () => ref.server.requests.slice(before).some((r) => r.method === 'POST') || undefined,
    'the server to hold the upload',
  );
  return page;
}

forEachBrowser({ grantHosts: [UNGRANTED_HOST] }, (d) => {
  describe('a job of the upload page', () => {
    it('shows in the popup, ends with the link copied and a notification, and says so on the page', async () => {
      await d.setSettings(serverSettings(ref.server, 'current'));
      const page = await d.open('upload.html');
      await pick(page, 'page-done.bin');
      const link = { css: '.job[data-state="done"] input[id^="link-"]' };
      await page.waitFor(link);
      const value = await page.inputValue(link);
      const job = await jobIn(d, 'page-done.bin', 'done');
      expect(job.link).toBe(value);
      expect((job.owner as { kind: string }).kind).toBe('page');
      await until(async () => ((await d.clipboardText()) === value ? true : undefined), 'the copied link');
      await until(
        async () => (await d.notifications()).some((n) => n.title === 'Uploaded page-done.bin') || undefined,
        'the notification',
      );
      expect(await page.text({ css: '.ok', within: '.job[data-state="done"]' })).toContain(
        'The link is copied to the clipboard.',
      );
      expect(await d.badgeText(page)).toBe('');

      const popup = await d.open('popup.html');
      const listed = {
        css: '.job-link',
        within: { css: '.job[data-state="done"]', hasText: 'page-done.bin' },
      };
      await popup.waitFor(listed);
      expect(await popup.inputValue(listed)).toBe(value);
      await popup.close();
      await page.close();
    });

    it('shows on the badge while it runs, and Cancel in the popup stops it on the page', async () => {
      try {
        const page = await heldUpload(d, 'page-cancel.bin');
        await until(async () => /^(\d+%|…)$/.test(await d.badgeText(page)) || undefined, 'a badge');
        const popup = await d.open('popup.html');
        await popup.click({
          css: 'button',
          hasText: 'Cancel',
          within: { css: '.job[data-state="running"]', hasText: 'page-cancel.bin' },
        });
        const cancelled = { css: '.job[data-state="cancelled"]', hasText: 'page-cancel.bin' };
        await page.waitFor(cancelled);
        await popup.waitFor(cancelled);
        await until(async () => (await d.badgeText(popup)) === '' || undefined, 'the badge to clear');
        await popup.close();
        await page.close();
      } finally {
        ref.server.setFault(null);
      }
    });

    it('a failure reads the same on the page and in the popup, and is notified', async () => {
      const page = await d.open('upload.html');
      ref.server.setFault('error-200', { once: true });
      try {
        await pick(page, 'page-refused.bin');
        const failed = '.job[data-state="failed"]';
        await page.waitFor(failed);
        const sentence = await page.text({ css: '.error', within: failed });
        const said = await page.text({ css: '.error + .small', within: failed });
        expect(said).toBe('The server said: “Uploads are Disabled”');
        const popup = await d.open('popup.html');
        const alert = {
          css: '[role="alert"]',
          within: { css: '.job[data-state="failed"]', hasText: 'page-refused.bin' },
        };
        await popup.waitFor(alert);
        expect(await popup.text(alert)).toBe(`${sentence} ${said}`);
        await jobIn(d, 'page-refused.bin', 'failed');
        await until(
          async () =>
            (await d.notifications()).some((n) => n.title.includes('page-refused.bin')) || undefined,
          'the notification',
        );
        await popup.close();
        await page.close();
      } finally {
        ref.server.setFault(null);
      }
    });

    const leaving = [
      ['closing', (page: DriverPage) => page.close()],
      // As the reload button does, and once loaded again (Firefox 140's Marionette answered nothing
      // while a reload started from the page's own script went on).
      ['reloading', (page: DriverPage) => page.reload()],
    ] as const;
    for (const [how, leave] of leaving)
      it(`${how} the page while it runs ends the job in the popup, and the badge is cleared`, async () => {
        const name = `page-${how}.bin`;
        try {
          const page = await heldUpload(d, name);
          const popup = await d.open('popup.html');
          await popup.waitFor({ css: '.job[data-state="running"]', hasText: name });
          await leave(page);
          const ended = { css: '.job[data-state="cancelled"]', hasText: name };
          // A generous wait: in the full suite on a loaded machine Firefox 140 once took over 30 s here.
          await popup.waitFor(ended, { timeout: 90_000 });
          expect(await popup.text({ css: '[role="alert"]', within: ended })).toMatch(/was closed or left/);
          expect((await jobIn(d, name, 'cancelled')).error).toMatch(/was closed or left/);
          await until(async () => (await d.badgeText(popup)) === '' || undefined, 'the badge to clear');
          await popup.close();
          if (how === 'reloading') await page.close();
        } finally {
          ref.server.setFault(null);
        }
      });
  });
});
