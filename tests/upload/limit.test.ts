import { describe, expect, it } from 'vitest';
import { fitsLimit, learnedLimit, limitFromMessage, limitSize, limitText } from '../../lib/upload/limit';

const KIB = 1024;

describe('what a refusal for size teaches', () => {
  it('reads the limit a server states (binary units, as Teknik means them)', () => {
    expect(limitFromMessage('File Too Large.  Max file size is 1 GB')).toBe(2 ** 30);
    expect(limitFromMessage('File Too Large.  Max file size is 1.5 MB')).toBe(1.5 * 2 ** 20);
    expect(limitFromMessage('Request Entity Too Large')).toBeUndefined();
    expect(limitFromMessage(undefined)).toBeUndefined();
  });

  it('keeps a stated limit as "at most" that size', () => {
    const limit = learnedLimit('File Too Large.  Max file size is 1 GB', 3 * 2 ** 30);
    expect(limit).toEqual({ bytes: 2 ** 30, kind: 'at-most' });
    expect(limitText(limit)).toBe('at most 1 GiB');
    expect(fitsLimit(limit, 2 ** 30)).toBe(true);
    expect(fitsLimit(limit, 2 ** 30 + 1)).toBe(false);
  });

  it('without a stated limit, knows only that the limit is below the refused size', () => {
    const limit = learnedLimit('<html><h1>413 Request Entity Too Large</h1></html>', 512 * KIB);
    expect(limit).toEqual({ bytes: 512 * KIB, kind: 'below' });
    expect(limitText(limit)).toBe('smaller than 512 KiB');
    expect(fitsLimit(limit, 512 * KIB)).toBe(false);
    expect(fitsLimit(limit, 512 * KIB - 1)).toBe(true);
  });
});

describe('sizes in sentences about limits', () => {
  it('says whole units exactly', () => {
    expect(limitSize(512 * KIB)).toBe('512 KiB');
    expect(limitSize(2 ** 30)).toBe('1 GiB');
    expect(limitSize(1000)).toBe('1,000 bytes');
    expect(limitSize(1536)).toBe('1.5 KiB');
  });

  it('rounds anything else up, so "at most" and "smaller than" stay true', () => {
    expect(limitSize(600_001)).toBe('586 KiB'); // 585.938 KiB
    expect(limitSize(2 ** 20 + 1)).toBe('1.1 MiB');
    expect(limitSize(512 * KIB - 1)).toBe('512 KiB');
  });
});
