// The authenticated link format (issue 17), in both browsers with the real extension: Test
// connection on the options page tells a Hushdrop server, and the profile's Link format is chosen
// there; a profile on ece uploads `url#ece1.<secret>`, the server records the format and never sees the secret; an
// untouched upload opens byte for byte from the uploads list; one byte flipped in the stored
// ciphertext on the server's disk makes the viewer refuse, from the list and from a pasted link,
// with the integrity check's sentence, and no decrypted copy is left or offered.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { opfsNames } from '../../devkit/opfs';
import { serverSettings } from '../../devkit/settings';
import { until } from '../../devkit/wait';
import { findInRecorded } from '../testkit/server';
import type { DriverPage } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { ECE_LINK, eceSettings, uploadEce } from './support/ece';
import { UNGRANTED_HOST } from './support/hosts';
import { serverForFile } from './support/servers';
import { openFromList, openInViewer, uploadThroughPage } from './support/uploads';

const ref = serverForFile({ record: true, host: UNGRANTED_HOST });

/** The viewer refused: the integrity sentence is shown, nothing is offered, no decrypted copy is kept. */
async function expectRefused(viewer: DriverPage) {
  await viewer.waitFor({ css: '.error[role="alert"]', hasText: /not saved/i });
  expect(await viewer.text('.error[role="alert"]')).toMatch(/changed/);
  expect(await viewer.count('#save')).toBe(0);
  expect((await opfsNames(viewer)).filter((n) => n.startsWith('open-'))).toEqual([]);
}

forEachBrowser({ grantHosts: [UNGRANTED_HOST] }, (d) => {
  describe('options', () => {
    beforeAll(() => d.setSettings(serverSettings(ref.server, 'current')));

    it('Test connection says the server is a Hushdrop server; the chosen Link format is what uploads use', async () => {
      const page = await d.open('options.html');
      await page.waitFor('#link-format');
      expect(await page.inputValue('#link-format')).toBe('teknik');
      await page.click('#test');
      await until(async () => /Connection works/.test(await page.text('#test ~ p')) || undefined, 'the test');
      await until(
        async () => /Hushdrop server: it also takes/.test(await page.text('#server-kind')) || undefined,
        'the server’s kind',
      );
      await page.selectOption({ label: 'Link format when the browser encrypts' }, 'ece');
      expect(await page.text('#server-kind')).toMatch(
        /takes the authenticated link format this profile uses/,
      );
      await page.click('#save');
      await until(async () => (await page.text('#save ~ p')) === 'Saved.' || undefined, '"Saved."');
      await page.close();
      expect(await uploadThroughPage(d, { name: 'chosen.txt', buffer: Buffer.from('chosen') })).toMatch(
        ECE_LINK,
      );
    });
  });

  describe('authenticated links', () => {
    beforeAll(() => d.setSettings(eceSettings(ref.server)));

    it('an untouched upload opens from the uploads list byte for byte; the secret never reached the server', async () => {
      const original = randomBytes(300_000);
      const { link, stored } = await uploadEce(d, ref.server, { name: 'intact.bin', buffer: original });
      const secret = link.split('#ece1.')[1]!;
      expect(findInRecorded(ref.server, new TextEncoder().encode(secret))).toEqual([]);
      expect(findInRecorded(ref.server, Buffer.from(secret, 'base64url'))).toEqual([]);
      expect((await stored.bytes()).length).toBeGreaterThan(original.length);

      const viewer = await openFromList(d, 'intact.bin');
      await viewer.waitFor('#save');
      expect(await viewer.text('#check')).toMatch(/exactly the file you uploaded/);
      const saved = await d.download(viewer, () => viewer.click('#save'));
      expect(saved.fileName).toBe('intact.bin');
      expect(readFileSync(saved.path).equals(original)).toBe(true);
      await viewer.close();
    });

    it('one byte flipped on the server’s disk: the viewer refuses it from the list and from the link', async () => {
      const { link, stored } = await uploadEce(d, ref.server, {
        name: 'tampered.bin',
        buffer: randomBytes(200_000),
      });
      const bytes = await stored.bytes();
      bytes[150_000]! ^= 0x20;
      await stored.replaceBytes(bytes);

      const fromList = await openFromList(d, 'tampered.bin');
      await expectRefused(fromList);
      await fromList.close();
      const pasted = await openInViewer(d, link);
      await expectRefused(pasted);
      await pasted.close();
    });
  });
});
