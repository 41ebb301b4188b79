import { describe, expect, it } from 'vitest';
import { maskDeletionLink, maskShareLink } from '../../lib/upload/masked-links';

describe('masked links', () => {
  it('hide the key of a share link, in both link formats, and nothing of a link without one', () => {
    expect(maskShareLink('https://f.test/aB3dE.pdf#abcdefghijklmnopqrstuvwxyzABCDEF')).toEqual({
      before: 'https://f.test/aB3dE.pdf#',
      hidden: true,
      after: '',
    });
    expect(maskShareLink('https://f.test/x.bin#ece1.AAAAAAAAAAAAAAAAAAAAAA').before).toBe(
      'https://f.test/x.bin#',
    );
    expect(maskShareLink('https://f.test/x.bin')).toEqual({
      before: 'https://f.test/x.bin',
      hidden: false,
      after: '',
    });
  });

  it('hide the deletion key, keeping the legacy ?sub=u', () => {
    expect(maskDeletionLink('https://u.f.test/aB3dE.pdf/k3yk3yk3y')).toEqual({
      before: 'https://u.f.test/aB3dE.pdf/',
      hidden: true,
      after: '',
    });
    expect(maskDeletionLink('https://f.test/aB3dE.pdf/k3yk3yk3y?sub=u')).toEqual({
      before: 'https://f.test/aB3dE.pdf/',
      hidden: true,
      after: '?sub=u',
    });
    expect(maskDeletionLink('https://f.test/').hidden).toBe(false);
  });
});
