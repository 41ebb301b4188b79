// revocableHosts: the sites the options page offers to take back.
import { describe, expect, it } from 'vitest';
import { revocableHosts } from '../../lib/granted-hosts';

const MANIFEST = ['http://127.0.0.1/*', 'http://localhost/*', 'https://127.0.0.1/*', 'https://localhost/*'];

describe('hosts a person can revoke', () => {
  it('leaves out what the manifest grants, and groups http and https of one host', () => {
    const granted = [...MANIFEST, 'https://u.example/*', 'http://u.example/*', 'https://a.example/*'];
    expect(revocableHosts(granted, MANIFEST)).toEqual([
      { host: 'a.example', patterns: ['https://a.example/*'] },
      { host: 'u.example', patterns: ['https://u.example/*', 'http://u.example/*'] },
    ]);
  });

  it('nothing granted beyond the manifest: nothing to revoke; a pattern with no host is not listed', () => {
    expect(revocableHosts(MANIFEST, MANIFEST)).toEqual([]);
    expect(revocableHosts(['<all_urls>', 'https://*.example/*'], [])).toEqual([
      { host: '*.example', patterns: ['https://*.example/*'] },
    ]);
  });
});
