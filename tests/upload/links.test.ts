import { describe, expect, it } from 'vitest';
import { randomKey, randomSecret } from '../../lib/crypto';
import {
  deletionLink,
  shareLink,
  type UploadResult,
  type UploadTarget,
  uploadEndpoint,
} from '../../lib/upload';

const addresses = {
  baseUrl: 'https://teknik.example',
  apiUrl: 'https://api.teknik.example',
  uploadUrl: 'https://u.teknik.example',
};
const legacy: UploadTarget = { variant: 'legacy', addresses };
const current: UploadTarget = { variant: 'current', addresses };

const result = (more: Partial<UploadResult> = {}): UploadResult => ({
  url: 'https://u.teknik.example/x32YI.png',
  fileName: 'x32YI.png',
  contentType: 'image/png',
  contentLength: 10,
  keySize: 256,
  blockSize: 128,
  deletionKey: 'abcdefghijklmnopqrstuvwx',
  ...more,
});

describe('uploadEndpoint', () => {
  it('says a server must be set up first when none is (a fresh install)', () => {
    const empty = { baseUrl: '', apiUrl: '', uploadUrl: '' };
    for (const variant of ['legacy', 'current'] as const)
      expect(() => uploadEndpoint({ variant, addresses: empty })).toThrow(/No upload server is set up yet/);
    expect(uploadEndpoint(current)).toBe('https://api.teknik.example/v1/Upload');
  });
});

describe('deletionLink', () => {
  it('legacy: {baseUrl}/<fileName>/<deletionKey>?sub=u', () => {
    expect(deletionLink(legacy, result())).toBe(
      'https://teknik.example/x32YI.png/abcdefghijklmnopqrstuvwx?sub=u',
    );
  });

  it('current: {uploadUrl}/<fileName>/<deletionKey>', () => {
    expect(deletionLink(current, result())).toBe(
      'https://u.teknik.example/x32YI.png/abcdefghijklmnopqrstuvwx',
    );
  });

  it('keeps a path in the configured address', () => {
    const target: UploadTarget = {
      variant: 'current',
      addresses: { ...addresses, uploadUrl: 'http://127.0.0.1:8787/u/' },
    };
    expect(deletionLink(target, result())).toBe('http://127.0.0.1:8787/u/x32YI.png/abcdefghijklmnopqrstuvwx');
  });

  it('is absent without a deletion key, or with an empty one', () => {
    expect(deletionLink(current, result({ deletionKey: undefined }))).toBeUndefined();
    expect(deletionLink(legacy, result({ deletionKey: '' }))).toBeUndefined();
  });

  it('percent-encodes a name that would otherwise change the link', () => {
    expect(deletionLink(current, result({ fileName: 'a#b?.png' }))).toBe(
      'https://u.teknik.example/a%23b%3F.png/abcdefghijklmnopqrstuvwx',
    );
  });

  it('falls back to the file’s own address when the configured one is unusable', () => {
    const target: UploadTarget = { variant: 'current', addresses: { ...addresses, uploadUrl: '' } };
    expect(deletionLink(target, result({ url: 'https://u.other.example/x32YI.png#key' }))).toBe(
      'https://u.other.example/x32YI.png/abcdefghijklmnopqrstuvwx',
    );
  });
});

describe('shareLink', () => {
  it('client mode: result.url#key', () => {
    const key = randomKey();
    expect(shareLink(result(), key)).toBe(`https://u.teknik.example/x32YI.png#${key}`);
    expect(shareLink(result({ url: 'https://teknik.example/x32YI.png?sub=u' }), key)).toBe(
      `https://teknik.example/x32YI.png?sub=u#${key}`,
    );
  });

  it('client mode, authenticated format: result.url#ece1.<secret>', () => {
    const secret = Uint8Array.from({ length: 16 }, (_, i) => 255 - i);
    expect(shareLink(result({ url: `https://u.teknik.example/x32YI.png#${randomKey()}` }), secret)).toBe(
      'https://u.teknik.example/x32YI.png#ece1.__79_Pv6-fj39vX08_Lx8A',
    );
    expect(shareLink(result(), randomSecret())).toMatch(/#ece1\.[\w-]{22}$/);
  });

  it('server and none modes: the URL as the server gave it', () => {
    expect(shareLink(result())).toBe('https://u.teknik.example/x32YI.png');
    const withKey = `https://u.teknik.example/x32YI.png#${randomKey()}`;
    expect(shareLink(result({ url: withKey }))).toBe(withKey);
    // A server that kept the key serves the file decrypted: a key it appended is not part of the link.
    expect(shareLink(result({ url: withKey }), undefined, true)).toBe('https://u.teknik.example/x32YI.png');
  });
});
