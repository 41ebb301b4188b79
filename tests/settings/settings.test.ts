import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  activeProfile,
  checkServerAddress,
  DEFAULT_SERVER,
  defaultSettings,
  MIGRATIONS,
  needsSetup,
  newProfile,
  normalizeSettings,
  type Profile,
  profileServing,
  SETTINGS_VERSION,
  type ServerSettings,
  serverOriginPatterns,
  sizeProblem,
  tokenExposure,
  tooLargeSentence,
  uploadOptions,
  uploadTarget,
  withServerChange,
} from '../../lib/settings';
import { fitsLimit } from '../../lib/upload/limit';

const v1 = {
  server: {
    variant: 'legacy',
    baseUrl: 'https://teknik.example',
    apiUrl: 'https://api.teknik.example',
    uploadUrl: 'https://u.teknik.example',
    username: 'jörg',
    token: 'tøken',
  },
  defaults: {
    mode: 'server',
    saveKey: false,
    genDeletionKey: false,
    expireUnit: 'day',
    expireLength: 3,
    doNotTrack: false,
  },
};

describe('settings migrations', () => {
  it('turns the first release’s single server into one profile, keeping every value', () => {
    const v2 = MIGRATIONS[2]!(structuredClone(v1));
    expect(v2.profiles).toHaveLength(1);
    expect(v2.profiles[0].server).toEqual(v1.server);
    expect(v2.profiles[0].defaults).toEqual({ ...v1.defaults, format: 'teknik' });
    expect(v2.activeProfileId).toBe(v2.profiles[0].id);
  });

  it('leaves an already current shape alone', () => {
    expect(MIGRATIONS[2]!(structuredClone(defaultSettings()))).toEqual(defaultSettings());
  });

  it('runs through the real storage item when the extension updates from version 1', async () => {
    fakeBrowser.reset();
    await fakeBrowser.storage.local.set({ settings: v1, settings$: { v: 1 } });
    const { loadSettings } = await import('../../platform/storage/settings');
    const s = await loadSettings();
    expect(s.profiles[0]!.server.baseUrl).toBe('https://teknik.example');
    expect(s.profiles[0]!.defaults.expireUnit).toBe('day');
    const stored = await fakeBrowser.storage.local.get(['settings$']);
    expect(stored.settings$).toMatchObject({ v: SETTINGS_VERSION });
  });
});

describe('settings helpers', () => {
  it('fills gaps and repairs a dangling active id', () => {
    const s = normalizeSettings({
      profiles: [{ id: 'a', name: 'A', server: { baseUrl: 'https://a' } }],
      activeProfileId: 'x',
    });
    expect(s.activeProfileId).toBe('a');
    expect(s.profiles[0]!.server.apiUrl).toBe(defaultSettings().profiles[0]!.server.apiUrl);
    expect(activeProfile(s).id).toBe('a');
    expect(normalizeSettings(undefined)).toEqual(defaultSettings());
  });

  it('sends credentials only with the current variant and a username', () => {
    const server = v1.server as any;
    expect(uploadTarget(server, 'legacy').credentials).toBeUndefined();
    expect(uploadTarget(server, 'current').credentials).toEqual({ username: 'jörg', token: 'tøken' });
    expect(uploadTarget({ ...server, username: '' }, 'current').credentials).toBeUndefined();
  });

  it('lists the origins to ask permission for, once each', () => {
    expect(serverOriginPatterns(v1.server as any).sort()).toEqual([
      'https://api.teknik.example/*',
      'https://teknik.example/*',
      'https://u.teknik.example/*',
    ]);
  });

  it('names an empty address as empty, and a wrong one as not a web address', () => {
    expect(checkServerAddress('API address', ' ')).toBe(
      'API address is empty: enter the server’s address, for example https://files.example.org.',
    );
    expect(checkServerAddress('API address', 'https://')).toMatch(/^API address is not a web address/);
    expect(checkServerAddress('API address', 'https://files.example.org/api')).toBeUndefined();
  });

  it('a changed address or variant makes a tested profile untested; a changed account does not', () => {
    const tested: Profile = { ...newProfile('a', 'A', { apiUrl: 'https://a/api' }), passedTest: true };
    expect(withServerChange(tested, { username: 'me', token: 't' }).passedTest).toBe(true);
    expect(withServerChange(tested, { apiUrl: 'https://a/api' }).passedTest).toBe(true);
    const moved = withServerChange(tested, { apiUrl: 'https://b/api' });
    expect(moved.server.apiUrl).toBe('https://b/api');
    expect(moved.passedTest).toBe(false);
    expect(withServerChange(tested, { variant: 'legacy' }).passedTest).toBe(false);
  });

  it('refuses a file over a known limit with a sentence', () => {
    const p = { ...defaultSettings().profiles[0]!, sizeLimit: { bytes: 1000, kind: 'at-most' as const } };
    expect(sizeProblem(p, 1000)).toBeUndefined();
    expect(sizeProblem(p, 1001)).toBe(
      'This file is 1,001 bytes, but My server only takes files of at most 1,000 bytes. Nothing was sent.',
    );
  });

  it('refuses a file at or over a refused size, saying "smaller than"', () => {
    const p = { ...defaultSettings().profiles[0]!, sizeLimit: { bytes: 512 * 1024, kind: 'below' as const } };
    expect(sizeProblem(p, 512 * 1024 - 1)).toBeUndefined();
    expect(sizeProblem(p, 512 * 1024)).toBe(
      'This file is 512 KiB, but My server only takes files smaller than 512 KiB. Nothing was sent.',
    );
    expect(tooLargeSentence(p, p.sizeLimit)).toBe(
      'The file is too large for My server: it only takes files smaller than 512 KiB.',
    );
  });
});

describe('settings version 3: size limits', () => {
  const v2 = (sizeLimit: number) => ({
    profiles: [{ ...structuredClone(defaultSettings().profiles[0]!), sizeLimit }],
    activeProfileId: 'default',
  });
  const migrated = (n: number) => MIGRATIONS[3]!(v2(n)).profiles[0].sizeLimit;

  it('reads a learned "refused size minus one" as below the refused size', () => {
    expect(migrated(512 * 1024 - 1)).toEqual({ bytes: 512 * 1024, kind: 'below' });
    expect(migrated(600_000)).toEqual({ bytes: 600_001, kind: 'below' });
  });

  it('reads whole units (set by hand, or stated by the server) as "at most"', () => {
    expect(migrated(2 ** 30)).toEqual({ bytes: 2 ** 30, kind: 'at-most' });
    expect(migrated(5 * 2 ** 20)).toEqual({ bytes: 5 * 2 ** 20, kind: 'at-most' });
  });

  it('lets exactly the same files through as version 2 did', () => {
    for (const n of [1, 1023, 1024, 524_287, 600_000, 2 ** 30]) {
      const limit = migrated(n);
      for (const size of [n - 1, n, n + 1]) expect(fitsLimit(limit, size)).toBe(size <= n);
    }
  });

  it('leaves a current shape alone and drops unusable values', () => {
    const current = {
      ...v2(1),
      profiles: [{ ...v2(1).profiles[0]!, sizeLimit: { bytes: 7, kind: 'below' } }],
    };
    expect(MIGRATIONS[3]!(structuredClone(current))).toEqual(current);
    for (const bad of [0, -5, 1.5, { bytes: 5 }, { bytes: 'x', kind: 'below' }, 'big']) {
      const s = MIGRATIONS[3]!({ ...v2(1), profiles: [{ ...v2(1).profiles[0]!, sizeLimit: bad }] });
      expect(s.profiles[0]).not.toHaveProperty('sizeLimit');
    }
  });

  it('runs through the real storage item from version 2', async () => {
    fakeBrowser.reset();
    await fakeBrowser.storage.local.set({ settings: v2(524_287), settings$: { v: 2 } });
    vi.resetModules();
    const { loadSettings } = await import('../../platform/storage/settings');
    const s = await loadSettings();
    expect(s.profiles[0]!.sizeLimit).toEqual({ bytes: 524_288, kind: 'below' });
    expect((await fakeBrowser.storage.local.get(['settings$'])).settings$).toMatchObject({
      v: SETTINGS_VERSION,
    });
  });
});

// Where settings versions 1–4 pointed a new installation: the bundled server's loopback address.
const OLD_DEFAULT = {
  baseUrl: 'http://127.0.0.1:8787',
  apiUrl: 'http://127.0.0.1:8787/api',
  uploadUrl: 'http://127.0.0.1:8787/u',
};

describe('settings version 4: the link format', () => {
  const v3 = (servers: Record<string, string>[]) => ({
    profiles: servers.map((server, i) => ({
      id: `p${i}`,
      name: `P${i}`,
      server: { ...DEFAULT_SERVER, ...OLD_DEFAULT, ...server },
      defaults: { ...v1.defaults },
    })),
    activeProfileId: 'p0',
  });

  it('keeps Teknik servers on the Teknik format and puts the bundled Hushdrop server on ece', () => {
    const s = MIGRATIONS[4]!(v3([v1.server, {}, { baseUrl: 'http://127.0.0.1:9999' }]));
    expect(s.profiles.map((p: Profile) => p.defaults.format)).toEqual(['teknik', 'ece', 'teknik']);
    expect(s.profiles[0].defaults).toEqual({ ...v1.defaults, format: 'teknik' });
  });

  it('starts any new profile on teknik until a test says the server is a Hushdrop server', () => {
    expect(defaultSettings().profiles[0]!.defaults.format).toBe('teknik');
    expect(newProfile('x', 'X', { apiUrl: 'https://api.teknik.example' }).defaults.format).toBe('teknik');
    expect(uploadOptions(defaultSettings().profiles[0]!.defaults).format).toBe('teknik');
  });

  it('reads an unknown format as teknik', () => {
    const s = v3([{}]);
    (s.profiles[0]!.defaults as Record<string, unknown>).format = 'rot13';
    expect(normalizeSettings(s).profiles[0]!.defaults.format).toBe('teknik');
  });

  it('runs through the real storage item from version 3', async () => {
    fakeBrowser.reset();
    await fakeBrowser.storage.local.set({ settings: v3([{}, v1.server]), settings$: { v: 3 } });
    vi.resetModules();
    const { loadSettings } = await import('../../platform/storage/settings');
    const s = await loadSettings();
    expect(s.profiles.map((p) => p.defaults.format)).toEqual(['ece', 'teknik']);
    expect((await fakeBrowser.storage.local.get(['settings$'])).settings$).toMatchObject({
      v: SETTINGS_VERSION,
    });
  });
});

describe('a token sent in the clear', () => {
  const server = (apiUrl: string, extra: Partial<ServerSettings> = {}): ServerSettings => ({
    ...DEFAULT_SERVER,
    variant: 'current',
    apiUrl,
    username: 'me',
    token: 's3cret',
    ...extra,
  });

  it('is named when a token goes over plain http to another machine', () => {
    expect(tokenExposure(server('http://files.example.org/api'))).toMatch(
      /token would be sent unencrypted to files\.example\.org/,
    );
    expect(tokenExposure(server('http://192.168.1.20:8080/api'))).toMatch(/192\.168\.1\.20:8080/);
  });

  it('is quiet over https, on this machine, without a token, or for the legacy variant', () => {
    expect(tokenExposure(server('https://files.example.org/api'))).toBeUndefined();
    expect(tokenExposure(server('http://127.0.0.1:8787/api'))).toBeUndefined();
    expect(tokenExposure(server('http://localhost:8787/api'))).toBeUndefined();
    expect(tokenExposure(server('http://[::1]:8787/api'))).toBeUndefined();
    expect(tokenExposure(server('http://files.example.org/api', { token: '' }))).toBeUndefined();
    expect(tokenExposure(server('http://files.example.org/api', { username: '' }))).toBeUndefined();
    expect(tokenExposure(server('http://files.example.org/api', { variant: 'legacy' }))).toBeUndefined();
  });
});

describe('the profile serving a file', () => {
  it('is the one with an address on the file’s origin', () => {
    const s = normalizeSettings({
      profiles: [
        { id: 'a', name: 'A', server: { ...DEFAULT_SERVER, uploadUrl: 'https://u.a.example' } },
        { id: 'b', name: 'B', server: { ...DEFAULT_SERVER, baseUrl: 'https://b.example:8443' } },
      ],
      activeProfileId: 'a',
    });
    expect(profileServing(s, 'https://u.a.example/f.png')?.id).toBe('a');
    expect(profileServing(s, 'https://b.example:8443/f.png?sub=u')?.id).toBe('b');
    expect(profileServing(s, 'https://b.example/f.png')).toBeUndefined();
    expect(profileServing(s, 'not a url')).toBeUndefined();
  });
});

describe('settings version 5: no built-in server, and a passed test before uploads', () => {
  it('a new installation has no server address at all (no loopback) and waits for setup', () => {
    const s = defaultSettings();
    const { baseUrl, apiUrl, uploadUrl } = s.profiles[0]!.server;
    expect([baseUrl, apiUrl, uploadUrl]).toEqual(['', '', '']);
    expect(JSON.stringify(s)).not.toMatch(/127\.0\.0\.1|localhost|8787/);
    expect(needsSetup(s)).toBe(true);
    expect(needsSetup(normalizeSettings(undefined))).toBe(true);
  });

  it('counts every profile in use before the update as tested, so uploads go on', () => {
    const v4 = {
      profiles: [
        { id: 'a', name: 'A', server: { ...DEFAULT_SERVER, ...OLD_DEFAULT }, defaults: { ...v1.defaults } },
        { id: 'b', name: 'B', server: { ...v1.server }, defaults: { ...v1.defaults } },
        { id: 'c', name: 'C', server: { ...DEFAULT_SERVER, baseUrl: 'https://half.example' }, defaults: {} },
      ],
      activeProfileId: 'b',
    };
    const s = MIGRATIONS[5]!(structuredClone(v4));
    expect(s.profiles.map((p: Profile) => p.passedTest)).toEqual([true, true, false]);
    expect(s.profiles[0].server).toMatchObject(OLD_DEFAULT);
    expect(needsSetup(s)).toBe(false);
  });

  it('keeps a passed test and the expiry units a server named, and drops odd values', () => {
    const s = normalizeSettings({
      profiles: [
        {
          id: 'a',
          name: 'A',
          passedTest: true,
          expiryUnits: { legacy: ['day', 'Hours', 'rot13'], current: 'x' },
        },
        { id: 'b', name: 'B', passedTest: 'yes' },
      ],
      activeProfileId: 'b',
    });
    expect(s.profiles[0]!.passedTest).toBe(true);
    expect(s.profiles[0]!.expiryUnits).toEqual({ legacy: ['day', 'hour'] });
    expect(s.profiles[1]!.passedTest).toBeUndefined();
    expect(needsSetup(s)).toBe(true);
  });
});
