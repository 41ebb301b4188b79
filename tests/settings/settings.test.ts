import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  activeProfile,
  DEFAULT_SERVER,
  DEFAULT_SETTINGS,
  MIGRATIONS,
  normalizeSettings,
  profileServing,
  type ServerSettings,
  serverOriginPatterns,
  sizeProblem,
  tokenExposure,
  uploadTarget,
} from '../../lib/settings';
import { learnedLimit, limitFromMessage } from '../../lib/upload/limit';

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
    expect(v2.profiles[0].defaults).toEqual(v1.defaults);
    expect(v2.activeProfileId).toBe(v2.profiles[0].id);
  });

  it('leaves an already current shape alone', () => {
    expect(MIGRATIONS[2]!(structuredClone(DEFAULT_SETTINGS))).toEqual(DEFAULT_SETTINGS);
  });

  it('runs through the real storage item when the extension updates from version 1', async () => {
    fakeBrowser.reset();
    await fakeBrowser.storage.local.set({ settings: v1, settings$: { v: 1 } });
    const { loadSettings } = await import('../../platform/settings');
    const s = await loadSettings();
    expect(s.profiles[0]!.server.baseUrl).toBe('https://teknik.example');
    expect(s.profiles[0]!.defaults.expireUnit).toBe('day');
    const stored = await fakeBrowser.storage.local.get(['settings$']);
    expect(stored.settings$).toMatchObject({ v: 2 });
  });
});

describe('settings helpers', () => {
  it('fills gaps and repairs a dangling active id', () => {
    const s = normalizeSettings({
      profiles: [{ id: 'a', name: 'A', server: { baseUrl: 'https://a' } }],
      activeProfileId: 'x',
    });
    expect(s.activeProfileId).toBe('a');
    expect(s.profiles[0]!.server.apiUrl).toBe(DEFAULT_SETTINGS.profiles[0]!.server.apiUrl);
    expect(activeProfile(s).id).toBe('a');
    expect(normalizeSettings(undefined)).toEqual(DEFAULT_SETTINGS);
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

  it('refuses a file over a known limit with a sentence', () => {
    const p = { ...DEFAULT_SETTINGS.profiles[0]!, sizeLimit: 1000 };
    expect(sizeProblem(p, 1000, String)).toBeUndefined();
    expect(sizeProblem(p, 1001, String)).toMatch(/at most 1000/);
  });

  it('reads the limit a server states, or learns "smaller than this file"', () => {
    expect(limitFromMessage('File Too Large.  Max file size is 1 GB')).toBe(2 ** 30);
    expect(limitFromMessage('File Too Large.  Max file size is 1.5 MB')).toBe(1.5 * 2 ** 20);
    expect(limitFromMessage('Request Entity Too Large')).toBeUndefined();
    expect(learnedLimit(undefined, 5000)).toBe(4999);
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
