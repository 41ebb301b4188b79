import { describe, expect, it } from 'vitest';
import { LinkError, type LinkProblem, makeLink, parseLink, randomKey } from '../../lib/crypto';

function problemOf(text: string): { problem: LinkProblem; message: string } {
  try {
    parseLink(text);
  } catch (error) {
    expect(error).toBeInstanceOf(LinkError);
    const { problem, message } = error as LinkError;
    return { problem, message };
  }
  throw new Error(`parseLink accepted ${text}`);
}

describe('makeLink', () => {
  it('appends the key as the fragment', () => {
    const key = randomKey();
    expect(makeLink('https://u.example.com/aB3dE.png', key)).toBe(`https://u.example.com/aB3dE.png#${key}`);
    expect(makeLink('http://127.0.0.1:8080/x.txt?sub=u', key)).toBe(
      `http://127.0.0.1:8080/x.txt?sub=u#${key}`,
    );
  });

  it('replaces a fragment already on the address', () => {
    const key = randomKey();
    expect(makeLink(`https://u.example.com/a.png#${randomKey()}`, key)).toBe(
      `https://u.example.com/a.png#${key}`,
    );
  });

  it('refuses a bad key or address', () => {
    expect(() => makeLink('https://u.example.com/a', 'short')).toThrow(LinkError);
    expect(() => makeLink('ftp://u.example.com/a', randomKey())).toThrow(LinkError);
  });
});

describe('parseLink', () => {
  it('splits a link into address and key', () => {
    const key = randomKey();
    expect(parseLink(`https://u.example.com/aB3dE.png#${key}`)).toEqual({
      url: 'https://u.example.com/aB3dE.png',
      key,
    });
    expect(parseLink(`  http://localhost:3000/f.txt?sub=u#${key}\n`)).toEqual({
      url: 'http://localhost:3000/f.txt?sub=u',
      key,
    });
  });

  it('round-trips makeLink', () => {
    for (let i = 0; i < 20; i++) {
      const key = randomKey();
      expect(parseLink(makeLink('https://u.example.com/x.bin', key))).toEqual({
        url: 'https://u.example.com/x.bin',
        key,
      });
    }
  });

  it('reads a server-made link (url#serverKey) and shorter keys of other server configs', () => {
    expect(parseLink('https://u.teknik.io/wlLmp.7z#abcdefghijklmnopqrstuvwxyzABCDEF').key).toBe(
      'abcdefghijklmnopqrstuvwxyzABCDEF',
    );
    expect(parseLink('https://u.teknik.io/wlLmp.7z#abcdefghijklmnop').key).toBe('abcdefghijklmnop');
  });

  it('explains a link with no key', () => {
    const { problem, message } = problemOf('https://u.example.com/aB3dE.png');
    expect(problem).toBe('no-key');
    expect(message).toMatch(/no key/);
  });

  it('explains an empty key', () => {
    expect(problemOf('https://u.example.com/aB3dE.png#').problem).toBe('empty-key');
  });

  it('explains a key of the wrong length, saying how long it is', () => {
    const { problem, message } = problemOf(`https://u.example.com/a#${randomKey().slice(1)}`);
    expect(problem).toBe('key-length');
    expect(message).toContain('31 characters');
    expect(problemOf(`https://u.example.com/a#${randomKey()}x`).problem).toBe('key-length');
  });

  it('explains characters outside the alphabet, including a second fragment', () => {
    for (const bad of [
      'abcdefghijklmnopqrstuvwxyzABCDE-',
      'abcdefghijklmnopqrstuvwxyzABCDé',
      'a%20',
      `${randomKey()}#${randomKey()}`,
    ]) {
      expect(problemOf(`https://u.example.com/a#${bad}`).problem).toBe('key-characters');
    }
  });

  it('explains an address that is not http(s)', () => {
    for (const bad of [
      `ftp://example.com/a#${randomKey()}`,
      `javascript:alert(1)#${randomKey()}`,
      `#${randomKey()}`,
      'hello',
      '',
    ]) {
      const { problem, message } = problemOf(bad);
      expect(problem).toBe('bad-url');
      expect(message).toMatch(/http:\/\/ or https:\/\//);
    }
  });

  it('writes every message as a sentence', () => {
    for (const text of ['x', 'https://a.b/c', 'https://a.b/c#', 'https://a.b/c#ab', 'https://a.b/c#a-b']) {
      expect(problemOf(text).message).toMatch(/^[A-Z].*\.$/);
    }
  });
});
