import { base64urlnopad } from '@scure/base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ECE_LINK_PREFIX,
  eceFragment,
  LinkError,
  type LinkProblem,
  makeEceLink,
  makeLink,
  parseLink,
  parseShareLink,
  randomKey,
  randomSecret,
} from '../../lib/crypto';

function problemOf(
  text: string,
  parse: (text: string) => unknown = parseLink,
): { problem: LinkProblem; message: string } {
  try {
    parse(text);
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
      format: 'teknik',
      url: 'https://u.example.com/aB3dE.png',
      key,
    });
    expect(parseLink(`  http://localhost:3000/f.txt?sub=u#${key}\n`)).toEqual({
      format: 'teknik',
      url: 'http://localhost:3000/f.txt?sub=u',
      key,
    });
  });

  it('round-trips makeLink', () => {
    for (let i = 0; i < 20; i++) {
      const key = randomKey();
      expect(parseLink(makeLink('https://u.example.com/x.bin', key))).toEqual({
        format: 'teknik',
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

describe('authenticated links (ece1)', () => {
  it('carry the secret as 22 base64url characters after “ece1.”', () => {
    const secret = Uint8Array.from({ length: 16 }, (_, i) => i);
    expect(makeEceLink('https://files.example/aB3dE.txt', secret)).toBe(
      'https://files.example/aB3dE.txt#ece1.AAECAwQFBgcICQoLDA0ODw',
    );
    expect(makeEceLink(`https://files.example/a.txt#${randomKey()}`, secret)).toBe(
      `https://files.example/a.txt#${eceFragment(secret)}`,
    );
    expect(() => makeEceLink('https://files.example/a', new Uint8Array(32))).toThrow(RangeError);
    expect(() => makeEceLink('file:///a', secret)).toThrow(LinkError);
  });

  it('are told apart from Teknik links by one parser, and round-trip (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (secret) => {
        const link = parseShareLink(makeEceLink('https://files.example/x.bin?sub=u', secret));
        expect(link).toEqual({ format: 'ece', url: 'https://files.example/x.bin?sub=u', secret });
        expect(parseShareLink(makeLink('https://files.example/x.bin', randomKey())).format).toBe('teknik');
      }),
    );
  });

  it('leave every Teknik link as it was: any fragment without the prefix is read by Teknik’s rules', () => {
    for (const fragment of [
      randomKey(),
      'abcdefghijklmnop',
      'abcdefghijklmnopqrstuvwx',
      'ece1',
      'Ece1xAAECAwQFBgcICQoLDA0ODw',
    ]) {
      const text = `https://u.example.com/a#${fragment}`;
      const outcome = (parse: (text: string) => unknown) => {
        try {
          return parse(text);
        } catch (e) {
          return (e as LinkError).problem;
        }
      };
      expect(outcome(parseShareLink)).toEqual(outcome(parseLink));
    }
  });

  it('explain a secret of the wrong shape', () => {
    const good = base64urlnopad.encode(randomSecret());
    for (const bad of [
      '',
      good.slice(1),
      `${good}A`,
      `${good}==`,
      good.replace(/.$/, 'B'), // the last character carries 2 bits only: the rest must be zero
      'AAECAwQFBgcICQoLDA0OD+',
      'AAECAwQFBgcICQoLDA0OD/',
      `${good}#x`,
      `${good}&v=2`,
    ]) {
      const { problem, message } = problemOf(
        `https://u.example.com/a#${ECE_LINK_PREFIX}${bad}`,
        parseShareLink,
      );
      expect(problem).toBe('secret');
      expect(message).toContain('22 characters');
    }
  });

  it('say when a link is in a newer format', () => {
    const { problem, message } = problemOf(
      'https://u.example.com/a#ece2.AAECAwQFBgcICQoLDA0ODw',
      parseShareLink,
    );
    expect(problem).toBe('unknown-format');
    expect(message).toMatch(/does not know/);
  });

  it('are refused by parseLink (an opener of Teknik links only) rather than decrypted the wrong way', () => {
    const { problem, message } = problemOf(makeEceLink('https://u.example.com/a', randomSecret()));
    expect(problem).toBe('format-not-here');
    expect(message).toMatch(/^[A-Z].*\.$/);
  });
});
