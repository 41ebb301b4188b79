import { describe, expect, it } from 'vitest';
import { defaultSettings, newProfile } from '../../lib/settings';
import { serverByHand, serverFromInfo, setUpProfile, withSetUpProfile } from '../../lib/settings/setup';
import { readServerInfo } from '../../lib/upload/server-info';

const info = readServerInfo(
  {
    server: 'hushdrop',
    linkFormats: ['teknik', 'ece1'],
    variants: {
      legacy: { base_url: 'https://files.example', uploads: 'open', expiry: ['never', 'day'] },
      current: {
        api_url: 'https://files.example/api',
        upload_url: 'https://files.example/u',
        uploads: 'open',
        expiry: [],
      },
    },
    maxUploadBytes: 1000,
  },
  'https://files.example',
)!;

describe('the first run’s settings', () => {
  it('a Hushdrop server: its addresses, the authenticated format, its expiry units and limit, tested', () => {
    const server = serverFromInfo(info, 'current');
    expect(server).toMatchObject({
      variant: 'current',
      baseUrl: 'https://files.example',
      apiUrl: 'https://files.example/api',
      uploadUrl: 'https://files.example/u',
    });
    const p = setUpProfile('id', 'https://files.example/', server, info);
    expect(p).toMatchObject({
      name: 'files.example',
      passedTest: true,
      expiryUnits: { legacy: ['never', 'day'], current: [] },
      sizeLimit: { bytes: 1000, kind: 'at-most' },
    });
    expect(p.defaults.format).toBe('ece');
  });

  it('a server set up by hand: legacy on the typed address, current on the addresses given', () => {
    expect(serverByHand(' https://t.example/ ', 'legacy', { apiUrl: 'x', uploadUrl: 'y' })).toMatchObject({
      variant: 'legacy',
      baseUrl: 'https://t.example',
    });
    expect(
      serverByHand('https://t.example', 'current', {
        apiUrl: 'https://api.t.example',
        uploadUrl: 'https://u.t.example',
      }),
    ).toMatchObject({ apiUrl: 'https://api.t.example', uploadUrl: 'https://u.t.example' });
    expect(
      setUpProfile(
        'id',
        'https://t.example',
        serverByHand('https://t.example', 'legacy', { apiUrl: '', uploadUrl: '' }),
      ).defaults.format,
    ).toBe('teknik');
  });

  it('replaces the untested profile of a new installation, and otherwise adds beside the others', () => {
    const p = setUpProfile('new', 'https://files.example', serverFromInfo(info, 'current'), info);
    const fresh = withSetUpProfile(defaultSettings(), p);
    expect(fresh.profiles).toHaveLength(1);
    expect(fresh.activeProfileId).toBe('default');
    expect(fresh.profiles[0]!.passedTest).toBe(true);

    const tested = { ...newProfile('mine', 'Mine'), passedTest: true };
    const added = withSetUpProfile({ profiles: [tested], activeProfileId: 'mine' }, p);
    expect(added.profiles.map((x) => x.id)).toEqual(['mine', 'new']);
    expect(added.activeProfileId).toBe('new');
  });
});
