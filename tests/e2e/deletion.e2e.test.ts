// Deletion judged by its result, through the real pages: the history's "Delete on server" and the
// options' "Test connection", against servers that word their answer differently, and one that
// says "deleted" but keeps the file.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeletionMode } from '../server/server';
import { startTestServer, type TestServer } from '../server/test-helpers';
import {
  type ExtensionBrowser,
  launchExtension,
  screenshot,
  serverSettings,
  uploadThroughPage,
} from './harness';

let browser: ExtensionBrowser;
const servers = {} as Record<DeletionMode, TestServer>;
const MODES: DeletionMode[] = ['teknik', 'other-wording', 'keeps-file'];

beforeAll(async () => {
  for (const deletion of MODES) servers[deletion] = await startTestServer({ deletion });
  browser = await launchExtension();
});

afterAll(async () => {
  await browser?.close();
  for (const deletion of MODES) await servers[deletion]?.stop();
});

const nameOf = (link: string) => new URL(link.split('#')[0]!).pathname.split('/').pop()!;

/** Uploads a file to the server of `mode` and returns its server-side name. */
async function upload(mode: DeletionMode, name: string): Promise<string> {
  await browser.setSettings(serverSettings(servers[mode].server, 'current'));
  const link = await uploadThroughPage(browser, {
    name,
    mimeType: 'application/octet-stream',
    buffer: randomBytes(3000),
  });
  return nameOf(link);
}

/** Clicks "Delete on server" and confirms it on the history page; returns the status sentence. */
async function deleteFromHistory(name: string): Promise<{ text: string; rowStays: boolean }> {
  const page = await browser.open('uploads.html');
  try {
    const row = page.locator('tbody tr', { hasText: name });
    await row.getByRole('button', { name: 'Delete on server' }).click();
    await row.getByRole('button', { name: 'Yes, delete it' }).click();
    const status = page.locator('[role="status"]');
    await expect.poll(() => status.textContent()).toContain(name);
    const text = (await status.textContent()) ?? '';
    await screenshot(page, `deletion-${name.replace(/\.bin$/, '')}`);
    // What the history holds now, read afresh: the list (or its empty note) once loaded.
    await page.reload();
    await page.locator('table, p.muted').first().waitFor();
    return { text, rowStays: (await row.count()) > 0 };
  } finally {
    await page.close();
  }
}

describe('Delete on server, in the history', () => {
  for (const mode of ['teknik', 'other-wording'] as const) {
    it(`${mode} wording: deleted, and the entry leaves the history`, async () => {
      const fileName = await upload(mode, `wording-${mode}.bin`);
      const { text, rowStays } = await deleteFromHistory(`wording-${mode}.bin`);
      expect(text).toBe(`wording-${mode}.bin: The file was deleted from the server.`);
      expect(rowStays).toBe(false);
      expect(servers[mode].server.stored(fileName)).toBeUndefined();
    });
  }

  it('a server that says "has been Deleted" but keeps the file: refused, and the entry stays', async () => {
    const fileName = await upload('keeps-file', 'kept.bin');
    const { text, rowStays } = await deleteFromHistory('kept.bin');
    expect(text).toMatch(/^kept\.bin: The server did not delete the file: it is still there\./);
    expect(rowStays).toBe(true);
    expect(servers['keeps-file'].server.stored(fileName)).toBeDefined();
  });

  it('a file already deleted by its link elsewhere: already gone, and the entry leaves', async () => {
    const fileName = await upload('other-wording', 'elsewhere.bin');
    const { server } = servers['other-wording'];
    const { deletionKey } = server.stored(fileName)!;
    expect(await (await fetch(`${server.uploadUrl}/${fileName}/${deletionKey}`)).text()).toBe('File deleted');
    const { text, rowStays } = await deleteFromHistory('elsewhere.bin');
    expect(text).toBe('elsewhere.bin: The server no longer has this file (it was deleted or has expired).');
    expect(rowStays).toBe(false);
  });
});

describe('Test connection, in the options', () => {
  const expected: Record<DeletionMode, RegExp> = {
    teknik:
      /^Connection works: a test file was uploaded and deleted\. It is a Hushdrop server: links of encrypted uploads open in any browser, also without Hushdrop\.$/,
    'other-wording': /^Connection works: a test file was uploaded and deleted\. It is a Hushdrop server/,
    'keeps-file':
      /^The upload worked, but deleting the test file failed: The server did not delete the file: it is still there\./,
  };
  for (const mode of MODES) {
    it(`${mode}: ${mode === 'keeps-file' ? 'says the test file stayed' : 'works'}`, async () => {
      await browser.setSettings(serverSettings(servers[mode].server, 'current'));
      const page = await browser.open('options.html');
      try {
        await page.click('#test');
        const status = page.locator('#test ~ p');
        await expect.poll(() => status.textContent(), { timeout: 30_000 }).not.toMatch(/^(Testing…)?$/);
        expect(await status.textContent()).toMatch(expected[mode]);
        await screenshot(page, `test-connection-${mode}`);
      } finally {
        await page.close();
      }
    });
  }
});
