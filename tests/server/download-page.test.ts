import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDownloadPage } from '../../lib/upload/download-page';
import { currentUploadUrl, form, getBytes, post, startTestServer, type TestServer } from './test-helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ downloadPage: true });
});
afterAll(() => t.stop());

describe('download page mode (as teknik.io served files it kept no key for)', () => {
  it('answers a GET with the page, and DownloadData with the stored bytes', async () => {
    const bytes = new Uint8Array(randomBytes(5000));
    const up = await post(
      currentUploadUrl(t.server),
      form({
        encrypt: 'false',
        saveKey: 'false',
        iv: '0123456789ABCDEF',
        contentType: 'image/png',
        file: { bytes, name: 'x.png' },
      }),
    );
    const res = await fetch(up.json.result.url);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const page = parseDownloadPage(await res.text(), up.json.result.url)!;
    expect(page).toMatchObject({
      fileName: up.json.result.fileName,
      fileType: 'image/png',
      iv: '0123456789ABCDEF',
    });
    const data = await fetch(page.downloadDataUrl, {
      method: 'POST',
      body: new URLSearchParams({ file: page.fileName, decrypt: 'false' }),
    });
    expect(new Uint8Array(await data.arrayBuffer())).toEqual(bytes);
  });

  it('still serves plain uploads, and saved-key uploads decrypted, as bytes', async () => {
    const bytes = new Uint8Array(randomBytes(1000));
    const plain = await post(
      currentUploadUrl(t.server),
      form({ encrypt: 'false', saveKey: 'false', file: { bytes } }),
    );
    expect((await getBytes(plain.json.result.url)).bytes).toEqual(bytes);
    const saved = await post(
      currentUploadUrl(t.server),
      form({ encrypt: 'true', saveKey: 'true', file: { bytes } }),
    );
    expect((await getBytes(saved.json.result.url)).bytes).toEqual(bytes);
  });

  it('says an unknown file does not exist', async () => {
    const res = await fetch(`${t.server.uploadUrl}/Action/DownloadData`, {
      method: 'POST',
      body: new URLSearchParams({ file: 'nope0.bin' }),
    });
    expect(await res.json()).toEqual({ error: { message: 'File Does Not Exist' } });
  });
});
