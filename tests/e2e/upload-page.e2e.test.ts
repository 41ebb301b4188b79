// The upload page, in both browsers: a server on a host the manifest does not grant, saved in the
// options (the permission request is part of it); each encryption mode with both API variants;
// the server's faults, each a clear sentence with nothing half written and a retry that works;
// and Cancel. The reference server records every request, so the key is looked for in them, and a
// plaintext marker in what reaches and stays on the server, for every mode, variant and link format.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { decipherFor } from '../../devkit/links';
import { serverSettings } from '../../devkit/settings';
import { storedBytes } from '../../devkit/stored-bytes';
import { DEFAULT_UPLOAD, type UploadDefaults } from '../../lib/settings';
import { findInRecorded, startTestServer } from '../testkit/server';
import { forEachBrowser } from './driver/each-browser';
import { screenshotAndAxe } from './support/axe';
import { historyCount } from './support/history';
import { ASKED_HOST, UNGRANTED_HOST } from './support/hosts';
import { fillServer, showAdvanced, testAndSave } from './support/options';
import { serverForFile } from './support/servers';
import { chooseFiles, DONE_LINK, fileNameOf, submitFile, uploadThroughPage } from './support/uploads';

const MIB = 1024 * 1024;

const ref = serverForFile({ record: true, host: UNGRANTED_HOST });

forEachBrowser({ grantHosts: [UNGRANTED_HOST], allowWhenAsked: [ASKED_HOST] }, (d) => {
  beforeAll(() => d.setSettings(serverSettings(ref.server, 'current')));

  describe('options: a server the manifest does not grant', () => {
    it('a second profile, allowed when asked, tests and saves, and the next upload goes there', async () => {
      const second = await startTestServer({ host: ASKED_HOST });
      try {
        const page = await d.open('options.html');
        await page.click('#add-profile');
        await page.fill('#name', 'Second server');
        await fillServer(page, second.server, 'legacy');
        await page.check('#active');
        await testAndSave(d, page, ASKED_HOST);
        await screenshotAndAxe(page, 'options');
        await page.close();

        const link = await uploadThroughPage(d, { name: 'second.bin', buffer: randomBytes(1000) });
        expect(link.startsWith(`${second.server.baseUrl}/`)).toBe(true);
        expect(link).toContain('?sub=u#');
      } finally {
        await d.setSettings(serverSettings(ref.server, 'current'));
        await second.stop();
      }
    });
  });

  describe('each mode, both variants', () => {
    for (const variant of ['current', 'legacy'] as const) {
      /** The upload page, its profile on the other variant and this one chosen on the page. */
      const uploadPage = async () => {
        await d.setSettings(serverSettings(ref.server, variant === 'current' ? 'legacy' : 'current'));
        const page = await d.open('upload.html');
        await showAdvanced(page);
        await page.selectOption('#variant', variant);
        return page;
      };

      it(`client mode, ${variant}: the ciphertext decrypts to the original and only the link holds the key`, async () => {
        const original = randomBytes(5 * MIB + 3);
        const before = ref.server.requests.length;
        const page = await uploadPage();
        const link = await submitFile(page, { name: `client-${variant}.bin`, buffer: original }, 60_000);
        await page.screenshot(`upload-${variant}`);

        const [url, key] = link.split('#') as [string, string];
        expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
        if (variant === 'legacy') expect(url).toContain('?sub=u');
        const res = await storedBytes(url);
        expect(res).toMatchObject({ status: 200, viaPage: true });
        const cipher = Buffer.from(res.bytes);
        expect(cipher.length).toBe(original.length);
        expect(cipher.equals(original)).toBe(false);
        const decipher = decipherFor(key);
        expect(Buffer.concat([decipher.update(cipher), decipher.final()]).equals(original)).toBe(true);

        // Every request the server got during this upload: no trace of the key.
        const keyBytes = Buffer.from(key, 'utf8');
        const needles = [
          keyBytes,
          Buffer.from(keyBytes.toString('hex')),
          Buffer.from(keyBytes.toString('base64')),
          Buffer.from(keyBytes.toString('base64url')),
          Buffer.from(key.toLowerCase()),
        ];
        expect(ref.server.requests.length).toBeGreaterThan(before);
        for (const n of needles) expect(findInRecorded(ref.server, new Uint8Array(n))).toEqual([]);
        // Do-not-track is on (the default): the extension's declarativeNetRequest rule put DNT: 1 on the wire.
        expect((await ref.server.stored(fileNameOf(link)))?.dntHeader).toBe(true);

        expect(await page.inputValue('.job[data-state="done"] input[id^="del-"]')).toContain('/');
        expect(await historyCount(page)).toBeGreaterThan(0);
        await page.close();
      });

      it(`server mode, ${variant}: a kept key gives a plain link, an unkept one a link with the server's key`, async () => {
        const original = randomBytes(100_000);
        let page = await uploadPage();
        await page.check({ label: 'Let the server encrypt' });
        await page.check({ label: /Server keeps the key/ });
        const kept = await submitFile(page, { name: `server-kept-${variant}.bin`, buffer: original });
        await page.close();
        expect(kept).not.toContain('#');
        expect(Buffer.from(await (await fetch(kept)).arrayBuffer()).equals(original)).toBe(true);

        page = await uploadPage();
        await page.check({ label: 'Let the server encrypt' });
        await page.uncheck({ label: /Server keeps the key/ });
        const unkept = await submitFile(page, { name: `server-unkept-${variant}.bin`, buffer: original });
        await page.close();
        expect(unkept).toMatch(/#[A-Za-z0-9]{32}$/);
        expect((await ref.server.stored(fileNameOf(unkept)))!.saved).toBe(false);
      });

      it(`plaintext marker, ${variant}: never on the server in client mode (both formats), nor stored in server mode`, async () => {
        /** Uploads a file holding a fresh marker with these defaults; returns the marker and what the server saw. */
        const upload = async (defaults: Partial<UploadDefaults>, name: string) => {
          const marker = Buffer.from(`HUSHDROP-PLAINTEXT-${randomBytes(12).toString('hex')}`);
          const file = Buffer.concat([randomBytes(70_000), marker, randomBytes(70_000), marker]);
          await d.setSettings(
            serverSettings(ref.server, variant, { defaults: { ...DEFAULT_UPLOAD, ...defaults } }),
          );
          const link = await uploadThroughPage(d, { name, buffer: file });
          const stored = await (await ref.server.stored(fileNameOf(link)))!.bytes();
          return { link, inStore: stored.includes(marker), onWire: findInRecorded(ref.server, marker) };
        };
        for (const format of ['teknik', 'ece'] as const) {
          const client = await upload({ mode: 'client', format }, `marker-${format}-${variant}.bin`);
          expect(client.link.includes('#ece1.'), client.link).toBe(format === 'ece');
          expect(client.inStore, `client ${format}: plaintext stored`).toBe(false);
          expect(client.onWire, `client ${format}: plaintext sent`).toEqual([]);
        }
        const server = await upload({ mode: 'server', saveKey: false }, `marker-server-${variant}.bin`);
        expect(server.inStore, 'server mode: plaintext stored').toBe(false);
        // The control: unencrypted, the marker is found where it is, so the searches above can fail.
        const none = await upload({ mode: 'none' }, `marker-none-${variant}.bin`);
        expect(none.inStore).toBe(true);
        expect(none.onWire.length).toBeGreaterThan(0);
      });

      it(`no encryption, ${variant}: the server holds the file as it is`, async () => {
        const original = randomBytes(50_000);
        const page = await uploadPage();
        await page.check({ label: 'No encryption' });
        const link = await submitFile(page, { name: `plain-${variant}.bin`, buffer: original });
        await page.close();
        expect(link).not.toContain('#');
        expect(Buffer.from(await (await fetch(link)).arrayBuffer()).equals(original)).toBe(true);
      });
    }
  });

  describe('server faults: a clear sentence, nothing half written, and a retry that works (or, over the limit, another server)', () => {
    const cases = [
      ['html-500', /500|server/i],
      ['error-200', /refused|disabled/i],
      ['too-large-413', /too large|big/i],
      ['close-mid-upload', /connection|network|reach/i],
      ['malformed-json', /not with an upload result/i],
      ['stall', /stopped responding/i],
    ] as const;
    for (const [fault, pattern] of cases) {
      it(`${fault}`, async () => {
        // A short silence limit, so the stalled server is given up on in seconds.
        await d.setSettings(serverSettings(ref.server, 'current', { timeoutSeconds: 3 }));
        const page = await d.open('upload.html');
        const count = await historyCount(page);
        ref.server.setFault(fault);
        const alert = '.job[data-state="failed"] [role="alert"] .error';
        try {
          await chooseFiles(page, { name: `fail-${fault}.bin`, buffer: randomBytes(256 * 1024) });
          await page.waitFor(alert);
          expect(await page.text(alert)).toMatch(pattern);
          await page.screenshot(`upload-fault-${fault}`);
          expect(await historyCount(page)).toBe(count);
        } finally {
          ref.server.setFault(null);
        }
        if (fault === 'too-large-413') {
          // Over the limit the same file cannot go through: no Try again, another server instead.
          expect(await page.count('.job[data-state="failed"] button.retry')).toBe(0);
          expect(await page.text('.job[data-state="failed"] button.way-out')).toBe('Choose another server');
          await page.close();
          return;
        }
        await page.click('.job[data-state="failed"] button.retry');
        await page.waitFor(DONE_LINK);
        expect(await historyCount(page)).toBe(count + 1);
        await page.close();
      });
    }

    it('drip: a slow answer still completes', async () => {
      await d.setSettings(serverSettings(ref.server, 'current'));
      const page = await d.open('upload.html');
      ref.server.setFault('drip', { once: true });
      const link = await submitFile(page, { name: 'drip.bin', buffer: randomBytes(1000) }, 60_000);
      expect(link).toMatch(/#[A-Za-z0-9]{32}$/);
      await page.close();
    });
  });

  describe('Cancel', () => {
    it('Cancel stops an upload: it says so and nothing enters the history', async () => {
      await d.setSettings(serverSettings(ref.server, 'current'));
      const page = await d.open('upload.html');
      const uploadsBefore = await historyCount(page);
      // The server holds the request unanswered, so the upload is surely running when Cancel is clicked.
      ref.server.setFault('stall', { once: true });
      try {
        await chooseFiles(page, { name: 'cancel-me.bin', buffer: randomBytes(MIB) });
        await page.click({ css: '.job[data-state="running"] button', hasText: 'Cancel' });
        await page.waitFor('.job[data-state="cancelled"]');
      } finally {
        // A Cancel that came before the request reached the server leaves the fault armed: the next
        // upload would stall (this leak made the next test time out, the "Firefox right-click hang").
        ref.server.setFault(null);
      }
      expect(await page.text('.job[data-state="cancelled"] .error')).toMatch(/cancel/i);
      expect(await page.count('.job[data-state="done"]')).toBe(0);
      expect(await historyCount(page)).toBe(uploadsBefore);
      await page.close();
    });
  });
});
