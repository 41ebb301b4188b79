import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { createRootCa, issue } from '../../devkit/ca';
import { CORPUS_DIR, certificateFixture, fixture, HAVE_CORPUS, REQUEST_FIXTURES } from '../../devkit/corpus';
import { addressToScript } from '../../lib/payments/addresses';
import { checkPaymentText } from '../../lib/payments/check';
import {
  decodePayment,
  decodePaymentAck,
  decodePaymentDetails,
  decodePaymentRequest,
  decodeX509Certificates,
} from '../../lib/payments/codec';
import { PaymentError } from '../../lib/payments/errors';
import { paymentLinkOf } from '../../lib/payments/forms';
import { sourceFromText } from '../../lib/payments/page-input';
import { createRootStore, type RootStore } from '../../lib/payments/roots';
import { signedBytesOf } from '../../lib/payments/signature';
import { parseTransactionsHex } from '../../lib/payments/transactions';
import { parseBitcoinUri } from '../../lib/payments/uri';
import { evaluatePaymentRequest } from '../../lib/payments/verify';
import { walkFields } from '../../lib/payments/wire';
import { buildPaymentRequest, P2PKH_SCRIPT } from '../merchant/requests';
import { bytesField, fromHex, varintField } from '../merchant/wire';

/**
 * Fuzz inputs for lib/payments, shared by tests/payments/properties.test.ts (about 11,000 cases)
 * and tests/payments/fuzz-long.ts (a million): seeds (valid requests, ours and the real corpus),
 * byte mutations, parser text, and the checks every input must pass: only PaymentError may be
 * thrown, and nothing whose signed content changed may come out verified.
 */

export interface Seed {
  name: string;
  bytes: Uint8Array;
  roots: RootStore;
  now: Date;
}

export type Mutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; value: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'duplicate'; at: number; length: number }
  | { kind: 'bigvarint'; at: number };

/** In-place changes weigh more: they keep the framing intact and so reach deeper than the decoder. */
export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('flip' as const),
      at: fc.nat(),
      bit: fc.integer({ min: 0, max: 7 }),
    }),
    weight: 5,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('set' as const),
      at: fc.nat(),
      value: fc.integer({ min: 0, max: 255 }),
    }),
    weight: 3,
  },
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 12 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('duplicate' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 60 }),
  }),
  fc.record({ kind: fc.constant('bigvarint' as const), at: fc.nat() }),
);

/**
 * Text for the URI, link, address and transaction parsers: any text, binary strings, `bitcoin:?r=`
 * with a web address, address-like and hex-like strings; `maxLength` sets their lengths.
 */
export function parserTextArb(maxLength: number): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'binary', maxLength: maxLength / 2 }),
    fc.webUrl().map((url) => `bitcoin:?r=${url}`),
    fc.stringMatching(/^(bc1|tb1|1|3|m|n|2)[0-9a-zA-Z]{0,80}$/),
    fc.stringMatching(new RegExp(`^[0-9a-f]{0,${maxLength * 2}}$`)),
  );
}

export function applyMutations(bytes: Uint8Array, mutations: Mutation[]): Uint8Array {
  let out = bytes.slice();
  for (const m of mutations) {
    const at = out.length === 0 ? 0 : m.at % (out.length + 1);
    switch (m.kind) {
      case 'flip':
        if (at < out.length) out[at]! ^= 1 << m.bit;
        break;
      case 'set':
        if (at < out.length) out[at] = m.value;
        break;
      case 'insert':
        out = Uint8Array.from([...out.subarray(0, at), ...m.bytes, ...out.subarray(at)]);
        break;
      case 'delete':
        out = Uint8Array.from([...out.subarray(0, at), ...out.subarray(at + m.length)]);
        break;
      case 'truncate':
        out = out.slice(0, at);
        break;
      case 'duplicate':
        out = Uint8Array.from([...out.subarray(0, at + m.length), ...out.subarray(at)]);
        break;
      case 'bigvarint':
        // A 10-byte varint where a small number was: stresses 64-bit reads and lengths.
        out = Uint8Array.from([
          ...out.subarray(0, at),
          0xff,
          0xff,
          0xff,
          0xff,
          0xff,
          0xff,
          0xff,
          0xff,
          0xff,
          0x01,
          ...out.subarray(at + 1),
        ]);
        break;
    }
  }
  return out;
}

function onlyPaymentErrors(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
  }
}

/** Every decoder and the wire walk: returns or throws PaymentError, nothing else. */
export function checkDecoders(bytes: Uint8Array): void {
  onlyPaymentErrors(() => decodePaymentRequest(bytes));
  onlyPaymentErrors(() => decodePaymentDetails(bytes));
  onlyPaymentErrors(() => decodeX509Certificates(bytes));
  onlyPaymentErrors(() => decodePayment(bytes));
  onlyPaymentErrors(() => decodePaymentAck(bytes));
  onlyPaymentErrors(() => walkFields(bytes));
  onlyPaymentErrors(() => signedBytesOf(bytes));
}

/** Text inputs: URIs, link detection, addresses, pasted transactions. */
export function checkText(text: string): void {
  onlyPaymentErrors(() => parseBitcoinUri(text));
  onlyPaymentErrors(() => parseBitcoinUri(`bitcoin:${text}`));
  paymentLinkOf({ href: text, type: text });
  for (const prefix of ['', 'bitcoin:?r=', 'lightning:'])
    onlyPaymentErrors(() => sourceFromText(`${prefix}${text}`));
  onlyPaymentErrors(() => addressToScript(text, 'main'));
  onlyPaymentErrors(() => addressToScript(text, 'test'));
  onlyPaymentErrors(() => parseTransactionsHex(text));
  for (const prefix of ['', 'bitcoin:', 'lightning:', 'lnbc1', 'lnurl1', 'lnurlp://', 'a@'])
    onlyPaymentErrors(() => checkPaymentText(`${prefix}${text}`, new Date()));
}

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Evaluates mutated bytes of a seed. Only PaymentError may escape, and a 'verified' verdict is
 * allowed only when the bytes the signature covers are exactly the seed's (e.g. the mutation
 * hit nothing, or re-encoded the signature field's own length).
 */
export async function checkEvaluate(bytes: Uint8Array, seed: Seed): Promise<string> {
  let verdict: string;
  try {
    const result = await evaluatePaymentRequest(bytes, { roots: seed.roots, now: seed.now });
    verdict = result.verdict;
    if (!['verified', 'unsigned', 'invalid'].includes(verdict)) throw new Error(`unknown verdict ${verdict}`);
    if (verdict === 'invalid' && result.reasons.length === 0) throw new Error('invalid without a reason');
    if (verdict !== 'verified' && result.merchant) throw new Error('merchant shown without verification');
  } catch (error) {
    if (error instanceof PaymentError) return 'error';
    throw error;
  }
  if (verdict === 'verified' && !equal(signedBytesOf(bytes), signedBytesOf(seed.bytes))) {
    throw new Error('a request whose signed bytes changed came out verified');
  }
  return verdict;
}

/** Our own valid requests (made with a fresh test CA) plus every request file of the corpus. */
export async function makeSeeds(options: { corpus?: boolean } = {}): Promise<Seed[]> {
  const root = await createRootCa('Fuzz Root CA');
  const root1 = await createRootCa('Fuzz SHA-1 Root CA', 'SHA-1');
  const middle = await issue(root, { commonName: 'Fuzz Issuing CA', isCa: true });
  const leaf = await issue(root, { commonName: 'fuzz.example', dnsNames: ['fuzz.example'] });
  const deep = await issue(middle, { commonName: 'deep.fuzz.example' });
  const leaf1 = await issue(root1, { commonName: 'sha1.fuzz.example', hash: 'SHA-1' });
  const roots = createRootStore([root.der, root1.der]);
  const now = new Date();
  const time = BigInt(Math.floor(now.getTime() / 1000));
  const script = fromHex(P2PKH_SCRIPT);
  const details = {
    time,
    expires: time + 600n,
    outputs: [
      { amount: 1_000n, script },
      { amount: 0n, script: fromHex('0014751e76e8199196d454941c45d1b3a323f1433bd6') },
    ],
    memo: 'Fuzz seed',
    paymentUrl: 'https://fuzz.example/pay',
    merchantData: fromHex('0102030405'),
  };
  const seeds: Seed[] = [
    {
      name: 'own sha256',
      bytes: await buildPaymentRequest({
        details,
        signer: { chain: [leaf.der], privateKey: leaf.keys.privateKey },
      }),
      roots,
      now,
    },
    {
      name: 'own sha1',
      bytes: await buildPaymentRequest({
        details,
        pkiType: 'x509+sha1',
        signer: { chain: [leaf1.der], privateKey: leaf1.keys.privateKey },
      }),
      roots,
      now,
    },
    {
      name: 'own chain of three, odd order, unknown fields',
      bytes: await buildPaymentRequest({
        details: { ...details, network: 'test', unknownFields: [varintField(100, 1)] },
        signer: { chain: [deep.der, middle.der, root.der], privateKey: deep.keys.privateKey },
        version: 1,
        order: [4, 5, 'extra', 3, 2, 1],
        extraFields: [bytesField(4242, 'x')],
      }),
      roots,
      now,
    },
    { name: 'own unsigned', bytes: await buildPaymentRequest({ details }), roots, now },
  ];
  if (options.corpus !== false && HAVE_CORPUS) {
    const names = new Set(readdirSync(CORPUS_DIR));
    for (const f of REQUEST_FIXTURES) {
      if (!names.has(f.file)) continue;
      seeds.push({
        name: f.file,
        bytes: fixture(f.file),
        roots: createRootStore(f.roots.map(certificateFixture)),
        now: new Date(f.at * 1000),
      });
    }
  }
  return seeds;
}

/** Other corpus messages (Payment, PaymentACK, bare details) to mutate for the decoders. */
/** The seeds, and every message to mutate: the seeds' bytes and the messages of the corpus. */
export async function fuzzInputs(): Promise<{ seeds: Seed[]; messages: Uint8Array[] }> {
  const seeds = await makeSeeds();
  return { seeds, messages: [...seeds.map((s) => s.bytes), ...corpusMessages()] };
}

export function corpusMessages(): Uint8Array[] {
  if (!HAVE_CORPUS) return [];
  return readdirSync(CORPUS_DIR)
    .filter((name) => name.endsWith('.bin'))
    .map((name) => fixture(name));
}
