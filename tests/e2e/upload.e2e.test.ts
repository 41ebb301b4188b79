import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedBytes } from '../recipient/stored-bytes';
import { findInRecorded, type ReferenceServer, startServer } from '../server/server';
import { decipherFor } from './checks';
import { type ExtensionBrowser, historyCount, launchExtension, screenshot, serverSettings } from './harness';

let browser: ExtensionBrowser;
let server: ReferenceServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'hushdrop-e2e-data-'));
  server = await startServer({ dataDir, record: true });
  browser = await launchExtension();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function uploadThroughPage(variant: 'legacy' | 'current', name: string, bytes: Buffer) {
  await browser.setSettings(serverSettings(server, variant));
  const page = await browser.open('upload.html');
  await page.setInputFiles('#file', { name, mimeType: 'application/octet-stream', buffer: bytes });
  await page.click('#upload');
  return page;
}

describe('upload page, client mode', () => {
  for (const variant of ['current', 'legacy'] as const) {
    it(`uploads 5 MiB encrypted to the ${variant} variant; only the link holds the key`, async () => {
      const original = randomBytes(5 * 1024 * 1024);
      const before = server.requests.length;
      const page = await uploadThroughPage(variant, `random-${variant}.bin`, original);
      const link = page.locator('.job[data-state="done"] input[id^="link-"]');
      await link.waitFor({ timeout: 60_000 });
      const value = await link.inputValue();
      await screenshot(page, `upload-${variant}`);

      const [url, key] = value.split('#') as [string, string];
      expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
      const res = await storedBytes(url);
      expect(res).toMatchObject({ status: 200, viaPage: true });
      const cipher = Buffer.from(res.bytes);
      expect(cipher.length).toBe(original.length);
      expect(cipher.equals(original)).toBe(false);
      const d = decipherFor(key);
      const plain = Buffer.concat([d.update(cipher), d.final()]);
      expect(plain.equals(original)).toBe(true);

      // Every request the server got during this upload: no trace of the key.
      const keyBytes = Buffer.from(key, 'utf8');
      const needles = [
        keyBytes,
        Buffer.from(keyBytes.toString('hex')),
        Buffer.from(keyBytes.toString('base64')),
        Buffer.from(keyBytes.toString('base64url')),
        Buffer.from(key.toLowerCase()),
      ];
      expect(server.requests.length).toBeGreaterThan(before);
      for (const n of needles) expect(findInRecorded(server, new Uint8Array(n))).toEqual([]);

      const del = page.locator('.job[data-state="done"] input[id^="del-"]');
      expect(await del.inputValue()).toContain('/');
      expect(await historyCount(page)).toBeGreaterThan(0);
      await page.close();
    });
  }
});

describe('server faults: a clear sentence, nothing half written, and a retry that works', () => {
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
      await browser.setSettings(serverSettings(server, 'current', { timeoutSeconds: 3 }));
      const page = await browser.open('upload.html');
      const count = await historyCount(page);
      server.setFault(fault);
      try {
        await page.setInputFiles('#file', {
          name: `fail-${fault}.bin`,
          mimeType: 'application/octet-stream',
          buffer: randomBytes(256 * 1024),
        });
        await page.click('#upload');
        const alert = page.locator('.job[data-state="failed"] [role="alert"] .error');
        await alert.waitFor({ timeout: 30_000 });
        expect(await alert.textContent()).toMatch(pattern);
        await screenshot(page, `upload-fault-${fault}`);
        expect(await historyCount(page)).toBe(count);
      } finally {
        server.setFault(null);
      }
      await page.click('.job[data-state="failed"] button.retry');
      await page.locator('.job[data-state="done"] input[id^="link-"]').waitFor({ timeout: 30_000 });
      expect(await historyCount(page)).toBe(count + 1);
      await page.close();
    });
  }

  it('drip: a slow answer still completes', async () => {
    await browser.setSettings(serverSettings(server, 'current'));
    const page = await browser.open('upload.html');
    server.setFault('drip', { once: true });
    await page.setInputFiles('#file', {
      name: 'drip.bin',
      mimeType: 'application/octet-stream',
      buffer: randomBytes(1000),
    });
    await page.click('#upload');
    const link = page.locator('.job[data-state="done"] input[id^="link-"]');
    await link.waitFor({ timeout: 60_000 });
    expect(await link.inputValue()).toMatch(/#[A-Za-z0-9]{32}$/);
    await page.close();
  });
});
