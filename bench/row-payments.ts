// Row e: decoding and verifying a BIP70 payment request with evaluatePaymentRequest (signature,
// chain to the roots the corpus manifest names, at the manifest's time, and the content rules),
// against a bare protobuf decode of the same bytes: the generated static decoder alone, run on the
// request and on the messages nested in it (PaymentDetails, X509Certificates), with no checks.
// Per request: the median of several timed batches; then the median over the corpus.
import { payments } from '../lib/payments/gen/payments.js';
import { createRootStore } from '../lib/payments/roots';
import { evaluatePaymentRequest } from '../lib/payments/verify';
import {
  CORPUS_DIR,
  certificateFixture,
  fixture,
  HAVE_CORPUS,
  REQUEST_FIXTURES,
} from '../tests/payments/corpus';
import { median, now } from './common';

export type PaymentsResult =
  | { skipped: string }
  | { requests: number; evaluateMs: number; decodeMs: number; perRequest: { file: string; ratio: number }[] };

/** Median time per call over `batches` timed batches of `batch` calls, awaited one by one. */
async function perOp(op: () => Promise<unknown>, batch: number, batches: number): Promise<number> {
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

export async function paymentsRow(): Promise<PaymentsResult> {
  if (!HAVE_CORPUS) return { skipped: `BIP70 corpus not found at ${CORPUS_DIR}` };
  const evaluations: number[] = [];
  const decodes: number[] = [];
  const perRequest: { file: string; ratio: number }[] = [];
  for (const f of REQUEST_FIXTURES) {
    const bytes = fixture(f.file);
    const options = { roots: createRootStore(f.roots.map(certificateFixture)), now: new Date(f.at * 1000) };
    // Warm up both paths (JIT, lazily built tables) before timing.
    for (let i = 0; i < 3; i++) await evaluatePaymentRequest(bytes, options);
    const bareDecode = () => {
      const request = payments.PaymentRequest.decode(bytes);
      payments.PaymentDetails.decode(request.serializedPaymentDetails);
      if (request.pkiData?.length) payments.X509Certificates.decode(request.pkiData);
    };
    for (let i = 0; i < 200; i++) bareDecode();
    const evaluate = await perOp(() => evaluatePaymentRequest(bytes, options), 5, 7);
    const decode = perOpSync(bareDecode, 500, 7);
    evaluations.push(evaluate);
    decodes.push(decode);
    perRequest.push({ file: f.file, ratio: evaluate / decode });
  }
  return {
    requests: REQUEST_FIXTURES.length,
    evaluateMs: median(evaluations),
    decodeMs: median(decodes),
    perRequest,
  };
}
