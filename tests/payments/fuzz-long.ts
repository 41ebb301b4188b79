// Long fuzz run for lib/payments, separate from the test suite (which runs ~11,000 cases).
// Same checks and inputs as tests/payments/properties.test.ts (tests/testkit/fuzz.ts): only
// PaymentError may be thrown, and no request whose signed bytes changed may come out verified.
//
//   npx tsx tests/payments/fuzz-long.ts                   # 1,000,000 cases
//   npx tsx tests/payments/fuzz-long.ts --cases 20000 --seed 42
//
// A failure prints the fast-check seed, path and counterexample; re-run with that --seed.
import fc from 'fast-check';
import { EMPTY_ROOT_STORE } from '../../lib/payments/roots';
import * as fuzz from '../testkit/fuzz';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} needs a whole number`);
  return value;
}

const total = option('cases', 1_000_000);
const baseSeed = option('seed', Date.now() % 2 ** 31);
const CHUNK = 5_000;

const { seeds, messages } = await fuzz.fuzzInputs();
console.log(
  `fuzz-payments: ${total} cases, seed ${baseSeed}, ${seeds.length} request seeds, ${messages.length} messages`,
);

// Share of the cases per property; the async evaluations are the slow, deep ones.
const plan: { name: string; share: number; run: (numRuns: number, seed: number) => Promise<void> }[] = [
  {
    name: 'random bytes → decoders',
    share: 0.35,
    run: async (numRuns, seed) =>
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 4000 }), (bytes) => fuzz.checkDecoders(bytes)),
        { numRuns, seed },
      ),
  },
  {
    name: 'mutated messages → decoders',
    share: 0.3,
    run: async (numRuns, seed) =>
      fc.assert(
        fc.property(fc.nat(), fc.array(fuzz.mutationArb, { minLength: 1, maxLength: 6 }), (pick, mutations) =>
          fuzz.checkDecoders(fuzz.applyMutations(messages[pick % messages.length]!, mutations)),
        ),
        { numRuns, seed },
      ),
  },
  {
    name: 'mutated requests → evaluate',
    share: 0.2,
    run: (numRuns, seed) =>
      fc.assert(
        fc.asyncProperty(
          fc.nat(),
          fc.array(fuzz.mutationArb, { minLength: 1, maxLength: 4 }),
          async (pick, mutations) => {
            const s = seeds[pick % seeds.length]!;
            await fuzz.checkEvaluate(fuzz.applyMutations(s.bytes, mutations), s);
          },
        ),
        { numRuns, seed },
      ),
  },
  {
    name: 'random bytes → evaluate',
    share: 0.05,
    run: (numRuns, seed) =>
      fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), async (bytes) => {
          await fuzz.checkEvaluate(bytes, {
            name: 'random',
            bytes,
            roots: EMPTY_ROOT_STORE,
            now: new Date(),
          });
        }),
        { numRuns, seed },
      ),
  },
  {
    name: 'random text → URI/link/address/transaction parsers',
    share: 0.1,
    run: async (numRuns, seed) =>
      fc.assert(
        fc.property(fuzz.parserTextArb(300), (text) => fuzz.checkText(text)),
        { numRuns, seed },
      ),
  },
];

const started = Date.now();
let done = 0;
let chunkIndex = 0;
for (const part of plan) {
  const cases = Math.round(total * part.share);
  let partDone = 0;
  while (partDone < cases) {
    const numRuns = Math.min(CHUNK, cases - partDone);
    const seed = (baseSeed + chunkIndex++) % 2 ** 31;
    try {
      await part.run(numRuns, seed);
    } catch (error) {
      console.error(
        `\nFAILED in "${part.name}" (chunk seed ${seed}):\n${error instanceof Error ? error.message : error}`,
      );
      process.exit(1);
    }
    partDone += numRuns;
    done += numRuns;
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `\r${part.name}: ${partDone}/${cases}   total ${done}/${total}   ${seconds.toFixed(0)} s   `,
    );
  }
  process.stdout.write('\n');
}
console.log(
  `fuzz-payments: ${done} cases passed in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${baseSeed}).`,
);
