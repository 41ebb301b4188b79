// A new installation as a person meets it: no settings seeded. The welcome page opens by itself;
// the popup says "Set up a server first" until a server has passed a test; the bundled server's
// address alone finds the variant and tests it; then the first upload from the popup works and
// its link opens.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openLink } from '../../devkit/links';
import { until } from '../../devkit/wait';
import type { DriverPage } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { screenshotAndAxe } from './support/axe';
import { fillServer } from './support/options';
import { serverForFile } from './support/servers';
import { endedJob, giveToPopup } from './support/uploads';

const ref = serverForFile({});

/**
 * The welcome page's status once it says Ready, or a failure with the sentence it showed (other
 * than `earlier`, the one shown before Connect was clicked).
 */
async function readyOrFailed(page: DriverPage, earlier: string): Promise<string> {
  return until(
    async () => {
      const text = await page.text('#welcome-status');
      if ((await page.attribute('#welcome-status', 'class')) === 'error' && text !== earlier)
        throw new Error(`The welcome page said: ${text}`);
      return text.startsWith('Ready') ? text : undefined;
    },
    'the welcome page to test and save the server',
    60_000,
  );
}

forEachBrowser({ keepWelcome: true }, (d) => {
  describe('first run', () => {
    it('the popup of a fresh profile says "Set up a server first", with no upload controls', async () => {
      const popup = await d.open('popup.html');
      await popup.waitFor('#setup-h');
      expect(await popup.text('#setup-h')).toBe('Set up a server first');
      expect(await popup.count('.drop')).toBe(0);
      expect(await popup.count('#set-up')).toBe(1);
      await popup.close();
    });

    it('the welcome page opened by itself; nothing answering at an address says so, and opens Advanced for a Teknik server', async () => {
      const page = d.welcomePage();
      await page.waitFor('#address');
      await page.fill('#address', 'http://127.0.0.1:9');
      await page.click('#connect');
      // The class first: the text read after it is the failure's (read before, it can still be "Asking…").
      const text = await until(
        async () =>
          (await page.attribute('#welcome-status', 'class')) === 'error'
            ? await page.text('#welcome-status')
            : undefined,
        'the failure',
      );
      expect(text).toMatch(
        /^Nothing answered at http:\/\/127\.0\.0\.1:9\/_hushdrop\/info\. Check the address/,
      );
      expect(await page.attribute('#advanced', 'open')).not.toBeNull();
      await screenshotAndAxe(page, 'welcome-failed');
    });

    it('then one address finds the variant, tests and saves the server', async () => {
      const page = d.welcomePage();
      expect(await page.url()).toBe(d.url('welcome.html'));
      await page.waitFor('#address');
      // A narrow window first: the page holds at 400 px.
      await page.setViewport(400, 800);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      await page.fill('#address', ref.server.baseUrl);
      const earlier = await page.text('#welcome-status');
      // Saving makes a tested server exist; the page being used must not swap its form for the
      // "set up already" card meanwhile (it did, for a render, and the status node went stale).
      await page.evaluate(() => {
        new MutationObserver(() => {
          if (document.getElementById('set-up-already')) document.body.dataset.cardShown = 'yes';
        }).observe(document.body, { childList: true, subtree: true });
      });
      await page.click('#connect');
      const ready = await readyOrFailed(page, earlier);
      expect(await page.evaluate(() => document.body.dataset.cardShown ?? 'no')).toBe('no');
      expect(ready).toContain(ref.server.baseUrl);
      expect(await page.text('#found')).toMatch(/Found a Hushdrop server\. Uploads use its API: Current/);
      await screenshotAndAxe(page, 'welcome-ready');
      await page.setViewport(1280, 800);
      // Saved through the one settings item: the server it found, tested, used for uploads.
      const stored = (await d.getStorage('settings')) as any;
      const active = stored.profiles.find((p: any) => p.id === stored.activeProfileId);
      expect(active).toMatchObject({
        passedTest: true,
        server: { variant: 'current', apiUrl: ref.server.apiUrl, uploadUrl: ref.server.uploadUrl },
      });
      expect(stored.profiles).toHaveLength(1);
    });

    it('then the first upload from the popup works, and its link opens', async () => {
      const popup = await d.open('popup.html');
      await popup.waitFor('.drop');
      expect(await popup.count('#setup-h')).toBe(0);
      const content = randomBytes(2000).toString('base64');
      await giveToPopup(d, popup, { name: 'first.txt', text: content });
      const job = await endedJob(d, (j) => j.name === 'first.txt');
      expect(job.state, job.error).toBe('done');
      expect(job.link!.startsWith(`${ref.server.uploadUrl}/`)).toBe(true);
      expect((await openLink(job.link!)).toString()).toBe(content);
      await popup.close();
    });

    it('then the welcome page, opened again (as npm start leaves it), shows that server as ready, and can still set up another', async () => {
      const page = await d.open('welcome.html');
      await page.waitFor('#set-up-already');
      expect(await page.text('#set-up-already')).toMatch(
        new RegExp(
          `^Uploads already go to .+ \\(${ref.server.baseUrl.replace(/[.]/g, '\\.')}\\), and it passed`,
        ),
      );
      expect(await page.count('#address')).toBe(0);
      expect(await page.attribute('#upload-now', 'href')).toBe('/upload.html');
      await page.click('#other-server');
      await page.waitFor('#address');
      await page.close();
    });
  });
});

describe('set up on the options page instead', () => {
  forEachBrowser({}, (d) => {
    it('a passed Test connection there ends "Set up a server first" too', async () => {
      const before = await d.open('popup.html');
      await before.waitFor('#setup-h');
      await before.close();
      const page = await d.open('options.html');
      await page.waitFor('#name');
      await fillServer(page, ref.server, 'current');
      // The bundled server is on loopback, which the manifest grants: no permission prompt.
      await page.click('#test');
      await until(
        async () => /Connection works/.test(await page.text('#test ~ p')) || undefined,
        'the connection test',
      );
      await page.click('#save');
      await until(async () => (await page.text('#save ~ p')) === 'Saved.' || undefined, '"Saved."');
      await page.close();
      const popup = await d.open('popup.html');
      await popup.waitFor('.drop');
      expect(await popup.count('#setup-h')).toBe(0);
      await popup.close();
    });
  });
});
