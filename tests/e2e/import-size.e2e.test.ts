// A history import larger than an export can be is refused before the file is read, in both
// browsers (issue 17, finding 7: the page read the whole file with file.text() and then checked its
// size, so any file a person picked was loaded into memory first). The page's file reads are
// counted by wrapping every way a page reads a Blob.
import { describe, expect, it } from 'vitest';
import { until } from '../../devkit/wait';
import { IMPORT_MAX_BYTES } from '../../lib/history';
import { forEachBrowser } from './driver/each-browser';

/** Counts Blob reads into window.__blobReads (Blob and File share these methods). */
const COUNT_READS = `(() => {
  window.__blobReads = 0;
  for (const name of ['text', 'arrayBuffer', 'stream', 'bytes']) {
    const original = Blob.prototype[name];
    if (!original) continue;
    Blob.prototype[name] = function (...args) { window.__blobReads++; return original.apply(this, args); };
  }
  for (const name of ['readAsText', 'readAsArrayBuffer', 'readAsDataURL', 'readAsBinaryString']) {
    const original = FileReader.prototype[name];
    FileReader.prototype[name] = function (...args) { window.__blobReads++; return original.apply(this, args); };
  }
})();`;

forEachBrowser({}, (d) => {
  describe('history import', () => {
    it('a file over the export limit is refused with a sentence, and never read', async () => {
      const page = await d.open('uploads.html');
      await page.waitFor('#import');
      await page.addScript(COUNT_READS);
      await page.setInputFiles('#import', {
        name: 'huge.json',
        mimeType: 'application/json',
        buffer: Buffer.alloc(IMPORT_MAX_BYTES + 1, 0x20),
      });
      await until(
        async () =>
          /too large for a Hushdrop export/.test(await page.text('[role="status"]')) ? true : undefined,
        'the refusal',
      );
      expect(await page.text('[role="status"]')).toContain('nothing was imported');
      expect(await page.evaluate(() => (window as any).__blobReads)).toBe(0);

      // The count sees the page's reads: a small file is read (and refused for what it holds).
      await page.setInputFiles('#import', {
        name: 'small.json',
        mimeType: 'application/json',
        buffer: Buffer.from('{}'),
      });
      await until(
        async () => ((await page.evaluate(() => (window as any).__blobReads)) > 0 ? true : undefined),
        'the small file to be read',
      );
      await page.close();
    });
  });
});
