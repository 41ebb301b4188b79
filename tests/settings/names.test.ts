// Settings version 6: BIP 353 names (lib/settings/names.ts). The migration gives a profile from
// version 5 the default resolver and no extra anchors; stored values that break the rules are
// made usable; and the two editors of the one settings item (servers, names) do not undo each
// other's saves.
import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  defaultSettings,
  MIGRATIONS,
  namesOf,
  normalizeSettings,
  SETTINGS_VERSION,
} from '../../lib/settings';
import { DEFAULT_RESOLVER, normalizeNames, resolverProblem } from '../../lib/settings/names';

const ANCHOR = '. IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D';

describe('settings version 6: BIP 353 names', () => {
  it('gives settings from version 5 the default resolver and no anchors of their own', () => {
    const v5 = defaultSettings();
    const v6 = MIGRATIONS[6]!(structuredClone(v5));
    expect(v6.names).toEqual({ resolver: 'https://cloudflare-dns.com/dns-query', trustAnchors: [] });
    expect(v6.profiles).toEqual(v5.profiles);
    expect(SETTINGS_VERSION).toBe(6);
  });

  it('takes https resolvers, and plain http only on this computer', () => {
    expect(resolverProblem('https://dns.example/dns-query')).toBeUndefined();
    expect(resolverProblem('http://127.0.0.1:8053/dns-query')).toBeUndefined();
    expect(resolverProblem('http://dns.example/dns-query')).toMatch(/should start with https:\/\//);
    expect(resolverProblem('https://user:pw@dns.example/')).toMatch(/should be a web address/);
    expect(resolverProblem('dns.example')).toMatch(/should be a web address/);
  });

  it('makes stored values usable: a bad resolver is the default, bad or repeated anchors are left out', () => {
    expect(normalizeNames({ resolver: 'ftp://x', trustAnchors: [ANCHOR, 'nonsense', ANCHOR, 7] })).toEqual({
      resolver: DEFAULT_RESOLVER,
      trustAnchors: [ANCHOR],
    });
    expect(namesOf(normalizeSettings({ names: { resolver: 'https://dns.example/q' } }))).toEqual({
      resolver: 'https://dns.example/q',
      trustAnchors: [],
    });
  });

  it('runs through the real storage item from version 5, and each editor keeps the other’s part', async () => {
    fakeBrowser.reset();
    await fakeBrowser.storage.local.set({ settings: defaultSettings(), settings$: { v: 5 } });
    vi.resetModules();
    const storage = await import('../../platform/storage/settings');
    const names = await import('../../platform/payments/names');
    // A page loaded the settings before the names were changed, then saves its servers.
    const loadedBefore = await storage.loadSettings();
    expect(loadedBefore.names?.resolver).toBe(DEFAULT_RESOLVER);
    await names.saveResolver('https://dns.example/dns-query');
    expect(await names.addTrustAnchors(`${ANCHOR}\n; a comment\n`)).toBe(1);
    await storage.saveSettings({ ...loadedBefore, activeProfileId: loadedBefore.profiles[0]!.id });
    expect(await names.loadNames()).toEqual({
      resolver: 'https://dns.example/dns-query',
      trustAnchors: [ANCHOR],
    });
    // (The modules were loaded afresh, without the English messages: the error, not its sentence.)
    await expect(names.saveResolver('http://dns.example/')).rejects.toBeInstanceOf(names.NamesInputError);
    await expect(names.addTrustAnchors('. IN DS 1 8 2 zz')).rejects.toBeInstanceOf(names.NamesInputError);
    expect((await names.loadNames()).resolver).toBe('https://dns.example/dns-query');
    await names.removeTrustAnchor(ANCHOR);
    expect((await names.loadNames()).trustAnchors).toEqual([]);
  });
});
