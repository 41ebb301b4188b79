import { describe, expect, it } from 'vitest';
import { displayName, fileNameFromUrl, fileStamp } from '../../lib/history/file-names';

const at = new Date('2026-11-21T07:41:09.123Z');

describe('file names for files that came without one', () => {
  it('takes the last path segment of a web address, decoded', () => {
    expect(fileNameFromUrl('https://cdn.example/a/b/cat%20photo.png?size=2#x', 'image/png')).toBe(
      'cat photo.png',
    );
  });

  it('makes one up for data:, blob: and bare hosts, from the type', () => {
    expect(fileNameFromUrl('data:image/png;base64,AAAA', 'image/png', 'upload', at)).toBe(
      'upload-2026-11-21T07-41-09.png',
    );
    expect(fileNameFromUrl('blob:https://x.example/1234', 'image/svg+xml', 'upload', at)).toBe(
      'upload-2026-11-21T07-41-09.svg',
    );
    expect(fileNameFromUrl('https://x.example/', '', undefined, at)).toBe('download-2026-11-21T07-41-09.bin');
    expect(fileNameFromUrl('https://x.example/%E0%A4%A', 'text/plain', 'f', at)).toBe(
      'f-2026-11-21T07-41-09.plain',
    );
  });

  it('stamps without characters file systems refuse', () => {
    expect(fileStamp(at)).toBe('2026-11-21T07-41-09');
  });
});

describe('names as they are shown', () => {
  it('drops bidi controls, so a name reads in its real order', () => {
    expect(displayName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(displayName('a\u2066b\u2069c\u200F\u200E\u061C\u202Ad\u202C')).toBe('abcd');
  });

  it('keeps right-to-left letters themselves', () => {
    expect(displayName('ملف.txt')).toBe('ملف.txt');
  });
});
