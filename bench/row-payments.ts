// Row e: decoding and verifying a BIP70 payment request with evaluatePaymentRequest (signature,
// chain to the bundled roots plus the ones the corpus manifest names, at the manifest's time, and
// the content rules), against
//   e1  a bare protobuf decode of the same bytes (the generated static decoder alone, on the
//       request and the messages nested in it), with no checks;
//   e2  bitcore-payment-protocol 8.1.1 (BitPay's library; bench-only devDependency): decode, then
//       verify(true): the signature, and the chain only when its own root list knows the root.
// Hushdrop is timed twice: judging a request again (as the payment page does before paying; the
// parsed certificates are cached), and on first sight (a fresh certificate cache each call; the
// root store is parsed and indexed once per browser session, so it stays warm).
// Per request: the median of several timed batches, rounds interleaved; then the median over the corpus.
import { createRequire } from 'node:module';
import { CORPUS_DIR, certificateFixture, fixture, HAVE_CORPUS, REQUEST_FIXTURES } from '../devkit/corpus';
import { createCertificateCache } from '../lib/payments/certificate-cache';
import { payments } from '../lib/payments/gen/payments.js';
import { bundledRootStore, withExtraRoots } from '../lib/payments/roots';
import { evaluatePaymentRequest } from '../lib/payments/verify';
import { median, now } from './common';

export type PaymentsResult =
  | { skipped: string }
  | {
      requests: number;
      /** Medians over the corpus of the per-request medians, ms per call. */
      again: number;
      firstSight: number;
      bitcore: number;
      decode: number;
      /** Medians over the corpus of per-request ratios. */
      againVsBitcore: number;
      firstSightVsBitcore: number;
      /** Requests whose signature bitcore found good. */
      bitcoreSignatures: number;
      /**
       * Requests whose chain bitcore found good: none, since it judges certificates at today's
       * date and every one in the corpus has expired, so its chain check stops at the first pair.
       */
      bitcoreChains: number;
    };

/** Median time per call over `batches` timed batches of `batch` calls, awaited one by one. */
async function perOp(op: () => unknown, batch: number, batches: number): Promise<number> {
  const times: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = now();
    for (let i = 0; i < batch; i++) await op();
    times.push((now() - t0) / batch);
  }
  return median(times);
}

/** The same for a synchronous call (no await between calls, which would add to its time). */
function perOpSync(op: () => void, batch: number, batches: number): number {
  const times: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = now();
    for (let i = 0; i < batch; i++) op();
    times.push((now() - t0) / batch);
  }
  return median(times);
}

/** bitcore-payment-protocol ships no types. */
type Bitcore = any;

export async function paymentsRow(rounds = 7): Promise<PaymentsResult> {
  if (!HAVE_CORPUS) return { skipped: `BIP70 corpus not found at ${CORPUS_DIR}` };
  const PaymentProtocol: Bitcore = createRequire(import.meta.url)('bitcore-payment-protocol');
  const bitcore = (bytes: Uint8Array) => {
    const protocol = new PaymentProtocol();
    protocol.makePaymentRequest(PaymentProtocol.PaymentRequest.decode(Buffer.from(bytes)));
    return protocol.verify(true);
  };
  const bundled = bundledRootStore();
  const again: number[] = [];
  const first: number[] = [];
  const theirs: number[] = [];
  const decodes: number[] = [];
  const againRatio: number[] = [];
  const firstRatio: number[] = [];
  let bitcoreSignatures = 0;
  let bitcoreChains = 0;
  for (const f of REQUEST_FIXTURES) {
    const bytes = fixture(f.file);
    const options = {
      roots: withExtraRoots(bundled, f.roots.map(certificateFixture)),
      now: new Date(f.at * 1000),
    };
    const firstSight = () =>
      evaluatePaymentRequest(bytes, { ...options, certificates: createCertificateCache() });
    const bareDecode = () => {
      const request = payments.PaymentRequest.decode(bytes);
      payments.PaymentDetails.decode(request.serializedPaymentDetails);
      if (request.pkiData?.length) payments.X509Certificates.decode(request.pkiData);
    };
    // Warm up every path (JIT, the root index, lazily built tables) before timing.
    for (let i = 0; i < 3; i++) {
      await evaluatePaymentRequest(bytes, options);
      await firstSight();
      bitcore(bytes);
    }
    const trust = bitcore(bytes);
    if (trust.verified) bitcoreSignatures++;
    if (trust.chainVerified) bitcoreChains++;
    for (let i = 0; i < 200; i++) bareDecode();
    const a: number[] = [];
    const s: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < rounds; r++) {
      a.push(await perOp(() => evaluatePaymentRequest(bytes, options), 5, 1));
      s.push(await perOp(firstSight, 5, 1));
      b.push(perOpSync(() => bitcore(bytes), 5, 1));
    }
    again.push(median(a));
    first.push(median(s));
    theirs.push(median(b));
    againRatio.push(median(a) / median(b));
    firstRatio.push(median(s) / median(b));
    decodes.push(perOpSync(bareDecode, 500, rounds));
  }
  return {
    requests: REQUEST_FIXTURES.length,
    again: median(again),
    firstSight: median(first),
    bitcore: median(theirs),
    decode: median(decodes),
    againVsBitcore: median(againRatio),
    firstSightVsBitcore: median(firstRatio),
    bitcoreSignatures,
    bitcoreChains,
  };
}
