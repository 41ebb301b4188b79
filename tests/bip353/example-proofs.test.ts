// BIP 353's own example proofs (../shared/fixtures/bip353/proofs.json, read in place; see its
// MANIFEST.md) through `npm run payment -- --dnssec-proof <hex> --now <time>`: the three valid ones
// verified at their date with the address (and offer) their TXT record pays, refused a year later
// as expired; the two invalid ones refused, each for the rule it breaks. Checked from the real root
// trust anchors of the build (Debian's dns-root-data).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { paymentCheck } from '../../scripts/payment';

interface ProofCase {
  valid: boolean;
  name: string;
  address: string;
  offer: string | null;
  date: string | null;
  proof: string;
}

const FIXTURES = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../shared/fixtures/bip353/proofs.json',
);
const CASES: ProofCase[] = JSON.parse(readFileSync(FIXTURES, 'utf8'));

/** Noon UTC of the day the BIP names ("August 7, 2025"): every signature of a valid proof is in date then. */
function noonOf(day: string, yearsLater = 0): string {
  const date = new Date(`${day} 12:00:00 UTC`);
  date.setUTCFullYear(date.getUTCFullYear() + yearsLater);
  return date.toISOString();
}

async function check(proof: string, now: string) {
  const { code, output } = await paymentCheck(['--dnssec-proof', proof, '--now', now]);
  return { code, json: JSON.parse(output) };
}

const valid = CASES.filter((c) => c.valid);
const invalid = CASES.filter((c) => !c.valid);
// The five the MANIFEST lists, in its order: the tests below name them by position.
if (
  JSON.stringify(CASES.map((c) => [c.valid, c.name.split('@')[0]])) !==
  JSON.stringify([
    [true, 'simple'],
    [true, 'override.x_domain_cname_wild'],
    [true, 'a.x_domain_cname_wild'],
    [false, 'invalid'],
    [false, 'a.x_domain_cname_wild'],
  ])
)
  throw new Error(`${FIXTURES} does not hold the five proofs its MANIFEST.md lists`);

describe('BIP 353 example proofs', () => {
  it.each(valid)('$name: verified at its date, paying its address', async (c) => {
    const { code, json } = await check(c.proof, noonOf(c.date!));
    expect(json.reason).toBeNull();
    expect(code).toBe(0);
    expect(Object.keys(json).slice(0, 5)).toEqual(['kind', 'verdict', 'reason', 'name', 'payment']);
    expect(json).toMatchObject({ kind: 'bip353', verdict: 'verified', name: `₿${c.name}` });
    expect(json.payment).toMatchObject({ kind: 'bip21', network: 'main', payee: c.address.toLowerCase() });
    // The address part, or BIP 321's bc= form (`bitcoin:?bc=…`), as the record writes it.
    const { address, segwit } = json.payment.details;
    expect([address?.address, ...segwit.map((a: { address: string }) => a.address)]).toContain(
      c.address.toLowerCase(),
    );
    // Its BOLT 12 offer (lno=), read as any offer in a bitcoin: URI is.
    if (c.offer)
      expect(json.payment.details.offers.map((o: { offer: string }) => o.offer)).toContain(c.offer);
    expect(json.zones[0]).toBe('.');
    expect(json.zones).toContain('bitcoin.ninja');
  });

  it.each(valid)('$name: refused a year after its date (its signatures expired)', async (c) => {
    const { code, json } = await check(c.proof, noonOf(c.date!, 1));
    expect(code).toBe(1);
    expect(json).toMatchObject({ kind: 'bip353', verdict: 'invalid', name: `₿${c.name}`, payment: null });
    expect(json.reason).toMatch(/DNSSEC signature on the \w+ records of .* expired on Aug \d+, 2025/);
  });

  it('invalid@: refused for its two TXT records starting with "bitcoin:"', async () => {
    const c = invalid[0]!;
    // Its own signatures are all in date from 10:34 UTC on August 7 (the valid simple@'s day).
    const { code, json } = await check(c.proof, noonOf('August 7, 2025'));
    expect(code).toBe(1);
    expect(json).toMatchObject({ kind: 'bip353', verdict: 'invalid', payment: null });
    expect(json.reason).toBe(
      `₿${c.name} has more than one TXT record starting with “bitcoin:”; BIP 353 says to use none of them.`,
    );
    // And on the MANIFEST's day for the invalid ones, too.
    expect((await check(c.proof, noonOf('August 6, 2025'))).json.verdict).toBe('invalid');
  });

  it('a.x_domain_cname_wild@ without its NSEC3 record: the wildcard CNAME is refused', async () => {
    const c = invalid[1]!;
    const { code, json } = await check(c.proof, noonOf('August 6, 2025'));
    expect(code).toBe(1);
    expect(json).toMatchObject({ kind: 'bip353', verdict: 'invalid', payment: null });
    expect(json.reason).toMatch(
      /comes from a wildcard, and the NSEC or NSEC3 record proving that .* is missing/,
    );
  });

  it('a proof that is not hex, or not a proof, is a usage error (exit 2)', async () => {
    expect(await check('zz', noonOf('August 7, 2025'))).toEqual({
      code: 2,
      json: { error: 'The DNSSEC proof should be hexadecimal digits.' },
    });
    const cut = valid[0]!.proof.slice(0, 200);
    expect((await check(cut, noonOf('August 7, 2025'))).code).toBe(2);
  });
});
