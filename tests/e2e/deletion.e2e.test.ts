// Deletion judged by its result, in both browsers, through the real pages: the history's "Delete
// on server" and the options' "Test connection", against servers that word their answer
// differently, and one that says "deleted" but keeps the file.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverSettings } from '../../devkit/settings';
import { until } from '../../devkit/wait';
import { type DeletionMode, startTestServer, type TestServer } from '../testkit/server';
import { forEachBrowser } from './driver/each-browser';
import { deleteOnServerFromRow, fileNameOf, uploadRow, uploadThroughPage } from './support/uploads';

const servers = {} as Record<DeletionMode, TestServer>;
const MODES: DeletionMode[] = ['teknik', 'other-wording', 'keeps-file'];

beforeAll(async () => {
  for (const deletion of MODES) servers[deletion] = await startTestServer({ deletion });
});

afterAll(async () => {
  for (const deletion of MODES) await servers[deletion]?.stop();
});

forEachBrowser({}, (d) => {
  /** Uploads a file to the server of `mode` and returns its server-side name. */
  async function upload(mode: DeletionMode, name: string): Promise<string> {
    await d.setSettings(serverSettings(servers[mode].server, 'current'));
    return fileNameOf(await uploadThroughPage(d, { name, buffer: randomBytes(3000) }));
  }

  /** Chooses "Delete on the server" in the row's menu and confirms it on the history page; returns the status sentence. */
  async function deleteFromHistory(name: string): Promise<{ text: string; rowStays: boolean }> {
    const row = uploadRow(name);
    const page = await d.open('uploads.html');
    let text: string;
    try {
      await deleteOnServerFromRow(page, row);
      text = await until(async () => {
        const said = await page.text('[role="status"]');
        return said.includes(name) ? said : undefined;
      }, 'the status sentence');
      await page.screenshot(`deletion-${name.replace(/\.bin$/, '')}`);
    } finally {
      await page.close();
    }
    // What the history holds now, read afresh: the list (or its empty note) once loaded.
    const again = await d.open('uploads.html');
    try {
      // The list, or the empty note beside it (main > p): the export note (p.muted in the tools
      // card) is there before the history is read, and waiting on it raced the list in Firefox.
      await again.waitFor('table, main > p.muted');
      return { text, rowStays: (await again.count(row)) > 0 };
    } finally {
      await again.close();
    }
  }

  describe('Delete on the server, in the history', () => {
    for (const mode of ['teknik', 'other-wording'] as const) {
      it(`${mode} wording: deleted, and the entry leaves the history`, async () => {
        const fileName = await upload(mode, `wording-${mode}.bin`);
        const { text, rowStays } = await deleteFromHistory(`wording-${mode}.bin`);
        expect(text).toBe(`wording-${mode}.bin: The file was deleted from the server.`);
        expect(rowStays).toBe(false);
        expect(await servers[mode].server.stored(fileName)).toBeUndefined();
      });
    }

    it('a server that says "has been Deleted" but keeps the file: refused, and the entry stays', async () => {
      const fileName = await upload('keeps-file', 'kept.bin');
      const { text, rowStays } = await deleteFromHistory('kept.bin');
      expect(text).toMatch(/^kept\.bin: The server did not delete the file: it is still there\./);
      expect(rowStays).toBe(true);
      expect(await servers['keeps-file'].server.stored(fileName)).toBeDefined();
    });

    it('a file already deleted by its link elsewhere: already gone, and the entry leaves', async () => {
      const fileName = await upload('other-wording', 'elsewhere.bin');
      const { server } = servers['other-wording'];
      const { deletionKey } = (await server.stored(fileName))!;
      expect(await (await fetch(`${server.uploadUrl}/${fileName}/${deletionKey}`)).text()).toBe(
        'File deleted',
      );
      const { text, rowStays } = await deleteFromHistory('elsewhere.bin');
      expect(text).toBe('elsewhere.bin: The server no longer has this file (it was deleted or has expired).');
      expect(rowStays).toBe(false);
    });
  });

  describe('Test connection, in the options', () => {
    const expected: Record<DeletionMode, RegExp> = {
      teknik: /^Connection works: a test file was uploaded and deleted\.$/,
      'other-wording': /^Connection works: a test file was uploaded and deleted\.$/,
      'keeps-file':
        /^The upload worked, but deleting the test file failed: The server did not delete the file: it is still there\./,
    };
    for (const mode of MODES) {
      it(`${mode}: ${mode === 'keeps-file' ? 'says the test file stayed' : 'works'}`, async () => {
        await d.setSettings(serverSettings(servers[mode].server, 'current'));
        const page = await d.open('options.html');
        try {
          await page.click('#test');
          const said = await until(async () => {
            const text = await page.text('#test ~ p');
            return /^(Testing…)?$/.test(text) ? undefined : text;
          }, 'the connection test to end');
          expect(said).toMatch(expected[mode]);
          await page.screenshot(`test-connection-${mode}`);
        } finally {
          await page.close();
        }
      });
    }
  });
});
