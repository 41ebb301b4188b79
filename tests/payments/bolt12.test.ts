// BOLT 12 offers (lib/payments/bolt12.ts): the spec's vectors, read from ../shared, in full; then
// what the page and the command line make of an offer: amount (in another currency too), expiry,
// quantity, issuer, paths, and the hand-off to a wallet.
import { hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { formatAmountForPeople } from '../../lib/payments/amounts';
import { decodeBolt12, offerRecords as recordsOf } from '../../lib/payments/bolt12';
import { checkPaymentText, reportOf } from '../../lib/payments/check';
import { PaymentError } from '../../lib/payments/errors';
import { paymentFormOf, paymentLinkOf } from '../../lib/payments/forms';
import { sourceFromText } from '../../lib/payments/page-input';
import { TEST_NODE_KEY } from '../lnurl/invoices';
import {
  BOLT12_ABSENT_MESSAGE,
  FORMAT_VECTORS,
  HAVE_BOLT12_VECTORS,
  OFFER_VECTORS,
} from '../testkit/bolt12-vectors';
import { makeOffer, offerRecords, offerString, tu64 } from './offers';

const NOW = new Date('2026-06-01T00:00:00Z');
const TESTNET = '43497fd7f826957108f4a30fd9cec3aeba79972084e90ead01ea330900000000';
const P2WPKH = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

function refusal(text: string): PaymentError {
  try {
    decodeBolt12(text);
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentError);
    return error as PaymentError;
  }
  throw new Error(`accepted ${text}`);
}

if (!HAVE_BOLT12_VECTORS)
  describe('BOLT 12 spec vectors', () => {
    it.skip(BOLT12_ABSENT_MESSAGE, () => {});
  });

describe.runIf(HAVE_BOLT12_VECTORS)('the BOLT 12 spec’s vectors', () => {
  it('offers-test.json: all 53, valid ones read field by field, invalid ones refused with a sentence', () => {
    expect(OFFER_VECTORS.length).toBe(53);
    let passed = 0;
    for (const v of OFFER_VECTORS) {
      if (v.valid) {
        const checked = checkPaymentText(v.bolt12, NOW);
        expect(checked.reasons, v.description).toEqual([]);
        expect(checked.verdict, v.description).toBe('unsigned');
        const read = recordsOf(v.bolt12).map((r) => ({
          type: Number(r.type),
          length: r.value.length,
          hex: hex.encode(r.value),
        }));
        expect(read, v.description).toEqual(v.fields);
      } else {
        const error = refusal(v.bolt12);
        expect(error.code, v.description).toBe('bad-offer');
        expect(error.message, v.description).toMatch(/^This Lightning offer cannot be used: .+\.$/);
        expect(checkPaymentText(v.bolt12, NOW), v.description).toMatchObject({
          kind: 'bolt12',
          verdict: 'invalid',
          reasons: [error.message],
        });
      }
      passed++;
    }
    expect(passed).toBe(53);
  });

  it('format-string-test.json: all 12 (case, + joins with whitespace, + out of place)', () => {
    expect(FORMAT_VECTORS.length).toBe(12);
    const complete = FORMAT_VECTORS[0]!.string;
    for (const v of FORMAT_VECTORS) {
      expect(paymentFormOf(v.string), v.comment).toBe('bolt12');
      if (v.valid) expect(decodeBolt12(v.string).offer, v.comment).toBe(complete);
      else expect(refusal(v.string).code, v.comment).toBe('bad-offer');
    }
  });

  it('the refusals say which rule: a few of them by name', () => {
    const by = (description: string) => OFFER_VECTORS.find((v) => v.description === description)!.bolt12;
    expect(refusal(by('Contains unknown feature 122')).message).toMatch(/requires feature 122/);
    expect(refusal(by('Missing offer_description, but has offer_amount')).detail).toBe('no-description');
    expect(refusal(by('Missing offer_amount with offer_currency')).detail).toBe('currency-no-amount');
    expect(refusal(by('Invalid: zero offer_amount')).detail).toBe('amount-zero');
    expect(refusal(by('Missing offer_issuer_id and no offer_path')).detail).toBe('no-issuer');
    expect(refusal(by('Second offer_path is empty')).detail).toBe('no-hops');
    expect(refusal(by('offer_chains with zero entries')).detail).toBe('no-chains');
    expect(refusal(by('Bech32 padding exceeds 4-bit limit')).detail).toBe('padding');
    expect(refusal(by('Contains type >= 80')).detail).toBe('range');
    expect(refusal(by('Malformed: invalid offer_issuer_id')).detail).toBe('point');
    expect(refusal(by('Malformed: fields out of order')).detail).toBe('order');
  });
});

describe('an offer on the payment page and the command line', () => {
  it('an amount in millisatoshis, the description, issuer, quantity, expiry and key; handed to a wallet', () => {
    const offer = makeOffer({
      amount: 21_000_000n,
      description: 'A pot of tea <b>',
      absoluteExpiry: 1_900_000_000n,
      issuer: 'tea.example Tea & Co',
      quantityMax: 5n,
    });
    const checked = checkPaymentText(`lightning:${offer.toUpperCase()}`, NOW);
    expect(checked).toMatchObject({
      kind: 'bolt12',
      verdict: 'unsigned',
      reasons: [],
      warnings: [],
      network: 'main',
      amount: { value: 21_000_000n, unit: 'msat' },
      payee: TEST_NODE_KEY,
      description: 'A pot of tea <b>',
      expiresAt: 1_900_000_000n,
      expired: false,
      handOff: { uri: `lightning:${offer}`, offer },
      bolt12: { issuer: 'tea.example Tea & Co', quantityMax: 5n, issuerId: TEST_NODE_KEY },
    });
    expect(reportOf(checked)).toMatchObject({
      kind: 'bolt12',
      verdict: 'unsigned',
      reason: null,
      network: 'main',
      amount: { value: '21000000', unit: 'msat' },
      payee: TEST_NODE_KEY,
      wallet: `lightning:${offer}`,
    });
  });

  it('an amount in another currency keeps its ISO 4217 code and exponent', () => {
    const usd = checkPaymentText(makeOffer({ currency: 'USD', amount: 10_000n, description: 'Tea' }), NOW);
    expect(usd.amount).toEqual({ value: 10_000n, unit: 'USD' });
    expect(formatAmountForPeople(usd.amount!)).toBe('100.00 USD');
    expect(reportOf(usd).amount).toEqual({ value: '10000', unit: 'USD', decimals: 2 });
    const yen = checkPaymentText(makeOffer({ currency: 'JPY', amount: 1_500n, description: 'Tea' }), NOW);
    expect(formatAmountForPeople(yen.amount!)).toBe('1,500 JPY');
    const dinar = checkPaymentText(makeOffer({ currency: 'BHD', amount: 1_500n, description: 'Tea' }), NOW);
    expect(formatAmountForPeople(dinar.amount!)).toBe('1.500 BHD');
    // Three letters, but no currency ISO 4217 lists: shown as written, with a warning.
    const unknown = checkPaymentText(makeOffer({ currency: 'QQQ', amount: 7n, description: 'Tea' }), NOW);
    expect(unknown.verdict).toBe('unsigned');
    expect(unknown.warnings.join(' ')).toMatch(/does not know the currency “QQQ”/);
    expect(reportOf(unknown).amount).toEqual({ value: '7', unit: 'QQQ' });
    // Not a code at all: the writer broke a MUST, and the amount cannot be named.
    expect(refusal(makeOffer({ currency: 'usd', amount: 1n, description: 'Tea' })).detail).toBe('currency');
  });

  it('an expired offer is said so and not handed to a wallet', () => {
    const checked = checkPaymentText(
      makeOffer({ description: 'Old tea', absoluteExpiry: 1_700_000_000n }),
      NOW,
    );
    expect(checked.expired).toBe(true);
    expect(checked.verdict).toBe('unsigned');
    expect(checked.warnings.join(' ')).toMatch(/expired on .*do not pay it/);
    expect(checked.handOff).toBeUndefined();
  });

  it('a test network offer is for that network, with the warning; a chain Hushdrop does not know is refused', () => {
    const testnet = checkPaymentText(makeOffer({ chains: [TESTNET], description: 'Tea' }), NOW);
    expect(testnet.network).toBe('test');
    expect(testnet.warnings.join(' ')).toMatch(/test network/);
    expect(refusal(makeOffer({ chains: ['11'.repeat(32)] })).detail).toBe('chain');
  });

  it('the reader’s other rules: unknown even fields refused, odd ones kept aside, no quantity 0 confusion', () => {
    const odd = decodeBolt12(offerString(offerRecords({ extra: [[33n, new Uint8Array([1])]] })));
    expect(odd.unknownFields).toEqual(['33']);
    expect(refusal(offerString(offerRecords({ extra: [[34n, new Uint8Array([1])]] }))).detail).toBe(
      'unknown-even',
    );
    expect(refusal(offerString(offerRecords({ extra: [[0n, new Uint8Array([1])]] }))).detail).toBe('range');
    // A number with a leading zero byte is not in its shortest form.
    expect(
      refusal(offerString([[8n, new Uint8Array([0, 1])], ...offerRecords({ description: 'x' })])).detail,
    ).toBe('tu64');
    expect(decodeBolt12(makeOffer({ quantityMax: 0n })).quantityMax).toBe(0n);
    expect(tu64(0n)).toEqual(new Uint8Array());
  });

  it('is named by the classifier as text and as a link, and read offline by the page', () => {
    const offer = makeOffer({ description: 'Tea' });
    expect(paymentFormOf(offer)).toBe('bolt12');
    expect(paymentFormOf(`LIGHTNING:${offer.toUpperCase()}`)).toBe('bolt12');
    expect(paymentLinkOf({ href: `lightning:${offer}` })).toEqual({
      form: 'bolt12',
      text: `lightning:${offer}`,
    });
    expect(sourceFromText(offer)).toEqual({ kind: 'offline', text: offer });
  });
});

describe('offers in bitcoin: URIs (BIP 321 lno=)', () => {
  it('are read: their figures join the URI’s, which stays unsigned', () => {
    const offer = makeOffer({ amount: 150_000_000n, description: 'Tea' });
    const checked = checkPaymentText(`bitcoin:${P2WPKH}?amount=0.0015&lno=${offer}`, NOW);
    expect(checked.verdict).toBe('unsigned');
    expect(checked.bip21?.offers.map((o) => o.offer)).toEqual([offer]);
    expect(checked.warnings).toEqual([]);
    const alone = checkPaymentText(`bitcoin:?lno=${offer}`, NOW);
    expect(alone).toMatchObject({
      verdict: 'unsigned',
      payee: TEST_NODE_KEY,
      amount: { value: 150_000_000n },
    });
    expect(alone.handOff?.uri).toBe(`bitcoin:?lno=${offer}`);
  });

  it('a broken offer makes the URI invalid, saying why; an offer for another network than the address too', () => {
    const broken = checkPaymentText('bitcoin:?lno=lno1bogusoffer', NOW);
    expect(broken.verdict).toBe('invalid');
    expect(broken.reasons[0]).toMatch(/^This Lightning offer cannot be used: /);
    const testnet = makeOffer({ chains: [TESTNET], description: 'Tea' });
    const mixed = checkPaymentText(`bitcoin:${P2WPKH}?lno=${testnet}`, NOW);
    expect(mixed.verdict).toBe('invalid');
    expect(mixed.reasons.join(' ')).toMatch(/test network/);
  });
});
