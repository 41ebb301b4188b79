import { describe, expect, it } from 'vitest';
import { randomText } from '../../lib/crypto/text';
import { ctrTransform } from '../../server/api/cipher';
import { computeExpiry, isoWithOffset } from '../../server/api/expiry';
import { bindBool, fileExtension } from '../../server/api/fields';
import { bytesReadable } from '../../server/http/responses';
import { parseSession } from '../../server/uploads/parts-sessions';
import { randomBytesOf, teknikCtr } from './test-helpers';

describe('building blocks', () => {
  it('binds booleans like ASP.NET', () => {
    const fields = new Map([
      ['a', 'TRUE'],
      ['b', ' false '],
      ['c', '1'],
      ['d', 'on'],
      ['e', ''],
    ]);
    expect(['a', 'b', 'c', 'd', 'e', 'missing'].map((n) => bindBool(fields, n, true))).toEqual([
      true,
      false,
      true,
      true,
      true,
      true,
    ]);
  });

  it('derives extensions like Teknik', () => {
    const cases: [string, string][] = [
      ['a.png', '.png'],
      ['x.tar.gz', '.tar.gz'],
      ['x.svg.GZ', '.svg.GZ'],
      ['noext', ''],
      ['.hidden', ''],
      ['a.b.c', '.c'],
      ['weird.p g', ''],
      ['a.txt#frag', '.txt'],
      ['', ''],
      [`a.${'e'.repeat(63)}`, `.${'e'.repeat(63)}`],
      [`a.${'e'.repeat(64)}`, ''],
    ];
    for (const [name, ext] of cases) expect(fileExtension(name), name).toBe(ext);
  });

  it('draws alphanumerics only, all of them', () => {
    const text = randomText(20_000);
    expect(text).toMatch(/^[A-Za-z0-9]{20000}$/);
    expect(new Set(text).size).toBe(62);
  });

  it('words sizes in binary units, named as IEC units (the extension says MiB too)', () => {
    expect([0, 1023, 1024, 1536, 100_000_000, 1024 ** 3, 1.25 * 1024 ** 4].map(bytesReadable)).toEqual([
      '0 B',
      '1023 B',
      '1 KiB',
      '1.5 KiB',
      '95.367 MiB',
      '1 GiB',
      '1.25 TiB',
    ]);
  });

  it('starts the keystream at any offset', () => {
    const key = 'abcdefghijklmnopqrstuvwxyzABCDEF';
    const iv = 'zzzzzzzzzzzzzzzz';
    const data = randomBytesOf(200);
    const whole = teknikCtr(key, iv, data);
    for (const offset of [0, 1, 15, 16, 17, 100]) {
      const part = ctrTransform(key, iv, offset).update(data.subarray(offset));
      expect(new Uint8Array(part)).toEqual(whole.subarray(offset));
    }
  });

  it('formats dates with offset and trimmed fractions', () => {
    expect(isoWithOffset(new Date(2025, 5, 1, 8, 9, 10, 500))).toMatch(
      /^2025-06-01T08:09:10\.5[+-]\d\d:\d\d$/,
    );
    expect(isoWithOffset(new Date(2025, 5, 1, 8, 9, 10, 0))).toMatch(/^2025-06-01T08:09:10[+-]\d\d:\d\d$/);
    const leap = computeExpiry({ unit: 'years', length: 1 }, new Date(2024, 1, 29, 6).getTime());
    expect(leap.expirationDate).toMatch(/^2025-02-28T06:00:00/);
    expect(computeExpiry({ unit: 'views', length: 4 }, 0)).toEqual({
      maxDownloads: 4,
      expirationDate: null,
      expiresAt: null,
    });
  });

  it('reads a session of an upload in parts that an earlier version stored with its form fields', () => {
    const stored = {
      kind: 'parts-session',
      id: 'A'.repeat(24),
      blobId: 'blob1',
      handle: '',
      count: 1,
      partBytes: 5,
      totalBytes: 5,
      createdAt: 1,
      expiresAt: 2,
      state: 'open',
      address: '192.0.2.1',
      variant: 'legacy',
      fields: {
        encrypt: 'false',
        contenttype: 'text/x-old',
        expireunit: 'hour',
        expirelength: '3',
        junk: 'j',
      },
      fileName: 'f.txt',
      dntHeader: false,
      httpVersion: '1.1',
    };
    const session = parseSession(stored);
    expect(session?.form.params).toMatchObject({ encrypt: false, contentType: 'text/x-old' });
    expect(session?.form.expiry).toEqual({ unit: 'hours', length: 3 });
    expect(session).not.toHaveProperty('fields');
    expect(parseSession({ ...stored, fields: { encrypt: 1 } })).toBeNull();
  });
});
