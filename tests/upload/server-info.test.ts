// The info answer read for the first-run page: the reference server's own, and hostile ones.
import { describe, expect, it } from 'vitest';
import { chooseVariant, readExpiryUnits, readServerInfo, typedOrigin } from '../../lib/upload/server-info';
import { startTestServer } from '../server/test-helpers';

const TYPED = 'https://files.example';

/** An answer as a Hushdrop server on files.example gives it, with `patch` laid over. */
function answer(patch: Record<string, unknown> = {}, variants: Record<string, unknown> = {}) {
  return {
    server: 'hushdrop',
    linkFormats: ['teknik', 'ece1'],
    variants: {
      legacy: { base_url: 'https://files.example', uploads: 'open', expiry: ['never', 'view', 'day'] },
      current: {
        api_url: 'https://files.example/api',
        upload_url: 'https://files.example/u',
        uploads: 'open',
        expiry: [],
      },
      ...variants,
    },
    maxUploadBytes: 5 * 2 ** 20,
    ...patch,
  };
}

describe('the info answer of a Hushdrop server', () => {
  it('reads the reference server’s own answer: both variants, its addresses, expiry and limit', async () => {
    const ref = await startTestServer();
    try {
      const body = await (await fetch(`${ref.server.baseUrl}/_hushdrop/info`)).json();
      const info = readServerInfo(body, `${ref.server.baseUrl}/`);
      expect(info).toMatchObject({
        formats: ['teknik', 'ece'],
        legacy: {
          baseUrl: ref.server.baseUrl,
          uploads: 'open',
          expiry: expect.arrayContaining(['never', 'view', 'day']),
        },
        current: { apiUrl: ref.server.apiUrl, uploadUrl: ref.server.uploadUrl, uploads: 'open', expiry: [] },
        foreign: [],
      });
      expect(chooseVariant(info!)).toBe('current');
    } finally {
      await ref.stop();
    }
  });

  it('is no Hushdrop answer when it does not say so, or is not an object', () => {
    for (const body of [
      null,
      'hushdrop',
      [answer()],
      42,
      {},
      { ...answer(), server: 'Hushdrop ' },
      { server: ['hushdrop'] },
    ])
      expect(readServerInfo(body, TYPED)).toBeUndefined();
    expect(readServerInfo(answer(), 'ftp://files.example')).toBeUndefined();
    expect(readServerInfo(answer(), 'not an address')).toBeUndefined();
  });

  it('drops a variant whose addresses have the wrong type, are not http(s), carry credentials or a query', () => {
    for (const bad of [
      42,
      ['https://files.example/api'],
      { href: 'https://files.example/api' },
      'javascript:alert(1)',
      'data:text/html,hi',
      'file:///etc/passwd',
      'https://me:pw@files.example/api',
      'https://files.example/api?x=1',
      'https://files.example/api#frag',
      '/api',
    ]) {
      const info = readServerInfo(
        answer({}, { current: { api_url: bad, upload_url: 'https://files.example/u', uploads: 'open' } }),
        TYPED,
      );
      expect(info?.current, String(bad)).toBeUndefined();
      expect(info?.legacy?.baseUrl).toBe('https://files.example');
    }
  });

  it('refuses addresses on another origin than the one typed, and names that origin', () => {
    const info = readServerInfo(
      answer(
        {},
        {
          legacy: { base_url: 'https://evil.example', uploads: 'open' },
          current: {
            api_url: 'http://files.example/api',
            upload_url: 'https://files.example:8443/u',
            uploads: 'open',
          },
        },
      ),
      TYPED,
    )!;
    expect(info.legacy).toBeUndefined();
    expect(info.current).toBeUndefined();
    expect(info.foreign).toEqual([
      'http://files.example',
      'https://evil.example',
      'https://files.example:8443',
    ]);
    expect(chooseVariant(info)).toBeUndefined();
  });

  it('refuses huge strings and lists, and ignores unknown expiry units', () => {
    const huge = `https://files.example/${'a'.repeat(5000)}`;
    const info = readServerInfo(
      answer(
        { linkFormats: Array(1000).fill('ece1') },
        {
          legacy: { base_url: huge, uploads: 'open' },
          current: {
            api_url: 'https://files.example/api',
            upload_url: 'https://files.example/u',
            uploads: 'open',
            expiry: ['Days', 'view', 'fortnight', 42, 'x'.repeat(100_000), 'day'],
          },
        },
      ),
      TYPED,
    )!;
    expect(info.legacy).toBeUndefined();
    expect(info.formats).toEqual(['teknik']);
    expect(info.current?.expiry).toEqual(['day', 'view']);
    expect(readExpiryUnits(Array(17).fill('day'))).toEqual([]);
    expect(readExpiryUnits('day')).toEqual([]);
    expect(readExpiryUnits(['__proto__', 'constructor', 'toString'])).toEqual([]);
  });

  it('reads "who may upload" and the size limit only when they have the right shape', () => {
    const info = readServerInfo(
      answer(
        { maxUploadBytes: '5000' },
        {
          legacy: { base_url: 'https://files.example', uploads: 'accounts' },
          current: {
            api_url: 'https://files.example/api',
            upload_url: 'https://files.example/u',
            uploads: 'accounts',
          },
        },
      ),
      TYPED,
    )!;
    expect(info.legacy?.uploads).toBe('closed');
    expect(info.current?.uploads).toBe('accounts');
    expect(info.maxUploadBytes).toBeUndefined();
    expect(chooseVariant(info)).toBe('current');
    for (const max of [-1, 0, 1.5, Number.MAX_VALUE, null])
      expect(readServerInfo(answer({ maxUploadBytes: max }), TYPED)!.maxUploadBytes).toBeUndefined();
    expect(readServerInfo(answer(), TYPED)!.maxUploadBytes).toBe(5 * 2 ** 20);
  });

  it('chooses a variant open to anyone first, the current one before the legacy one', () => {
    const closedCurrent = readServerInfo(
      answer(
        {},
        {
          current: {
            api_url: 'https://files.example/api',
            upload_url: 'https://files.example/u',
            uploads: 'closed',
          },
        },
      ),
      TYPED,
    )!;
    expect(chooseVariant(closedCurrent)).toBe('legacy');
    expect(chooseVariant(readServerInfo(answer(), TYPED)!)).toBe('current');
  });

  it('takes the typed address’s origin from a typed http(s) address only', () => {
    expect(typedOrigin(' https://files.example/some/path ')).toBe('https://files.example');
    expect(typedOrigin('files.example')).toBeUndefined();
    expect(typedOrigin('javascript:alert(1)')).toBeUndefined();
    expect(typedOrigin(`https://x.example/${'a'.repeat(3000)}`)).toBeUndefined();
  });
});
