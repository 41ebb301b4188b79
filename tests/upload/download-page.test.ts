import { describe, expect, it } from 'vitest';
import { downloadDataForm, parseDownloadPage } from '../../lib/upload/download-page';

const page = (script: string) =>
  `<!doctype html><html><body><h1>Download</h1><script>\n${script}\n</script></body></html>`;

describe("Teknik's download page", () => {
  it('reads the IV, type, name and the DownloadData address, made absolute', () => {
    const html = page(`var encScriptSrc = '/js/w.js';
      var downloadDataUrl = '/Action/DownloadData';
      var fileName = 'AbCdE.png';
      var fileType = 'image/png';
      var iv = 'Q1w2E3r4T5y6U7i8';
      var decrypt = true;`);
    expect(parseDownloadPage(html, 'https://u.teknik.example/AbCdE.png')).toEqual({
      downloadDataUrl: 'https://u.teknik.example/Action/DownloadData',
      fileName: 'AbCdE.png',
      fileType: 'image/png',
      iv: 'Q1w2E3r4T5y6U7i8',
    });
  });

  it('undoes the escapes and entities a template writes', () => {
    const html = page(
      `downloadDataUrl = "https:\\u002F\\u002Fu.example\\u002FAction\\u002FDownloadData"; fileName = 'it\\'s&amp;.txt'; iv = '0123456789ABCDEF';`,
    );
    const parsed = parseDownloadPage(html, 'https://u.example/x.txt')!;
    expect(parsed.downloadDataUrl).toBe('https://u.example/Action/DownloadData');
    expect(parsed.fileName).toBe("it's&.txt");
    expect(downloadDataForm(parsed).toString()).toBe('file=it%27s%26.txt&decrypt=false');
  });

  it('is not fooled by other pages or script addresses', () => {
    expect(parseDownloadPage('<h1>404 Not Found</h1>', 'https://u.example/x')).toBeUndefined();
    expect(
      parseDownloadPage(
        page("var downloadDataUrl = 'javascript:alert(1)'; var fileName='a'; var iv='b';"),
        'https://u.example/x',
      ),
    ).toBeUndefined();
  });
});

describe('the Hushdrop recipient page', () => {
  const block = (json: string) =>
    `<!DOCTYPE html><html><head><script type="application/json" id="hushdrop-file">${json}</script>` +
    `<script src="../_hushdrop/recipient.js" defer></script></head><body><main id="app"></main></body></html>`;
  const file = {
    file: 'AbCdE.png',
    name: 'photo <1>.png',
    type: 'image/png',
    size: 1234,
    iv: 'VY3CdcZ6gKGKHh0T',
    bytes: '../_hushdrop/file/AbCdE.png',
  };

  it('reads its JSON block (no script runs), the bytes address made absolute', () => {
    const json = JSON.stringify(file).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
    expect(parseDownloadPage(block(json), 'https://files.example/u/AbCdE.png')).toEqual({
      downloadDataUrl: 'https://files.example/_hushdrop/file/AbCdE.png',
      fileName: 'AbCdE.png',
      fileType: 'image/png',
      iv: 'VY3CdcZ6gKGKHh0T',
    });
  });

  it('refuses a block that is broken, incomplete or points at a script', () => {
    const url = 'https://files.example/u/AbCdE.png';
    expect(parseDownloadPage(block('{"file":'), url)).toBeUndefined();
    expect(parseDownloadPage(block(JSON.stringify({ ...file, iv: undefined })), url)).toBeUndefined();
    expect(parseDownloadPage(block(JSON.stringify({ ...file, size: -1 })), url)).toBeUndefined();
    expect(
      parseDownloadPage(block(JSON.stringify({ ...file, bytes: 'javascript:alert(1)' })), url),
    ).toBeUndefined();
  });
});
