import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  decodePaymentDetails,
  encodePaymentDetails,
  type PaymentDetailsInit,
} from '../../lib/payments/codec';
import { MAX_MONEY } from '../../lib/payments/limits';
import { EMPTY_ROOT_STORE } from '../../lib/payments/roots';
import { evaluatePaymentRequest } from '../../lib/payments/verify';
import { buildPaymentRequest } from '../merchant/requests';
import { fromHex } from '../merchant/wire';
import {
  applyMutations,
  checkDecoders,
  checkEvaluate,
  checkText,
  fuzzInputs,
  mutationArb,
  parserTextArb,
  type Seed,
} from '../testkit/fuzz';

/**
 * Property tests: about 11,000 cases in total, kept fast. The same checks run a million times
 * in tests/payments/fuzz-long.ts. fast-check prints the seed and the shrunk input of any failure.
 */

let seeds: Seed[];
let messages: Uint8Array[];

beforeAll(async () => {
  ({ seeds, messages } = await fuzzInputs());
}, 60_000);

describe('properties: hostile bytes', () => {
  it('random bytes: every decoder returns or throws PaymentError (3,000 cases)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), (bytes) => {
        checkDecoders(bytes);
      }),
      { numRuns: 3000 },
    );
  });

  it('mutated valid messages: every decoder returns or throws PaymentError (2,000 cases)', () => {
    fc.assert(
      fc.property(fc.nat(), fc.array(mutationArb, { minLength: 1, maxLength: 5 }), (pick, mutations) => {
        checkDecoders(applyMutations(messages[pick % messages.length]!, mutations));
      }),
      { numRuns: 2000 },
    );
  });

  it('random bytes through evaluatePaymentRequest: PaymentError or a verdict (1,000 cases)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => {
        expect(
          await checkEvaluate(bytes, { name: 'random', bytes, roots: EMPTY_ROOT_STORE, now: new Date() }),
        ).not.toBe('verified');
      }),
      { numRuns: 1000 },
    );
  });

  it('mutated valid requests: never verified once the signed bytes change, only PaymentError thrown (2,500 cases)', async () => {
    const verdicts = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
        async (pick, mutations) => {
          const seed = seeds[pick % seeds.length]!;
          const verdict = await checkEvaluate(applyMutations(seed.bytes, mutations), seed);
          verdicts.set(verdict, (verdicts.get(verdict) ?? 0) + 1);
        },
      ),
      { numRuns: 2500 },
    );
    // The mutations reach past the decoder: most inputs get a verdict.
    console.info('mutated requests, outcomes:', Object.fromEntries(verdicts));
    expect((verdicts.get('invalid') ?? 0) + (verdicts.get('unsigned') ?? 0)).toBeGreaterThan(500);
  }, 120_000);

  it('random text: URI, link, address and transaction parsers throw only PaymentError (1,500 cases)', () => {
    fc.assert(
      fc.property(parserTextArb(200), (text) => {
        checkText(text);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('properties: the content rules, as a model', () => {
  const scriptArb = fc.oneof(
    fc.constant(fromHex(`76a914${'11'.repeat(20)}88ac`)),
    fc.constant(fromHex(`0014${'33'.repeat(20)}`)),
    fc.constant(fromHex(`5120${'55'.repeat(32)}`)),
    fc.uint8Array({ maxLength: 40 }),
  );
  const amountArb = fc.oneof(
    fc.bigInt({ min: 0n, max: 10n ** 9n }),
    fc.bigInt({ min: MAX_MONEY - 2n, max: MAX_MONEY + 2n }),
    fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
  );
  const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });

  it('random well-formed unsigned requests get the verdict, total and expiry the rules say (1,000 cases)', async () => {
    const now = new Date('2030-06-01T12:00:00Z');
    const nowS = BigInt(now.getTime() / 1000);
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            network: fc.oneof(fc.constantFrom('main', 'test', 'regtest', ''), fc.string({ maxLength: 8 })),
            outputs: fc.array(fc.record({ amount: amountArb, script: scriptArb }), { maxLength: 4 }),
            time: u64,
            expires: fc.oneof(u64, fc.bigInt({ min: nowS - 2n, max: nowS + 2n })),
            memo: fc.string({ maxLength: 60 }),
          },
          { requiredKeys: ['outputs', 'time'] },
        ),
        fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
        async (init: PaymentDetailsInit, version) => {
          const encoded = encodePaymentDetails(init);
          const decoded = decodePaymentDetails(encoded);
          expect(encodePaymentDetails(decoded)).toEqual(encoded);
          const bytes = await buildPaymentRequest({
            details: encoded,
            ...(version === undefined ? {} : { version }),
          });
          const result = await evaluatePaymentRequest(bytes, { roots: EMPTY_ROOT_STORE, now });
          const network = init.network ?? 'main';
          const amounts = (init.outputs ?? []).map((o) => o.amount ?? 0n);
          const total = amounts.reduce((a, b) => a + b, 0n);
          const invalid =
            (version !== undefined && version !== 1) ||
            (network !== 'main' && network !== 'test') ||
            amounts.length === 0 ||
            amounts.some((a) => a > MAX_MONEY) ||
            total > MAX_MONEY;
          expect(result.verdict).toBe(invalid ? 'invalid' : 'unsigned');
          expect(result.details.total).toBe(total);
          expect(result.expired).toBe(init.expires !== undefined && init.expires < nowS);
          expect(result.merchant).toBeUndefined();
        },
      ),
      { numRuns: 1000 },
    );
  });
});
