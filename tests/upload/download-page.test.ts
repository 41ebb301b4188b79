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
