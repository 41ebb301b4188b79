// The uploads list and the viewer, in both browsers: Open from the list and a pasted link both
// decrypt and save the original; export, clear and import give the same entries, and Delete on
// the server removes the file; server-side encryption with and without a kept key; and a Teknik
// server's download page, followed instead of the bytes.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverSettings } from '../../devkit/settings';
import { until } from '../../devkit/wait';
import { startTestServer } from '../testkit/server';
import type { Driver, DriverPage } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { screenshotAndAxe } from './support/axe';
import { historyCount } from './support/history';
import { UNGRANTED_HOST } from './support/hosts';
import { serverForFile } from './support/servers';
import {
  deleteOnServerFromRow,
  fileNameOf,
  openInViewer,
  uploadRow,
  uploadThroughPage,
} from './support/uploads';

const ref = serverForFile({ record: true, host: UNGRANTED_HOST });

const row = uploadRow;

/** Saves what the viewer decrypted and returns the file's name and bytes. */
async function saveFromViewer(d: Driver, viewer: DriverPage) {
  await viewer.waitFor('#save');
  const saved = await d.download(viewer, () => viewer.click('#save'));
  return { fileName: saved.fileName, bytes: readFileSync(saved.path) };
}

forEachBrowser({ grantHosts: [UNGRANTED_HOST] }, (d) => {
  beforeAll(() => d.setSettings(serverSettings(ref.server, 'current')));

  describe('uploads list and viewer', () => {
    let original: Buffer;
    let link: string;

    it('Open in the list shows the upload in the viewer, which saves the original', async () => {
      original = randomBytes(3 * 1024 * 1024 + 5);
      link = await uploadThroughPage(d, { name: 'photo.bin', buffer: original });
      const list = await d.open('uploads.html');
      await list.waitFor(row('photo.bin'));
      const viewer = await d.waitForNewPage(() =>
        list.click({ css: 'button', hasText: /^Open$/, within: row('photo.bin') }),
      );
      await viewer.waitFor('#save');
      expect(await viewer.text('#check')).toMatch(/exactly the file you uploaded/);
      const saved = await saveFromViewer(d, viewer);
      expect(saved.fileName).toBe('photo.bin');
      expect(saved.bytes.equals(original)).toBe(true);
      await viewer.close();
      await list.close();
    });

    it('a pasted link: the viewer decrypts it, says it is the file uploaded, and saves the original', async () => {
      const viewer = await openInViewer(d, link);
      await viewer.waitFor('#save');
      expect(await viewer.text('#check')).toMatch(/exactly the file you uploaded/);
      const saved = await saveFromViewer(d, viewer);
      expect(saved.fileName).toBe('photo.bin');
      expect(saved.bytes.equals(original)).toBe(true);
      await screenshotAndAxe(viewer, 'viewer');
      await viewer.close();
    });

    it('export, clear and import give the same entries; Delete on the server removes the file', async () => {
      const page = await d.open('uploads.html');
      await page.waitFor('tbody tr');
      const before = await historyCount(page);
      expect(before).toBeGreaterThan(0);
      const ids = () =>
        page.evaluate(() =>
          [...document.querySelectorAll('tbody tr')].map((r) => r.getAttribute('data-id')).sort(),
        );
      const rowsBefore = await ids();
      await screenshotAndAxe(page, 'uploads');

      const exported = await d.download(page, () => page.click('#export'));
      await page.click('#clear');
      await page.click('#clear-confirm');
      await until(async () => ((await historyCount(page)) === 0 ? true : undefined), 'an empty history');
      await page.setInputFiles('#import', exported.path);
      await until(async () => ((await historyCount(page)) === before ? true : undefined), 'the import');
      await until(async () => ((await page.count('tbody tr')) === before ? true : undefined), 'the list');
      expect(await ids()).toEqual(rowsBefore);
      // Importing the same file again adds nothing.
      await page.setInputFiles('#import', exported.path);
      await until(
        async () => (/Imported 0 uploads/.test(await page.text('[role="status"]')) ? true : undefined),
        '"Imported 0 uploads"',
      );

      const fileName = fileNameOf(link);
      expect(await ref.server.stored(fileName)).toBeDefined();
      await deleteOnServerFromRow(page, row('photo.bin'));
      await until(
        async () => (/deleted from the server/.test(await page.text('[role="status"]')) ? true : undefined),
        'the deletion',
      );
      expect(await ref.server.stored(fileName)).toBeUndefined();
      expect((await fetch(link.split('#')[0]!)).status).toBe(404);
      await page.close();
    });
  });

  describe('server-side encryption', () => {
    it('a server-encrypted upload whose key the server did not keep opens in the viewer with the server’s IV', async () => {
      const original = randomBytes(200_000);
      const link = await uploadThroughPage(d, { name: 'server-side.bin', buffer: original }, async (p) => {
        await p.check({ label: 'Let the server encrypt' });
        await p.uncheck({ label: /Server keeps the key/ });
      });
      expect(link).toMatch(/#[A-Za-z0-9]{32}$/);
      expect((await ref.server.stored(fileNameOf(link)))!.saved).toBe(false);

      const list = await d.open('uploads.html');
      await list.waitFor(row('server-side.bin'));
      const viewer = await d.waitForNewPage(() =>
        list.click({ css: 'button', hasText: /Open/, within: row('server-side.bin') }),
      );
      expect((await saveFromViewer(d, viewer)).bytes.equals(original)).toBe(true);
      await viewer.close();
      await list.close();
    });

    it('a server that answers url#key for a key it keeps: the link has no key, Open goes to the server, and a pasted url#key is not decrypted twice', async () => {
      // Teknik did so from 2016 to 2018; the server decrypts such files itself on download.
      const old = await startTestServer({ keyInEveryUrl: true });
      try {
        await d.setSettings(serverSettings(old.server, 'current'));
        const original = randomBytes(150_000);
        const link = await uploadThroughPage(d, { name: 'kept.bin', buffer: original }, (p) =>
          p.check({ label: 'Let the server encrypt' }),
        );
        expect(link).not.toContain('#');
        const stored = (await old.server.stored(new URL(link).pathname.split('/').pop()!))!;
        expect(stored.saved).toBe(true);
        // Open in the list goes to the server's own address: the server decrypts, not the extension.
        const list = await d.open('uploads.html');
        const open = { css: 'a', hasText: /Open/, within: row('kept.bin') };
        await list.waitFor(open);
        expect(await list.attribute(open, 'href')).toBe(link);
        expect(Buffer.from(await (await fetch(link)).arrayBuffer()).equals(original)).toBe(true);
        await list.close();
        // The url#key the server answered, pasted into the viewer: the record says not to decrypt.
        const viewer = await openInViewer(d, `${link}#${stored.key}`);
        await viewer.waitFor('#save');
        expect(await viewer.text('#check')).toMatch(/exactly the file you uploaded/);
        expect((await saveFromViewer(d, viewer)).bytes.equals(original)).toBe(true);
        await viewer.close();
      } finally {
        await d.setSettings(serverSettings(ref.server, 'current'));
        await old.stop();
      }
    });
  });

  describe("Teknik's download page", () => {
    it('the viewer follows the page a Teknik server sends instead of the bytes, for client and server encryption', async () => {
      const teknik = await startTestServer({ downloadPage: true });
      try {
        await d.setSettings(serverSettings(teknik.server, 'current'));
        const original = randomBytes(300_000);
        const clientLink = await uploadThroughPage(d, { name: 'page.bin', buffer: original });
        expect((await fetch(clientLink.split('#')[0]!)).headers.get('content-type')).toMatch(/text\/html/);

        // Server encryption with a key the server does not keep: its link carries the server's key.
        const form = new FormData();
        for (const [k, v] of Object.entries({ encrypt: 'true', saveKey: 'false', genDeletionKey: 'false' }))
          form.append(k, v);
        form.append('file', new Blob([new Uint8Array(original)]), 'server.bin');
        const made = await (
          await fetch(`${teknik.server.apiUrl}/v1/Upload`, { method: 'POST', body: form })
        ).json();
        const serverLink: string = made.result.url;
        expect(serverLink).toContain('#');

        for (const link of [clientLink, serverLink]) {
          const viewer = await openInViewer(d, link);
          expect((await saveFromViewer(d, viewer)).bytes.equals(original)).toBe(true);
          await viewer.close();
        }
      } finally {
        await d.setSettings(serverSettings(ref.server, 'current'));
        await teknik.stop();
      }
    });

    it('an encrypted HTML file is still just a file to decrypt', async () => {
      const original = Buffer.from('<!doctype html><h1>my page</h1><script>var iv = "nope";</script>');
      const link = await uploadThroughPage(d, { name: 'page.html', mimeType: 'text/html', buffer: original });
      const viewer = await openInViewer(d, link);
      await viewer.waitFor('#save');
      expect(await viewer.text('#check')).toMatch(/exactly the file you uploaded/);
      expect(await viewer.count({ css: 'h1', hasText: 'my page' })).toBe(0);
      await viewer.close();
    });
  });
});
