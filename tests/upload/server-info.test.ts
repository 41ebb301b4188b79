import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHushdropInfo, serverInfoUrl } from '../../lib/upload/server-info';
import type { UploadTarget } from '../../lib/upload/types';
import { startTestServer, type TestServer } from '../server/test-helpers';

const target = (variant: 'legacy' | 'current', s: { baseUrl: string; apiUrl: string; uploadUrl: string }) =>
  ({ variant, addresses: s }) as UploadTarget;

describe('is it a Hushdrop server?', () => {
  it('asks at the base address, for either variant', () => {
    const a = { baseUrl: 'https://ex.org/', apiUrl: 'https://api.ex.org', uploadUrl: 'https://u.ex.org' };
    expect(serverInfoUrl(target('current', a))).toBe('https://ex.org/_hushdrop/info');
    expect(serverInfoUrl(target('legacy', a))).toBe('https://ex.org/_hushdrop/info');
  });

  it('believes only the answer that names it', () => {
    expect(isHushdropInfo({ server: 'hushdrop', version: 1 })).toBe(true);
    for (const other of [
      null,
      'hushdrop',
      { server: 'Hushdrop' },
      { error: { message: 'File Does Not Exist' } },
      [],
    ])
      expect(isHushdropInfo(other)).toBe(false);
  });

  describe('the reference server', () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer();
    });
    afterAll(() => t.stop());
    for (const variant of ['current', 'legacy'] as const)
      it(`answers at the ${variant} variant's address`, async () => {
        const res = await fetch(serverInfoUrl(target(variant, t.server)));
        expect(isHushdropInfo(await res.json())).toBe(true);
      });
  });
});
