// The options page says what state its form is in, in both browsers (issue 20, "options bugs"):
// when a save is refused (an address that is no URL), the "Saved." of an earlier save does not stay
// (it named a state that was no longer true, and a reload then dropped the edit in silence); and the
// server used for uploads cannot be unticked while the list still names it as used for uploads; and
// a new server's addresses start empty rather than with "https://" filled in as a value; and a
// passed test belongs to the addresses it was made with; and problems are said in our own words,
// with focus on the field; and leaving with unsaved changes asks first.
import { beforeAll, describe, expect, it } from 'vitest';
import { serverSettings } from '../../devkit/settings';
import { until } from '../../devkit/wait';
import { forEachBrowser } from './driver/each-browser';
import { serverForFile } from './support/servers';

const ref = serverForFile({});
const STATUS = '#save ~ p';

forEachBrowser({}, (d) => {
  beforeAll(() => d.setSettings(serverSettings(ref.server, 'current')));

  describe('the options form', () => {
    it('a save with an address that is no URL replaces "Saved." with our own sentence naming the field, which gets focus', async () => {
      const page = await d.open('options.html');
      await page.waitFor('#apiUrl');
      await page.click('#save');
      await until(async () => (await page.text(STATUS)) === 'Saved.' || undefined, '"Saved."');

      await page.fill('#apiUrl', 'not an address');
      expect(await page.text(STATUS)).toBe('Unsaved changes.');
      await page.click('#save');
      await until(
        async () =>
          /^Not saved: .*API address.* is not a web address \(for example https:/.test(
            await page.text(STATUS),
          ) || undefined,
        'the blocked save to be said in our words',
      );
      expect(await page.attribute('#apiUrl', 'aria-invalid')).toBe('true');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('apiUrl');
      // Nothing reached the stored settings.
      const stored = (await d.getStorage('settings')) as { profiles: { server: { apiUrl: string } }[] };
      expect(stored.profiles[0]!.server.apiUrl).toBe(ref.server.apiUrl);
      await page.close();
    });

    it('the server used for uploads cannot be unticked; ticking another moves it', async () => {
      const page = await d.open('options.html');
      await page.waitFor('#active');
      expect(await page.attribute('#active', 'disabled')).not.toBeNull();
      expect(await page.text('#active-hint')).toContain('Uploads go to this server');
      await page.click('#add-profile');
      expect(await page.attribute('#active', 'disabled')).toBeNull();
      await page.check('#active');
      expect(await page.attribute('#active', 'disabled')).not.toBeNull();
      expect(await page.text({ css: '#editing option', hasText: 'used for uploads' })).toContain('Server 2');
      await page.close();
    });

    it('a new server starts with empty addresses (https:// only as a hint), and saving one empty names the field', async () => {
      const page = await d.open('options.html');
      await page.waitFor('#apiUrl');
      await page.click('#add-profile');
      for (const field of ['#apiUrl', '#uploadUrl']) {
        expect(await page.inputValue(field)).toBe('');
        expect(await page.attribute(field, 'placeholder')).toMatch(/^https:\/\//);
      }
      await page.click('#save');
      await until(
        async () =>
          (await page.text(STATUS)).startsWith(
            'Not saved: Server 2: API address (current variant) is empty',
          ) || undefined,
        'the empty address to be named',
      );
      await page.close();
    });

    it('a changed address is saved as not tested: the popup asks to set up a server again', async () => {
      await d.setSettings(serverSettings(ref.server, 'current'));
      const page = await d.open('options.html');
      await page.waitFor('#apiUrl');
      await page.fill('#apiUrl', 'http://127.0.0.1:9/api');
      await page.click('#save');
      await until(async () => (await page.text(STATUS)) === 'Saved.' || undefined, '"Saved."');
      await page.close();
      const stored = (await d.getStorage('settings')) as { profiles: { passedTest?: boolean }[] };
      expect(stored.profiles[0]!.passedTest).not.toBe(true);
      const popup = await d.open('popup.html');
      await popup.waitFor('#setup-h');
      await popup.close();
    });

    it('leaving with unsaved changes asks first; after a save it does not', async () => {
      await d.setSettings(serverSettings(ref.server, 'current'));
      const page = await d.open('options.html');
      await page.waitFor('#name');
      // The page's own beforeunload handler is what makes the browser ask: a cancelable event
      // dispatched here is cancelled by it exactly when the browser would ask.
      const asks = () =>
        page.evaluate(() => {
          const e = new Event('beforeunload', { cancelable: true });
          dispatchEvent(e);
          return e.defaultPrevented;
        });
      expect(await asks()).toBe(false);
      await page.fill('#name', 'Renamed');
      await until(async () => (await asks()) || undefined, 'the unsaved-changes warning');
      await page.click('#save');
      await until(async () => (await page.text(STATUS)) === 'Saved.' || undefined, '"Saved."');
      await until(async () => ((await asks()) ? undefined : true), 'no warning after the save');
      await page.close();
    });
  });
});
