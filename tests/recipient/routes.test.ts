// The recipient page's server side, over HTTP against the reference server: what a GET of a link
// gives (whoever asks), what counts as a download, and what the page's own addresses answer.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedBytes } from '../../devkit/stored-bytes';
import { parseDownloadPage } from '../../lib/upload/download-page';
import { recipientAssets } from '../../server/recipient/assets';
import { PAGE_CSP } from '../../server/recipient/security';
import {
  bytesOf,
  clientModeForm,
  currentUploadUrl,
  form,
  legacyUploadUrl,
  post,
  randomBytesOf,
  startTestServer,
  type TestServer,
  teknikCtr,
} from '../server/test-helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

const KEY = 'abcdefghijklmnopqrstuvwxyzABCDEF';
const IV = 'VY3CdcZ6gKGKHh0T';

/** A client-mode upload (Hushdrop's fields), legacy so that a download limit can be set. */
async function clientUpload(fields: Record<string, string> = {}, bytes = randomBytesOf(5000, 3)) {
  const res = await post(
    legacyUploadUrl(t.server),
    clientModeForm(bytes, KEY, IV, 'Ferien <2026>.png', fields),
  );
  return res.json.result as { url: string; fileName: string };
}

const PREVIEWS = [
  { 'User-Agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', Accept: '*/*' },
  { 'User-Agent': 'WhatsApp/2.23.20.0 A', Accept: 'text/html' },
  {
    'User-Agent': 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    Accept: 'application/octet-stream',
  },
];

describe('a GET of the link of a client-encrypted upload', () => {
  it('gets the page, with a strict CSP, no referrer and nothing that frames or caches it', async () => {
    const { url } = await clientUpload();
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(PAGE_CSP).toContain("script-src 'self'");
    expect(PAGE_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    // Only script elements that load from the server or carry data: no inline script, no handlers.
    const scripts = [...html.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.map(([, attrs]) => /src=|type="application\/json"/.test(attrs!))).toEqual([true, true]);
    expect(scripts.filter(([, attrs]) => /src=/.test(attrs!)).map(([, , body]) => body)).toEqual(['']);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    // The name is the uploader's: escaped in the JSON block, never markup.
    expect(html).not.toContain('<2026>');
    expect(html).toContain('Ferien \\u003c2026\\u003e.png');
  });

  it('describes the file for Hushdrop’s viewer and for programs', async () => {
    const { url, fileName } = await clientUpload();
    const page = parseDownloadPage(await (await fetch(url)).text(), url);
    expect(page).toEqual({
      downloadDataUrl: `${t.server.baseUrl}/_hushdrop/file/${fileName}`,
      fileName,
      fileType: 'image/png',
      iv: IV,
    });
  });

  it('gets the same page whatever it accepts, and never uses up a one-download link', async () => {
    const bytes = randomBytesOf(3000, 9);
    const { url, fileName } = await clientUpload({ expireUnit: 'view', expireLength: '1' }, bytes);
    expect((await t.server.stored(fileName))?.maxDownloads).toBe(1);
    for (const headers of PREVIEWS) {
      for (const method of ['GET', 'HEAD']) {
        const res = await fetch(url, { method, headers });
        expect(res.status, `${method} ${headers['User-Agent']}`).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      }
    }
    expect((await t.server.stored(fileName))?.downloads).toBe(0);
    // The page's POST is the download: the first gets the bytes, the next nothing.
    const first = await storedBytes(url);
    expect(first.viaPage).toBe(true);
    expect(teknikCtr(KEY, IV, first.bytes)).toEqual(bytes);
    expect(first.headers.get('content-disposition')).toBe(`attachment; filename="${fileName}"`);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${t.server.baseUrl}/_hushdrop/file/${fileName}`, { method: 'POST' })).status).toBe(
      404,
    );
    expect((await fetch(url)).status).toBe(404);
  });

  it('speaks the language the browser asks for, before the script runs', async () => {
    const { url } = await clientUpload();
    const de = await (
      await fetch(url, { headers: { 'Accept-Language': 'fr-CH, de;q=0.8, en;q=0.5' } })
    ).text();
    expect(de).toContain('<html lang="de">');
    expect(de).toContain('<title>Verschlüsselte Datei – Hushdrop</title>');
    const en = await (await fetch(url, { headers: { 'Accept-Language': 'de;q=0, fr' } })).text();
    expect(en).toContain('<title>Encrypted file – Hushdrop</title>');
  });

  it('points at the page’s files relative to itself, for both variants’ addresses', async () => {
    const { fileName } = await clientUpload();
    const current = await (await fetch(`${t.server.uploadUrl}/${fileName}`)).text();
    expect(current).toContain('src="../_hushdrop/recipient.js"');
    const legacy = await (await fetch(`${t.server.baseUrl}/${fileName}?sub=u`)).text();
    expect(legacy).toContain('src="./_hushdrop/recipient.js"');
  });
});

describe('an upload in the authenticated format (linkFormat=ece1)', () => {
  it('gets the page, which names the format and no IV; the POST gives the stored bytes', async () => {
    const sealed = randomBytesOf(3000, 9);
    const res = await post(
      currentUploadUrl(t.server),
      form({
        encrypt: 'false',
        saveKey: 'false',
        linkFormat: 'ece1',
        contentType: 'application/pdf',
        file: { bytes: sealed, name: 'sealed.pdf' },
      }),
    );
    const { url, fileName } = res.json.result as { url: string; fileName: string };
    const page = await fetch(url);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const block = /<script type="application\/json" id="hushdrop-file">([^<]*)<\/script>/.exec(
      await page.text(),
    );
    expect(JSON.parse(block![1]!)).toMatchObject({ file: fileName, iv: '', format: 'ece1', size: 3000 });
    expect(await storedBytes(url)).toMatchObject({ bytes: new Uint8Array(sealed), viaPage: true });
  });

  it('is only taken from a client-mode upload: with a key kept, the upload is refused with a sentence', async () => {
    const res = await post(
      currentUploadUrl(t.server),
      form({
        encrypt: 'true',
        saveKey: 'true',
        linkFormat: 'ece1',
        file: { bytes: bytesOf('kept'), name: 'k.txt' },
      }),
    );
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toMatch(/ece1/);
  });
});

describe('links that are not client-encrypted are served as before', () => {
  it('a plain upload and a kept key download directly', async () => {
    const plain = bytesOf('plain text, no secret');
    const none = await post(
      currentUploadUrl(t.server),
      form({ encrypt: 'false', saveKey: 'false', file: { bytes: plain, name: 'p.txt' } }),
    );
    expect(await storedBytes(none.json.result.url)).toMatchObject({ bytes: plain, viaPage: false });
    const kept = await post(
      currentUploadUrl(t.server),
      form({ encrypt: 'true', saveKey: 'true', file: { bytes: plain, name: 'k.txt' } }),
    );
    expect(await storedBytes(kept.json.result.url)).toMatchObject({ bytes: plain, viaPage: false });
    // Their bytes are not handed out at the page's address either.
    for (const r of [none, kept]) {
      const res = await fetch(`${t.server.baseUrl}/_hushdrop/file/${r.json.result.fileName}`, {
        method: 'POST',
      });
      expect(res.status).toBe(404);
    }
  });
});

describe('the page’s own addresses', () => {
  it('serve the built script, worker and style with their types', async () => {
    for (const [name, type] of [
      ['recipient.js', 'text/javascript; charset=utf-8'],
      ['sw.js', 'text/javascript; charset=utf-8'],
      ['home.js', 'text/javascript; charset=utf-8'],
      ['parts-worker.js', 'text/javascript; charset=utf-8'],
      ['recipient.css', 'text/css; charset=utf-8'],
      ['icon.png', 'image/png'],
    ]) {
      const res = await fetch(`${t.server.baseUrl}/_hushdrop/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const again = await fetch(`${t.server.baseUrl}/u/_hushdrop/${name}`, {
        headers: { 'If-None-Match': res.headers.get('etag')! },
      });
      expect(again.status).toBe(304);
    }
    // The workers' own policy: nothing but their origin.
    for (const name of ['sw.js', 'parts-worker.js'])
      expect(
        (await fetch(`${t.server.baseUrl}/_hushdrop/${name}`)).headers.get('content-security-policy'),
        name,
      ).toBe("default-src 'none'; connect-src 'self'");
  });

  it('are built from the project’s own code only, with no eval', async () => {
    const { files, inputs } = await recipientAssets();
    expect(inputs.length).toBeGreaterThan(5);
    // Besides the project's code, only the well-kept base64 library lib/crypto/link.ts uses, and for
    // the home page the QR encoder of lib/qr-modules.ts and the SHA-256 of lib/crypto/iv.ts (which
    // file-cipher.ts, the one cipher chooser, carries for the Teknik format).
    expect(
      inputs.filter(
        (i) =>
          !/^(lib|server\/recipient|public\/_locales|node_modules\/(@scure\/base|uqr|@noble\/hashes))\//.test(
            i,
          ),
      ),
    ).toEqual([]);
    for (const name of ['recipient.js', 'sw.js', 'home.js', 'parts-worker.js']) {
      const text = files.get(name)!.body.toString();
      expect(text).not.toMatch(/\beval\(|new Function\(/);
    }
    // Only the page's messages are carried, in both languages.
    const script = files.get('recipient.js')!.body.toString();
    expect(script).toContain('Herunterladen und entschlüsseln');
    expect(script).not.toContain('Payment request');
  });

  it('answer the bytes address only to a POST with a small body', async () => {
    const { fileName } = await clientUpload();
    const at = `${t.server.baseUrl}/_hushdrop/file/${fileName}`;
    const get = await fetch(at);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const big = await fetch(at, { method: 'POST', body: new Uint8Array(64 * 1024) });
    expect(big.status).toBe(413);
    expect((await t.server.stored(fileName))?.downloads).toBe(0);
    // The viewer's form (Teknik's DownloadData fields) is fine.
    const form = new URLSearchParams({ file: fileName, decrypt: 'false' });
    expect((await fetch(at, { method: 'POST', body: form })).status).toBe(200);
    expect((await t.server.stored(fileName))?.downloads).toBe(1);
  });

  it('a body that claims more than allowed is refused before it is read', async () => {
    const { fileName } = await clientUpload();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${t.server.baseUrl}/_hushdrop/file/${fileName}`, {
        method: 'POST',
        headers: { 'Content-Length': String(1 << 30) },
      });
      req.on('response', (res) => resolve(res.statusCode!));
      req.on('error', reject);
      req.write(Buffer.alloc(1024));
    });
    expect(status).toBe(413);
  });

  it('say what this server is, and nothing about unknown paths', async () => {
    const info = await fetch(`${t.server.baseUrl}/_hushdrop/info`);
    expect(await info.json()).toMatchObject({ server: 'hushdrop' });
    expect((await fetch(`${t.server.baseUrl}/_hushdrop/stream/abc`)).status).toBe(404);
    expect((await fetch(`${t.server.baseUrl}/_hushdrop/../u/x`)).status).toBe(404);
    expect((await fetch(`${t.server.baseUrl}/_hushdrop/info`, { method: 'DELETE' })).status).toBe(405);
  });
});

describe('the home page (GET /)', () => {
  it('is an upload page with the recipient page’s strict CSP, its own script and no inline script', async () => {
    const res = await fetch(`${t.server.baseUrl}/`, { headers: { 'Accept-Language': 'de-CH, en;q=0.5' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('<title>Datei senden – Hushdrop</title>');
    const scripts = [...html.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.map(([, attrs, body]) => [attrs!.trim(), body])).toEqual([
      ['src="./_hushdrop/home.js" data-info="./_hushdrop/info" defer', ''],
    ]);
    expect(html).not.toMatch(/\son[a-z]+=|https?:\/\//i);
    // A HEAD is the same page without its body; any other method is not the page's.
    const head = await fetch(`${t.server.baseUrl}/`, { method: 'HEAD' });
    expect(head.headers.get('content-security-policy')).toBe(PAGE_CSP);
  });

  it('carries its messages in both languages, and the recipient page offers to send a file back', async () => {
    const { files } = await recipientAssets();
    const home = files.get('home.js')!.body.toString();
    expect(home).toContain('Dateien auswählen');
    expect(home).toContain('Choose files');
    expect(home).not.toContain('Payment request');
    expect(files.get('recipient.js')!.body.toString()).toContain('Eine Datei zurücksenden');
    const { url } = await clientUpload();
    expect(await (await fetch(url)).text()).toContain('data-home="./"');
  });
});
