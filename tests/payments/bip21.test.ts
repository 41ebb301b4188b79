// bitcoin: URIs (BIP 21 / BIP 321): the BIPs' examples, amounts to the satoshi, addresses and
// networks checked, embedded Lightning invoices compared (lib/payments/uri.ts, bip21.ts).
import { describe, expect, it } from 'vitest';
import { segwitAddress } from '../../lib/payments/addresses';
import { checkBitcoinUriText } from '../../lib/payments/bip21';
import { PaymentError } from '../../lib/payments/errors';
import { bitcoinUriText, parseBitcoinUri } from '../../lib/payments/uri';
import { makeInvoice, TEST_NODE_KEY } from '../lnurl/invoices';
import {
  BIP21_EXAMPLES,
  BIP321_EXAMPLES,
  EXAMPLE_ADDRESS,
  POP_WEB,
  REQ_POP_WEB,
  TESTNET_UNDER_BC,
  type UriVector,
} from './bip21-vectors';
import { makeOffer } from './offers';

const NOW = new Date('2026-05-01T00:00:00Z');
const now = Math.floor(NOW.getTime() / 1000);
/** Real addresses (BIP 173/350 vectors and the test merchant's), to stand in for the examples'. */
const P2PKH = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
const P2WPKH = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const P2TR = 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0';
const TB = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
const BCRT = segwitAddress('regtest', 0, new Uint8Array(20).fill(7));

const check = (uri: string) => checkBitcoinUriText(uri, NOW);
/** A well-formed offer (the test node's key), to stand in for BIP 321's broken example one. */
const OFFER = makeOffer({ description: 'Tea' });

/** The URI's syntax verdict: "invalid" when it cannot be read or asks for what we cannot do. */
function syntaxOf(uri: string): 'valid' | 'invalid' {
  try {
    return parseBitcoinUri(uri).unknownRequired.length > 0 ? 'invalid' : 'valid';
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentError);
    return 'invalid';
  }
}

function expectRead(v: UriVector) {
  const uri = parseBitcoinUri(v.uri);
  expect(uri.address).toBe(v.address);
  expect(uri.amount === undefined ? undefined : String(uri.amount)).toBe(v.amount);
  expect(uri.label).toBe(v.label);
  expect(uri.message).toBe(v.message);
  expect(uri.instructions.lightning).toEqual(v.lightning ?? []);
  expect(uri.instructions.lno).toEqual(v.lno ?? []);
  expect(uri.instructions.sp).toEqual(v.sp ?? []);
  expect(uri.instructions.bc).toEqual(v.bc ?? []);
  expect(uri.instructions.tb).toEqual(v.tb ?? []);
  expect(uri.pop).toEqual(v.pop);
  expect(uri.unknownRequired).toEqual(v.unknownRequired ?? []);
}

describe('the BIP 21 and BIP 321 examples', () => {
  const all = [...BIP21_EXAMPLES, ...BIP321_EXAMPLES];

  it.each(all.map((v) => [v.what, v] as const))('%s: read as the BIP says', (_, v) => {
    expect(syntaxOf(v.uri)).toBe(v.syntax);
    if (v.syntax === 'valid' || v.unknownRequired) expectRead(v);
    // Whatever is readable, Hushdrop's verdict is invalid for the broken ones.
    if (v.syntax === 'invalid') expect(check(v.uri).verdict).toBe('invalid');
  });

  it('their example addresses and invoices are broken on purpose, and Hushdrop says why', () => {
    expect(check(`bitcoin:${EXAMPLE_ADDRESS}`).reasons).toEqual([
      `"${EXAMPLE_ADDRESS}" is not a valid Bitcoin address: its checksum or characters are wrong.`,
    ]);
    expect(check('bitcoin:?lightning=lnbc420bogusinvoice').reasons[0]).toMatch(
      /^This Lightning invoice cannot be used: /,
    );
    // Offers are read, so the bogus one is refused; silent-payment addresses are shown, not checked.
    const offer = check('bitcoin:?lno=lno1bogusoffer&sp=sp1qsilentpayment');
    expect(offer.verdict).toBe('invalid');
    expect(offer.reasons[0]).toMatch(/^This Lightning offer cannot be used: /);
    expect(offer.bip21?.presentOnly).toEqual([{ key: 'sp', value: 'sp1qsilentpayment' }]);
  });

  it('with real addresses in their place, the valid examples are unsigned requests', () => {
    for (const v of all.filter((x) => x.syntax === 'valid')) {
      const uri = v.uri
        .replaceAll(EXAMPLE_ADDRESS, P2PKH)
        .replace(/bc1qufgy354j3kmvuch987xe4s40836x3h0lg8f5nq/gi, P2WPKH)
        .replace(/bc1p5swkugezn97763tl0yty6556856uug0q6jflljvep9m4p7339x5qzyrh4q/gi, P2TR)
        .replace('tb1qghfhmd4zh7ncpmxl3qzhmq566jk8ckq4gafnmq', TB)
        .replace(/lightning=lnbc420bogusinvoice&?/, '')
        .replace('lno1bogusoffer', OFFER)
        .replace(/[?&]$/, '');
      const checked = check(uri);
      if (uri === 'bitcoin:' || uri === 'bitcoin:?pop=callbackuri%3abody%3fpop=') {
        expect(checked.verdict, uri).toBe('invalid');
        continue;
      }
      expect(checked.reasons, uri).toEqual([]);
      expect(checked.verdict, uri).toBe('unsigned');
    }
  });

  it('a web page as proof of payment: ignored with pop=, refused with req-pop=', () => {
    const withPop = check(POP_WEB.replace(EXAMPLE_ADDRESS, P2PKH));
    expect(withPop.verdict).toBe('unsigned');
    expect(withPop.warnings.join(' ')).toMatch(/wallets ignore that/);
    const required = check(REQ_POP_WEB.replace(EXAMPLE_ADDRESS, P2PKH));
    expect(required.verdict).toBe('invalid');
    expect(required.reasons.join(' ')).toMatch(/req-pop.*must not be paid/);
    expect(required.handOff).toBeUndefined();
    expect(check(`bitcoin:${P2PKH}?req-pop=callback%3a`).verdict).toBe('unsigned');
  });

  it('a testnet address under bc= is refused', () => {
    expect(check(TESTNET_UNDER_BC.replace('tb1qghfhmd4zh7ncpmxl3qzhmq566jk8ckq4gafnmq', TB)).reasons).toEqual(
      [`The address "${TB}" under “bc=” is not a segwit address of that key’s network.`],
    );
  });
});

describe('amounts, to the satoshi', () => {
  it.each([
    ['20.3', 2_030_000_000n],
    ['0.00000001', 1n],
    ['21000000', 2_100_000_000_000_000n],
    ['50.00', 5_000_000_000n],
    ['0.1', 10_000_000n],
    ['00001.5', 150_000_000n],
  ])('%s BTC is %s sat', (text, sat) => {
    const checked = check(`bitcoin:${P2PKH}?amount=${text}`);
    expect(checked.amount).toEqual({ value: sat, unit: 'sat' });
    expect(checked.verdict).toBe('unsigned');
  });

  it.each([
    ['0.000000001', 'too many decimals'],
    ['-1', 'negative'],
    ['1e-8', 'exponent'],
    ['1E3', 'exponent'],
    ['21000000.00000001', 'more than all bitcoin'],
    ['50,000.00', 'comma'],
    ['0x10', 'hex'],
    ['', 'empty'],
    ['1.', 'no decimals after the point'],
    [' 1', 'space'],
    ['Infinity', 'not a number'],
  ])('refuses %s (%s)', (text) => {
    const checked = check(`bitcoin:${P2PKH}?amount=${encodeURIComponent(text)}`);
    expect(checked.verdict).toBe('invalid');
    expect(checked.reasons[0]).toMatch(
      /^This bitcoin: link cannot be read: its amount .* is not a number of bitcoin\.$/,
    );
  });

  it('zero is refused, as are duplicated parameters that must appear once', () => {
    expect(check(`bitcoin:${P2PKH}?amount=0`).reasons).toEqual(['This bitcoin: link asks for zero bitcoin.']);
    for (const twice of [
      'amount=1&AMOUNT=1',
      'label=a&label=b',
      'message=a&message=a',
      'r=x&r=y',
      'pop=a%3a&pop=b%3a',
    ])
      expect(check(`bitcoin:${P2PKH}?${twice}`).reasons[0]).toMatch(/its parameter “\w+” appears twice/);
    // Payment instructions and unknown parameters may repeat.
    expect(check(`bitcoin:?bc=${P2WPKH}&bc=${P2TR}&x=1&x=2`).verdict).toBe('unsigned');
  });

  it('keys in any case, values and labels percent-decoded and kept as text', () => {
    const checked = check(`bitcoin:${P2PKH}?AMOUNT=1&Label=%3Cb%3EShop%3C%2Fb%3E&MESSAGE=caf%C3%A9`);
    expect(checked.amount).toEqual({ value: 100_000_000n, unit: 'sat' });
    expect(checked.bip21?.uri.label).toBe('<b>Shop</b>');
    expect(checked.description).toBe('café');
    expect(checked.handOff?.uri).toBe(
      `bitcoin:${P2PKH}?amount=1&label=%3Cb%3EShop%3C%2Fb%3E&message=caf%C3%A9`,
    );
  });
});

describe('addresses and networks', () => {
  it('reads each address type with its network', () => {
    expect(check(`bitcoin:${P2PKH}`)).toMatchObject({ network: 'main', payee: P2PKH, verdict: 'unsigned' });
    expect(check(`bitcoin:${P2TR}`).bip21?.address?.type).toBe('p2tr');
    expect(check(`bitcoin:${TB}`).network).toBe('test');
    expect(check(`bitcoin:${BCRT}`).network).toBe('regtest');
    expect(check(`bitcoin:${TB}`).warnings.join(' ')).toMatch(/test network/);
  });

  it('refuses broken addresses with the reason', () => {
    expect(check(`bitcoin:${P2WPKH.slice(0, -1)}5`).reasons[0]).toMatch(/checksum is wrong/);
    expect(check(`bitcoin:${P2WPKH.slice(0, 10).toUpperCase()}${P2WPKH.slice(10)}`).reasons[0]).toMatch(
      /mixes upper and lower case/,
    );
    expect(check('bitcoin:1111111111111111111114oLvT3').reasons[0]).toMatch(/not a valid Bitcoin address/);
  });

  it('an address and a Lightning invoice for different networks are refused', () => {
    const testInvoice = makeInvoice({ network: 'test', description: 'x', timestamp: now });
    const mixed = check(`bitcoin:${P2PKH}?lightning=${testInvoice}`);
    expect(mixed.verdict).toBe('invalid');
    expect(mixed.reasons[0]).toMatch(/is not for the network the rest of this link is for/);
    // Signet shares testnet's addresses.
    const signet = makeInvoice({ network: 'signet', description: 'x', timestamp: now });
    expect(check(`bitcoin:${TB}?lightning=${signet}`)).toMatchObject({
      verdict: 'unsigned',
      network: 'signet',
    });
  });
});

describe('Lightning in a bitcoin: URI (BIP 321)', () => {
  const invoice = (fields: Parameters<typeof makeInvoice>[0] = {}) =>
    makeInvoice({ description: 'coffee', amountMsat: 150_000_000n, timestamp: now, ...fields });

  it('an invoice with an on-chain fallback: both shown, unsigned, the amounts compared', () => {
    const both = check(`bitcoin:${P2PKH}?amount=0.0015&lightning=${invoice()}`);
    expect(both).toMatchObject({
      verdict: 'unsigned',
      amount: { value: 150_000n, unit: 'sat' },
      payee: P2PKH,
    });
    expect(both.bip21?.invoices[0]?.payeeNodeKey).toBe(TEST_NODE_KEY);
    expect(both.warnings).toEqual([]);
    const differ = check(`bitcoin:${P2PKH}?amount=0.002&lightning=${invoice()}`);
    expect(differ.verdict).toBe('unsigned');
    expect(differ.warnings).toEqual([
      'This link asks for 0.002 BTC (200,000 sat) on-chain, but its Lightning invoice asks for 0.0015 BTC (150,000 sat): check with the payee which one they mean.',
    ]);
  });

  it('an invoice alone: verified by its node, amount in millisatoshis, expiry from the invoice', () => {
    const alone = check(`bitcoin:?lightning=${invoice({ expiry: 600 })}`);
    expect(alone).toMatchObject({
      verdict: 'verified',
      amount: { value: 150_000_000n, unit: 'msat' },
      payee: TEST_NODE_KEY,
      description: 'coffee',
      signer: { kind: 'node', nodeKey: TEST_NODE_KEY, named: false },
      expiresAt: BigInt(now + 600),
      expired: false,
    });
  });

  it('a changed invoice makes the whole link invalid; an expired one is said', () => {
    const good = invoice();
    const changed = `${good.slice(0, 40)}${good[40] === 'q' ? 'p' : 'q'}${good.slice(41)}`;
    const refused = check(`bitcoin:${P2PKH}?lightning=${changed}`);
    expect(refused.verdict).toBe('invalid');
    expect(refused.reasons[0]).toMatch(/checksum is wrong/);
    const old = check(`bitcoin:${P2PKH}?lightning=${invoice({ timestamp: now - 7200 })}`);
    expect(old.verdict).toBe('unsigned');
    expect(old.warnings.join(' ')).toMatch(/This Lightning invoice expired on .*: do not pay it/);
  });

  it('sp, pj and pay are shown as present and not acted on; lno is read as an offer', () => {
    const checked = check(`bitcoin:${P2PKH}?lno=${OFFER}&sp=sp1y&pj=https://pj.example/&pay=z`);
    expect(checked.bip21?.presentOnly.map((p) => p.key)).toEqual(['sp', 'pay', 'pj']);
    expect(checked.bip21?.offers.map((o) => o.offer)).toEqual([OFFER]);
    expect(checked.verdict).toBe('unsigned');
    expect(checked.handOff?.uri).toBe(
      `bitcoin:${P2PKH}?lno=${OFFER}&sp=sp1y&pj=https%3A%2F%2Fpj.example%2F&pay=z`,
    );
  });

  it('hands the URI on as read, every parameter kept', () => {
    const text = `bitcoin:${P2PKH}?amount=0.0015&label=Shop&lightning=${invoice()}&future=1`;
    expect(bitcoinUriText(parseBitcoinUri(text))).toBe(text);
  });
});
