// The README's Node requirement is what the installed packages need: every package in the lockfile
// accepts the README's minimum, so `npm ci` on that Node prints no EBADENGINE warning (issue 20).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Version = [number, number, number];

/** "20", "v20.19", "0.6.x", "10.*" → [major, minor, patch], missing or wildcard parts as 0. */
const parse = (text: string): Version => {
  const [major = 0, minor = 0, patch = 0] = text
    .replace(/^v/, '')
    .split('.')
    .map((p) => (/^\d+$/.test(p) ? Number(p) : 0));
  return [major, minor, patch];
};
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether `version` meets one part of an engines range: *, >=X, ^X.Y.Z or X.* (all the lockfile holds). */
function meets(version: Version, part: string): boolean {
  const p = part.replace(/\s+/g, '');
  if (p === '*') return true;
  if (p.startsWith('>=')) return compare(version, parse(p.slice(2))) >= 0;
  if (p.startsWith('^'))
    return version[0] === parse(p.slice(1))[0] && compare(version, parse(p.slice(1))) >= 0;
  if (/^\d+\.\*$/.test(p)) return version[0] === parse(p)[0];
  throw new Error(`An engines range this test does not read: ${part}`);
}

const satisfies = (version: Version, range: string) => range.split('||').some((part) => meets(version, part));

describe('the README’s Node requirement', () => {
  const readme = readFileSync('README.md', 'utf8');
  const stated = /on a machine with Node (\d+(?:\.\d+)*)\+/.exec(readme)?.[1];

  it('is stated, and every package in the lockfile accepts it', () => {
    expect(stated).toBeDefined();
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([, p]) => p.engines?.node && !satisfies(parse(stated!), p.engines.node))
      .map(([name, p]) => `${name}: ${p.engines!.node}`);
    expect(refusing).toEqual([]);
  });

  it('is the same wherever the README names it', () => {
    const named = [...readme.matchAll(/Node (\d+(?:\.\d+)*)\+/g)].map((m) => m[1]);
    expect(new Set(named)).toEqual(new Set([stated]));
  });
});
