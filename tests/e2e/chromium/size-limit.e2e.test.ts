// What a 413 teaches, on the upload page: "smaller than" the refused size when the answer states
// no limit (a proxy's page), the server's own limit when it states one, and the next file over
// either refused before a byte is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testkit/server';
import { type ExtensionBrowser, launchExtension, screenshot, serverSettings } from './harness';

const KIB = 1024;
const MIB = 1024 * KIB;

let browser: ExtensionBrowser;

beforeAll(async () => {
  browser = await launchExtension();
});

afterAll(async () => {
  await browser?.close();
});

async function uploadPage(ref: TestServer) {
  await browser.setSettings(serverSettings(ref.server, 'current'));
  const page = await browser.open('upload.html');
  /** Uploads `size` zero bytes as `name`; resolves with the job's state and its message. */
  const send = async (name: string, size: number) => {
    await page.setInputFiles('#file', {
      name,
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(size),
    });
    await page.click('#upload');
    const job = page.locator('.job[data-state="done"], .job[data-state="failed"]', { hasText: name });
    await job.waitFor({ timeout: 60_000 });
    const state = await job.getAttribute('data-state');
    const error = state === 'failed' ? await job.locator('.error').textContent() : null;
    const said = job.locator('.error + .small');
    const detail = (await said.count()) > 0 ? await said.textContent() : null;
    return { state, error, detail };
  };
  return { page, send };
}

describe('a 413 that states no limit (a proxy in front of the server)', () => {
  let ref: TestServer;
  beforeAll(async () => {
    ref = await startTestServer({ record: true });
  });
  afterAll(async () => {
    await ref?.stop();
  });

  it('says "smaller than" the refused size, and refuses the next file at or over it before sending', async () => {
    const { page, send } = await uploadPage(ref);
    try {
      ref.server.setFault('proxy-413', { once: true });
      const first = await send('first.bin', 512 * KIB);
      expect(first).toMatchObject({
        state: 'failed',
        error: 'The file is too large for Test server: it only takes files smaller than 512 KiB.',
      });
      await expect.poll(() => page.locator('.lead').textContent()).toContain('(smaller than 512 KiB)');
      await screenshot(page, 'size-limit-unstated');
      const sent = ref.server.requests.length;

      // The fault was used up: anything that reached the server now would be stored.
      for (const [name, size] of [
        ['same.bin', 512 * KIB],
        ['bigger.bin', 600 * KIB],
      ] as const) {
        expect(await send(name, size)).toMatchObject({
          state: 'failed',
          error: `This file is ${size / KIB} KiB, but Test server only takes files smaller than 512 KiB. Nothing was sent.`,
        });
      }
      expect(ref.server.requests.length).toBe(sent);

      expect((await send('fits.bin', 512 * KIB - 1)).state).toBe('done');
      expect(ref.server.requests.length).toBe(sent + 1);
    } finally {
      await page.close();
    }

    const options = await browser.open('options.html');
    try {
      await expect
        .poll(() => options.locator('#size-limit-hint').textContent())
        .toBe('Learned from the server: smaller than 512 KiB.');
      expect(await options.locator('#size-limit').inputValue()).toBe('');
    } finally {
      await options.close();
    }
  });
});

describe('a 413 that states the limit (Teknik’s answer)', () => {
  let ref: TestServer;
  beforeAll(async () => {
    ref = await startTestServer({ record: true, maxUploadBytes: MIB });
  });
  afterAll(async () => {
    await ref?.stop();
  });

  it('uses the stated limit, says "at most", and refuses the next file over it before sending', async () => {
    const { page, send } = await uploadPage(ref);
    try {
      const first = await send('first.bin', 3 * MIB);
      expect(first).toMatchObject({
        state: 'failed',
        error: 'The file is too large for Test server: it only takes files of at most 1 MiB.',
      });
      expect(first.detail).toMatch(/The server said: .File Too Large\. +Max file size is 1 MB/);
      await expect.poll(() => page.locator('.lead').textContent()).toContain('(at most 1 MiB)');
      await screenshot(page, 'size-limit-stated');
      const sent = ref.server.requests.length;

      expect(await send('over.bin', 2 * MIB)).toMatchObject({
        state: 'failed',
        error: 'This file is 2 MiB, but Test server only takes files of at most 1 MiB. Nothing was sent.',
      });
      expect(ref.server.requests.length).toBe(sent);

      // The stated limit is inclusive: a file of exactly that size goes.
      expect((await send('exactly.bin', MIB)).state).toBe('done');
      expect(ref.server.requests.length).toBe(sent + 1);
    } finally {
      await page.close();
    }
  });
});
