// Calm rows and errors that point to a fix (issue 20), in both browsers. In the uploads list: Copy
// link says "Copied ✓" where it was clicked and the clipboard holds the whole link; the key of the
// link and the deletion key are not in the row's text until "Show"; the deletion link is folded
// away under "Deletion link (keep it private)"; the QR code and the two deletions are in a menu
// that works from the keyboard. And an upload to an address where nothing listens names that
// address, with a button that opens the settings.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverSettings } from '../../devkit/settings';
import { until } from '../../devkit/wait';
import type { DriverPage, Target } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { serverForFile } from './support/servers';
import { chooseFiles, DONE_LINK, submitFile, uploadRow } from './support/uploads';

const ref = serverForFile({});

/** A loopback port where nothing listens: taken from the system, then given back. */
async function silentPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

/** Whether the element is laid out on screen (inside a closed <details> it is not). */
function shown(page: DriverPage, css: string, rowText: string): Promise<boolean> {
  return page.evaluate(
    ({ css, rowText }) => {
      const row = [...document.querySelectorAll('tbody tr')].find((r) => r.textContent?.includes(rowText));
      const el = row?.querySelector(css);
      // checkVisibility: a closed <details> hides its content with content-visibility, which
      // leaves it boxes (getClientRects) while nothing of it is drawn.
      return !!el && el.checkVisibility();
    },
    { css, rowText },
  );
}

forEachBrowser({}, (d) => {
  beforeAll(() => d.setSettings(serverSettings(ref.server, 'current')));

  describe('a row of the uploads list', () => {
    const name = 'calm.txt';
    const row: Target = uploadRow(name);
    let link: string;
    let deletionLink: string;
    let list: DriverPage;

    beforeAll(async () => {
      const page = await d.open('upload.html');
      link = await submitFile(page, { name, mimeType: 'text/plain', buffer: randomBytes(400) });
      deletionLink = await page.inputValue('.job[data-state="done"] input[id^="del-"]');
      await page.close();
      list = await d.open('uploads.html');
      await list.waitFor(row);
    });

    it('Copy link turns into "Copied ✓" and the clipboard holds the whole link', async () => {
      expect(link).toMatch(/#[A-Za-z0-9]{32}$/);
      await list.click({ css: 'button', hasText: 'Copy link', within: row });
      await list.waitFor({ css: 'button', hasText: 'Copied ✓', within: row });
      expect(await d.clipboardText()).toBe(link);
    });

    it('the key is not in the row until Show, and hidden again by Hide', async () => {
      const key = link.split('#')[1]!;
      const deletionKey = deletionLink.split('/').pop()!;
      expect(deletionKey.length).toBeGreaterThan(4);
      const rowText = () => list.text(row);
      expect(await rowText()).toContain(link.split('#')[0]);
      expect(await rowText()).not.toContain(key);
      expect(await rowText()).not.toContain(deletionKey);
      await list.click({ css: '.masked-link button', hasText: 'Show', within: row });
      await until(async () => ((await rowText()).includes(key) ? true : undefined), 'the key shown');
      await list.click({ css: '.masked-link button', hasText: 'Hide', within: row });
      await until(async () => (!(await rowText()).includes(key) ? true : undefined), 'the key hidden again');
    });

    it('the deletion link is behind "Deletion link (keep it private)"', async () => {
      expect(await shown(list, 'details.deletion-link .masked-link', name)).toBe(false);
      await list.click({
        css: 'details.deletion-link summary',
        hasText: 'Deletion link (keep it private)',
        within: row,
      });
      await until(
        async () => ((await shown(list, 'details.deletion-link .masked-link', name)) ? true : undefined),
        'the deletion link shown',
      );
      // Opened, it still shows its key as dots until its own Show.
      expect(await list.text(row)).not.toContain(deletionLink.split('/').pop()!);
    });

    it('the menu works from the keyboard: arrows move, Escape closes and gives focus back, Enter chooses', async () => {
      const menuButton: Target = { css: 'button[aria-haspopup="menu"]', within: row };
      await list.focus(menuButton);
      expect(await list.attribute(menuButton, 'aria-expanded')).toBe('false');
      await list.press('Enter');
      await until(
        async () => ((await list.focused()).text === 'QR code' ? true : undefined),
        'focus on QR code',
      );
      expect(await list.attribute(menuButton, 'aria-expanded')).toBe('true');
      const seen: string[] = [];
      for (let i = 0; i < 3; i++) {
        await list.press('ArrowDown');
        seen.push((await list.focused()).text);
      }
      // The deletions say what they do; Down from the last entry comes back to the first.
      expect(seen).toEqual(['Remove from this list', 'Delete on the server', 'QR code']);
      await list.press('Escape');
      await until(
        async () => ((await list.count({ css: '[role="menu"]', within: row })) === 0 ? true : undefined),
        'the menu closed',
      );
      expect((await list.focused()).label).toBe(`More – ${name}`);
      expect(await list.attribute(menuButton, 'aria-expanded')).toBe('false');

      // Remove from this list, from the keyboard: it asks, and Enter answers.
      await list.press('Enter');
      await list.press('ArrowDown');
      expect((await list.focused()).text).toBe('Remove from this list');
      await list.press('Enter');
      await until(
        async () => ((await list.focused()).text === 'Yes, remove it' ? true : undefined),
        'the question',
      );
      await list.press('Enter');
      await until(async () => ((await list.count(row)) === 0 ? true : undefined), 'the row removed');
      expect(await list.text('[role="status"]')).toBe(
        `${name} was removed from this list (the file stays on the server).`,
      );
      await list.close();
    });
  });

  describe('an address where nothing answers', () => {
    it('the failure names the address, and its button opens the settings', async () => {
      const port = await silentPort();
      const nowhere = `http://127.0.0.1:${port}`;
      await d.setSettings(
        serverSettings({ baseUrl: nowhere, apiUrl: `${nowhere}/api`, uploadUrl: `${nowhere}/u` }, 'current'),
      );
      const page = await d.open('upload.html');
      try {
        await chooseFiles(page, { name: 'nowhere.txt', buffer: randomBytes(100) });
        const failed = '.job[data-state="failed"]';
        await page.waitFor(failed);
        expect(await page.count(DONE_LINK)).toBe(0);
        expect(await page.text({ css: '.error', within: failed })).toBe(
          `Nothing answered at ${nowhere}/api, or the connection broke off.`,
        );
        const settings = await d.waitForNewPage(() =>
          page.click({ css: 'button', hasText: 'Open settings', within: failed }),
        );
        expect(await settings.url()).toBe(d.url('options.html'));
        await settings.close();
      } finally {
        await page.close();
        await d.setSettings(serverSettings(ref.server, 'current'));
      }
    });
  });
});
