// npm start's pieces that need no browser: where it keeps things, the command line it gives
// Chromium, the extension id it opens, and the settings it writes.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVER, newProfile, SETTINGS_VERSION } from '../../lib/settings';
import { chromiumArgs, unpackedExtensionId } from '../../scripts/start/chromium';
import { places } from '../../scripts/start/places';
import { START_PROFILE_ID, withStartProfile } from '../../scripts/start/settings';

describe('where npm start keeps its data', () => {
  it('under HUSHDROP_HOME, else $XDG_DATA_HOME/hushdrop, else ~/.local/share/hushdrop', () => {
    expect(places({ HUSHDROP_HOME: '/h', XDG_DATA_HOME: '/x', HOME: '/home/p' }).home).toBe('/h');
    expect(places({ XDG_DATA_HOME: '/x', HOME: '/home/p' })).toEqual({
      home: '/x/hushdrop',
      server: '/x/hushdrop/server',
      chromium: '/x/hushdrop/chromium',
      chromiumExtension: '/x/hushdrop/chromium-extension',
      firefox: '/x/hushdrop/firefox',
    });
    expect(places({ HOME: '/home/p' }).home).toBe('/home/p/.local/share/hushdrop');
  });
});

describe('the Chromium command line', () => {
  const base = {
    executable: 'chromium',
    profile: '/p',
    extension: '/e',
    headless: false,
    asRoot: false,
    remoteDebugging: false,
  };
  it('is the profile and the extension, and nothing else a person would not have', () => {
    expect(chromiumArgs(base, 'chrome-extension://x/upload.html')).toEqual([
      '--user-data-dir=/p',
      '--load-extension=/e',
      'chrome-extension://x/upload.html',
    ]);
  });
  it('adds --no-sandbox only as root, --headless only without a display, remote debugging when asked or headless', () => {
    expect(chromiumArgs({ ...base, asRoot: true, headless: true })).toEqual([
      '--user-data-dir=/p',
      '--load-extension=/e',
      '--no-sandbox',
      '--headless',
      '--remote-debugging-port=0',
    ]);
    expect(chromiumArgs({ ...base, remoteDebugging: true }, 'http://x/')).toEqual([
      '--user-data-dir=/p',
      '--load-extension=/e',
      '--remote-debugging-port=0',
      'http://x/',
    ]);
  });
  it('knows the id Chromium gives the unpacked extension (checked against Chromium 156)', () => {
    expect(unpackedExtensionId('/tmp/recipient-exp/home1/chromium-extension')).toBe(
      'bgjpflcdndajnpnliohfjcimblmlfhak',
    );
  });
});

describe('the settings npm start writes', () => {
  const addresses = {
    baseUrl: 'http://127.0.0.1:9000',
    apiUrl: 'http://127.0.0.1:9000/api',
    uploadUrl: 'http://127.0.0.1:9000/u',
  };
  it('on a fresh profile: one profile, for this server, in use, counted as tested', () => {
    const s = withStartProfile(undefined, undefined, addresses);
    expect(s.activeProfileId).toBe(START_PROFILE_ID);
    expect(s.profiles).toHaveLength(1);
    expect(s.profiles[0]!.server).toMatchObject({ ...addresses, variant: 'current' });
    expect(s.profiles[0]!.passedTest).toBe(true);
    expect(s.profiles[0]!.defaults.format).toBe('ece');
    expect(s.profiles[0]!.name).toBe('Hushdrop server on this computer');
  });
  it('keep the person’s profiles and choice, and only move npm start’s own profile', () => {
    const mine = {
      ...newProfile('mine', 'My server', { baseUrl: 'https://files.example' }),
      timeoutSeconds: 9,
    };
    const before = {
      profiles: [mine, newProfile(START_PROFILE_ID, 'old', { baseUrl: 'http://127.0.0.1:1' })],
      activeProfileId: 'mine',
    };
    const after = withStartProfile(before, SETTINGS_VERSION, addresses);
    expect(after.activeProfileId).toBe('mine');
    expect(after.profiles[0]).toEqual(mine);
    expect(after.profiles[1]!.server).toMatchObject(addresses);
    expect(after.profiles[1]!.name).toBe('old');
  });
  it('migrate an older shape first, as the extension would', () => {
    const v1 = { server: { ...DEFAULT_SERVER, baseUrl: 'https://old.example' }, defaults: {} };
    const after = withStartProfile(v1, 1, addresses);
    expect(after.profiles.map((p) => p.server.baseUrl)).toEqual(['https://old.example', addresses.baseUrl]);
  });
});
