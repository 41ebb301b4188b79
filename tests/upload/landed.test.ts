// landedElsewhere: whether a fetch that followed redirects left the requested origin.
import { describe, expect, it } from 'vitest';
import { landedElsewhere } from '../../lib/upload/landed';

describe('where a followed fetch landed', () => {
  it('stayed: the same origin, or an answer made in code (no url)', () => {
    expect(landedElsewhere('https://a.example/x.png', { url: 'https://a.example/y/z.png' })).toBeUndefined();
    expect(landedElsewhere('https://a.example/x.png', { url: '' })).toBeUndefined();
  });

  it('left: another host, port or scheme, named by its host', () => {
    expect(landedElsewhere('https://a.example/x', { url: 'https://b.example/x' })).toBe('b.example');
    expect(landedElsewhere('https://a.example/x', { url: 'https://a.example:8443/x' })).toBe(
      'a.example:8443',
    );
    expect(landedElsewhere('https://a.example/x', { url: 'http://a.example/x' })).toBe('a.example');
    expect(landedElsewhere('http://127.0.0.1:8080/x', { url: 'http://localhost:8080/x' })).toBe(
      'localhost:8080',
    );
  });
});
