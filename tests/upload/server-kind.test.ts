import { describe, expect, it } from 'vitest';
import { readServerKind, serverInfoUrls, UNKNOWN_SERVER } from '../../lib/upload/server-kind';
import { startTestServer } from '../server/test-helpers';

describe('telling a Hushdrop server', () => {
  it('asks the base address and the API origin, each once', () => {
    const addresses = {
      baseUrl: 'https://files.example/hd',
      apiUrl: 'https://api.example/api',
      uploadUrl: 'https://files.example/u',
    };
    expect(serverInfoUrls(addresses, 'current')).toEqual([
      'https://files.example/hd/_hushdrop/info',
      'https://files.example/_hushdrop/info',
      'https://api.example/api/_hushdrop/info',
      'https://api.example/_hushdrop/info',
    ]);
    expect(serverInfoUrls({ ...addresses, baseUrl: 'ftp://x' }, 'legacy')).toEqual([]);
  });

  it('reads the reference server’s own answer as a Hushdrop server taking ece and parts; an older one (noParts) without', async () => {
    for (const noParts of [false, true]) {
      const ref = await startTestServer({ noParts });
      try {
        const [url] = serverInfoUrls(ref.server, 'current');
        const kind = readServerKind(await (await fetch(url!)).json());
        expect(kind).toEqual({ hushdrop: true, formats: ['teknik', 'ece'], parts: !noParts });
      } finally {
        await ref.stop();
      }
    }
  });

  it('takes parts only from a sound `parts` entry', () => {
    const answer = (parts: unknown) => readServerKind({ server: 'hushdrop', linkFormats: ['teknik'], parts });
    expect(answer({ partBytes: 16 * 1024 * 1024 }).parts).toBe(true);
    for (const odd of [
      undefined,
      null,
      true,
      'yes',
      {},
      { partBytes: 0 },
      { partBytes: -5 },
      { partBytes: 1.5 },
    ])
      expect(answer(odd).parts, JSON.stringify(odd)).toBe(false);
  });

  it('reads anything else as a server of unknown kind', () => {
    for (const odd of [
      null,
      'hushdrop',
      [],
      { server: 'teknik' },
      { server: 'HUSHDROP', linkFormats: ['ece1'] },
    ])
      expect(readServerKind(odd)).toEqual(UNKNOWN_SERVER);
    expect(readServerKind({ server: 'hushdrop', linkFormats: 'ece1' })).toEqual({
      hushdrop: true,
      formats: ['teknik'],
      parts: false,
    });
  });
});
