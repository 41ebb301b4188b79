// BOLT 11 invoices (lib/payments/bolt11.ts): the spec's examples, invoices made here with chosen
// fields, and property tests that no single-character change gets through.
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, hex } from '@scure/base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bolt11SignedData, decodeBolt11 } from '../../lib/payments/bolt11';
import { PaymentError } from '../../lib/payments/errors';
import { looksLikeBolt11 } from '../../lib/payments/forms';
import { makeInvoice, TEST_NODE_KEY } from '../lnurl/invoices';
import { INVALID_INVOICES, VALID_INVOICES } from './bolt11-vectors';

/** The refusal's rule, or "accepted". */
function refusal(text: string): string {
  try {
    decodeBolt11(text);
    return 'accepted';
  } catch (error) {
    if (!(error instanceof PaymentError) || error.code !== 'bad-invoice') throw error;
    expect(error.message).toMatch(/^This Lightning invoice cannot be used: .+\.$/);
    return error.detail ?? 'no detail';
  }
}

describe('the BOLT 11 examples', () => {
  it.each(VALID_INVOICES.map((v) => [v.what, v] as const))('decodes: %s', (_, v) => {
    const d = decodeBolt11(v.invoice);
    expect(d.network).toBe(v.network);
    expect(d.amountMsat === undefined ? null : String(d.amountMsat)).toBe(v.amountMsat);
    expect(d.timestamp).toBe(BigInt(v.timestamp ?? 1496314658));
    expect(d.paymentHash).toBe(
      v.paymentHash ?? '0001020304050607080900010203040506070809000102030405060708090102',
    );
    expect(d.paymentSecret).toBe('11'.repeat(32));
    expect(d.description).toBe(v.description);
    expect(d.descriptionHash).toBe(v.descriptionHash);
    expect(d.metadata).toBe(v.metadata);
    expect(d.expirySeconds).toBe(BigInt(v.expiry ?? 3600));
    expect(d.expiresAt).toBe(d.timestamp + d.expirySeconds);
    expect(d.minFinalCltvExpiry).toBe(BigInt(v.minFinalCltv ?? 18));
    expect(d.features).toEqual(v.features ?? [8, 14]);
    expect(d.unknownOptionalFeatures).toEqual(v.unknownOptional ?? []);
    expect(d.fallbacks.map((f) => f.address)).toEqual(v.fallbacks ?? []);
    expect(
      d.routes.map((route) =>
        route.map((h) => [
          h.pubkey,
          h.shortChannelId,
          h.feeBaseMsat,
          h.feeProportionalMillionths,
          h.cltvExpiryDelta,
        ]),
      ),
    ).toEqual(v.routes ?? []);
    expect(d.nodeKeyGiven).toBe(false);
    if (v.payee) expect(d.payeeNodeKey).toBe(v.payee);
    if (v.signature) expect(d.signature).toBe(v.signature);
    if (v.recoveryId !== undefined) expect(d.recoveryId).toBe(v.recoveryId);
    if (v.signedHash) expect(hex.encode(sha256(bolt11SignedData(v.invoice)))).toBe(v.signedHash);
  });

  it('a high-S signature: the key recovered from it checks the signature', () => {
    const v = VALID_INVOICES.find((x) => x.what.startsWith('a high-S'))!;
    const d = decodeBolt11(v.invoice);
    expect(secp256k1.Signature.fromHex(d.signature, 'compact').hasHighS()).toBe(true);
    const hash = sha256(bolt11SignedData(v.invoice));
    expect(
      secp256k1.verify(hex.decode(d.signature), hash, hex.decode(d.payeeNodeKey), {
        prehash: false,
        lowS: false,
      }),
    ).toBe(true);
  });

  it.each(INVALID_INVOICES.map((v) => [v.what, v] as const))('refuses: %s', (_, v) => {
    expect(refusal(v.invoice)).toBe(v.refusedFor);
  });

  it('reads lightning: links and pasted text with white space around it', () => {
    const v = VALID_INVOICES[1]!;
    expect(decodeBolt11(`  LIGHTNING:${v.invoice}\n`).amountMsat).toBe(250_000_000n);
    expect(looksLikeBolt11(`lightning:${v.invoice}`)).toBe(true);
    expect(looksLikeBolt11(v.invoice.toUpperCase())).toBe(true);
    expect(looksLikeBolt11('bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBe(false);
  });
});

describe('invoices made here', () => {
  const base = { timestamp: 1_700_000_000, description: 'tea', amountMsat: 21_000n };

  it('naming their node: verified against n, amounts exact to the millisatoshi', () => {
    for (const amountMsat of [1n, 10n, 1_000n, 123_456_789n, 100_000_000_000n, 2_100_000_000_000_000_000n]) {
      const d = decodeBolt11(makeInvoice({ ...base, amountMsat, nameNode: true }));
      expect(d.amountMsat).toBe(amountMsat);
      expect(d.nodeKeyGiven).toBe(true);
      expect(d.payeeNodeKey).toBe(TEST_NODE_KEY);
    }
    expect(decodeBolt11(makeInvoice({ ...base, network: 'signet' })).network).toBe('signet');
    expect(decodeBolt11(makeInvoice({ ...base, network: 'regtest' })).network).toBe('regtest');
  });

  it('signed by another node than the one named: refused', () => {
    const other = hex.decode('22'.repeat(32));
    const namedOther = makeInvoice({
      ...base,
      extra: [[19, bech32.toWords(secp256k1.getPublicKey(other, true))]],
    });
    expect(refusal(namedOther)).toBe('signature-mismatch');
  });

  it('refuses what the rules forbid, each for its own reason', () => {
    const cases: [Parameters<typeof makeInvoice>[0], string][] = [
      [{ ...base, amountMsat: 2_100_000_000_000_000_001n }, 'amount-too-large'],
      [{ ...base, description: undefined }, 'no-description'],
      [{ ...base, descriptionHash: '00'.repeat(32) }, 'two-descriptions'],
      [
        { ...base, extra: [[13, bech32.toWords(Uint8Array.of(0xff, 0xfe))]], description: undefined },
        'description-utf8',
      ],
      [{ ...base, extra: [[6, [0, 1]]] }, 'field-minimal'],
      [{ ...base, expiry: 60, extra: [[6, [1]]] }, 'field-twice'],
      [{ ...base, features: [8, 14, 16, 22] }, 'feature-required'],
      [{ ...base, features: [8, 17] }, 'feature-dependency'],
      [{ ...base, extra: [[9, [17, ...bech32.toWords(new Uint8Array(10))]]] }, 'fallback'],
      [{ ...base, extra: [[3, []]] }, 'route'],
    ];
    for (const [fields, rule] of cases) expect(refusal(makeInvoice(fields)), rule).toBe(rule);
    expect(refusal('lnbc0n1qqqqqqq')).toBe('checksum');
    expect(refusal(`lnxy1${'q'.repeat(200)}`)).toBe('checksum');
    expect(refusal(`lnbc${'1'.repeat(10)}`)).toBe('too-short');
    expect(refusal('lnbc1 abc')).toBe('characters');
    expect(refusal(`lnbc1${'q'.repeat(8000)}`)).toBe('too-long');
  });

  it('an unknown prefix or a zero amount is refused even with a good checksum', () => {
    const words = bech32.decode(makeInvoice(base), false).words;
    expect(refusal(bech32.encode('lnxy', [...words], false))).toBe('prefix');
    expect(refusal(bech32.encode('lnbc0u', [...words], false))).toBe('amount-zero');
    expect(refusal(bech32.encode('lnbc12u3', [...words], false))).toBe('amount');
  });
});

describe('changed invoices', () => {
  const invoices = VALID_INVOICES.map((v) => v.invoice.toLowerCase());
  const named = makeInvoice({
    timestamp: 1_700_000_000,
    description: 'tea',
    amountMsat: 21_000n,
    nameNode: true,
  });
  const all = [...invoices, named];
  const decodedOriginals = new Map(all.map((invoice) => [invoice, decodeBolt11(invoice)]));
  const anyChar = fc.oneof(
    fc.constantFrom(...'qpzry9x8gf2tvdw0s3jn54khce6mua7l1QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L'),
    fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
  );

  it('any single character replaced: refused, and only with our typed error', () => {
    fc.assert(
      fc.property(fc.constantFrom(...all), fc.nat(), anyChar, (invoice, at, char) => {
        const i = at % invoice.length;
        fc.pre(invoice[i] !== char);
        const changed = invoice.slice(0, i) + char + invoice.slice(i + 1);
        expect(refusal(changed)).not.toBe('accepted');
      }),
      { numRuns: 3000 },
    );
  });

  it('any single character added or removed: refused', () => {
    fc.assert(
      fc.property(fc.constantFrom(...all), fc.nat(), anyChar, fc.boolean(), (invoice, at, char, add) => {
        const i = at % invoice.length;
        const changed = add
          ? invoice.slice(0, i) + char + invoice.slice(i)
          : invoice.slice(0, i) + invoice.slice(i + 1);
        // White space around pasted text is not part of it.
        fc.pre(changed.trim() !== invoice);
        expect(refusal(changed)).not.toBe('accepted');
      }),
      { numRuns: 3000 },
    );
  });

  it('data changed and the checksum made anew: never the original node', () => {
    // Who changes an invoice can fix its checksum. Naming the node (n) then fails the signature;
    // without n, the key recovered is another node's, which the page shows.
    fc.assert(
      fc.property(
        fc.constantFrom(...all),
        fc.nat(),
        fc.integer({ min: 1, max: 31 }),
        (invoice, at, delta) => {
          const original = decodedOriginals.get(invoice)!;
          const { prefix, words } = bech32.decode(invoice as `${string}1${string}`, false);
          const i = at % words.length;
          const changed = [...words];
          changed[i] = (changed[i]! + delta) % 32;
          let decoded: ReturnType<typeof decodeBolt11> | undefined;
          try {
            decoded = decodeBolt11(bech32.encode(prefix, changed, false));
          } catch (error) {
            expect(error).toBeInstanceOf(PaymentError);
            return;
          }
          if (decoded.payeeNodeKey === original.payeeNodeKey) {
            // Only the recovery number, unused once the node is named, may change unseen.
            expect(original.nodeKeyGiven).toBe(true);
            const same = { invoice: '', recoveryId: 0 };
            expect({ ...decoded, ...same }).toEqual({ ...original, ...same });
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('random data with a valid checksum: decoded or refused, never anything else thrown', () => {
    const words = fc.array(fc.integer({ min: 0, max: 31 }), { minLength: 0, maxLength: 700 });
    const prefix = fc.constantFrom('lnbc', 'lntb', 'lntbs', 'lnbcrt', 'lnbc2500u', 'lnbc1p', 'lnbc10n', 'ln');
    fc.assert(
      fc.property(prefix, words, (hrp, data) => {
        try {
          decodeBolt11(bech32.encode(hrp, data, false));
        } catch (error) {
          expect(error).toBeInstanceOf(PaymentError);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
