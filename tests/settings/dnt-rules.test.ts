import { describe, expect, it } from 'vitest';
import { newProfile, type Profile, type Settings } from '../../lib/settings';
import { DNT_RULE_IDS, dntOrigins, dntRules, isDntRuleId } from '../../lib/settings/dnt-rules';

function profile(id: string, server: Partial<Profile['server']>, doNotTrack: boolean): Profile {
  const p = newProfile(id, id, server);
  return { ...p, defaults: { ...p.defaults, doNotTrack } };
}
const settings = (...profiles: Profile[]): Settings => ({ profiles, activeProfileId: profiles[0]!.id });

const teknik = {
  baseUrl: 'https://teknik.example',
  apiUrl: 'https://api.teknik.example/',
  uploadUrl: 'https://u.teknik.example/files',
};

describe('DNT rules from the settings', () => {
  it('covers every address of a profile with do-not-track on, as exact origins', () => {
    expect(dntOrigins(settings(profile('a', teknik, true)))).toEqual([
      'https://api.teknik.example',
      'https://teknik.example',
      'https://u.teknik.example',
    ]);
  });

  it('leaves out profiles with do-not-track off, keeps ports, and drops unusable addresses', () => {
    const s = settings(
      profile(
        'off',
        {
          baseUrl: 'https://tracked.example',
          apiUrl: 'https://tracked.example',
          uploadUrl: 'https://tracked.example',
        },
        false,
      ),
      profile(
        'local',
        { baseUrl: 'http://127.0.0.1:8787', apiUrl: 'http://127.0.0.1:8787/api', uploadUrl: 'ftp://x' },
        true,
      ),
      profile(
        'bad',
        { baseUrl: 'https://', apiUrl: 'not a url', uploadUrl: 'HTTPS://Files.Example:443/u' },
        true,
      ),
    );
    expect(dntOrigins(s)).toEqual(['http://127.0.0.1:8787', 'https://files.example']);
  });

  it('counts profiles that are not the active one, and sends it when profiles on one origin disagree', () => {
    const s = settings(profile('active', teknik, false), profile('other', teknik, true));
    expect(dntOrigins(s)).toHaveLength(3);
  });

  it('makes one header rule per origin, for the extension’s own fetch/XHR only', () => {
    const rules = dntRules(
      settings(profile('a', { ...teknik, apiUrl: teknik.baseUrl, uploadUrl: teknik.baseUrl }, true)),
      'abcdefghijklmnop',
    );
    expect(rules).toEqual([
      {
        id: DNT_RULE_IDS.first,
        priority: 1,
        condition: {
          urlFilter: '|https://teknik.example/',
          initiatorDomains: ['abcdefghijklmnop'],
          resourceTypes: ['xmlhttprequest'],
        },
        action: { type: 'modifyHeaders', requestHeaders: [{ header: 'DNT', operation: 'set', value: '1' }] },
      },
    ]);
  });

  it('gives ids inside its own range only, and no rule when nobody asks', () => {
    const many = Array.from({ length: 1500 }, (_, i) =>
      profile(
        `p${i}`,
        {
          baseUrl: `https://s${i}.example`,
          apiUrl: `https://s${i}.example`,
          uploadUrl: `https://s${i}.example`,
        },
        true,
      ),
    );
    const rules = dntRules(settings(...many), 'ext');
    expect(rules).toHaveLength(DNT_RULE_IDS.count);
    expect(rules.every((r) => isDntRuleId(r.id))).toBe(true);
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    expect(isDntRuleId(DNT_RULE_IDS.first - 1)).toBe(false);
    expect(dntRules(settings(profile('a', teknik, false)), 'ext')).toEqual([]);
  });
});
