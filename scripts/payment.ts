// The payment page's judgement, without a browser: prints one JSON object for a bitcoin: URI, a
// Lightning invoice or offer, an LNURL or Lightning Address, a payment request's web address, or a
// BIP70 file. The same lib/payments core the extension runs.
//
//   npm run -s payment -- 'bitcoin:bc1q…?amount=0.001&lightning=lnbc…'
//   npm run -s payment -- lnbc2500u1p…
//   npm run -s payment -- lno1pqps7sjqpgt…   (a BOLT 12 offer; an amount in another currency has its ISO 4217 code as unit)
//   npm run -s payment -- request.bitcoinpaymentrequest --now 2019-01-01T00:00:00Z --root ca.pem
//   npm run -s payment -- 'bitcoin:?r=https://shop.example/i/1' --fetch
//   npm run -s payment -- alice@shop.example --lookup --amount-msat 21000
//   npm run -s payment -- --dnssec-proof 2773696d706c65… --now 2025-08-07T12:00:00Z [--anchor <DS file>]…
//
// The first members are always kind, verdict, reason, network, amount and payee. Nothing is
// fetched unless asked (--fetch for BIP70, --lookup for LNURL). Exit status: 0 verified or
// unsigned, 1 invalid, 2 the input or the options could not be used (then {"error": …}).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { base64 } from '@scure/base';
import { connectEnglish } from '../lib/i18n-english';
import { checkDnssecProof, proofBytesOfHex } from '../lib/payments/bip353/proof';
import { bip353ReportOf } from '../lib/payments/bip353/report';
import { bip70Request, checkRead, lnurlRequest, type PaymentReport, reportOf } from '../lib/payments/check';
import { anchorsWith, readAnchorText } from '../lib/payments/dnssec/anchors';
import { isPaymentError, PaymentError } from '../lib/payments/errors';
import { paymentFormOf } from '../lib/payments/forms';
import { MAX_PAYMENT_REQUEST_BYTES } from '../lib/payments/limits';
import { fetchLnurlInvoice, fetchPayParams } from '../lib/payments/lnurl';
import { loadPaymentRequest } from '../lib/payments/load';
import { type ReadPayment, readPayment } from '../lib/payments/read';
import type { CheckedRequest } from '../lib/payments/request';
import { bundledRootStore, type RootStore, withExtraRoots } from '../lib/payments/roots';
import { evaluatePaymentRequest } from '../lib/payments/verify';

interface Options {
  input: string;
  /** BIP 353: the input is a PSBT_OUT_DNSSEC_PROOF value in hex. */
  dnssecProof: boolean;
  /** DS records trusted besides the root's (--anchor files). */
  anchors: string[];
  now: Date;
  roots: RootStore;
  fetch: boolean;
  lookup: boolean;
  amountMsat?: bigint;
}

class UsageError extends Error {}

const USAGE =
  'Usage: npm run -s payment -- <bitcoin: URI | invoice | offer | LNURL | name@domain | https URL | file> ' +
  '[--now <ISO date>] [--root <PEM file>]… [--fetch] [--lookup [--amount-msat <n>]]\n' +
  '       npm run -s payment -- --dnssec-proof <hex> [--now <ISO date>] [--anchor <DS file>]…';

function pemRoots(path: string): Uint8Array[] {
  const blocks = [
    ...readFileSync(path, 'utf8').matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g),
  ];
  if (blocks.length === 0) throw new UsageError(`${path} holds no PEM certificate.`);
  return blocks.map((m) => base64.decode(m[1]!.replace(/\s+/g, '')));
}

function readOptions(argv: string[]): Options {
  const positional: string[] = [];
  const options: Omit<Options, 'input'> = {
    dnssecProof: false,
    anchors: [],
    now: new Date(),
    roots: bundledRootStore(),
    fetch: false,
    lookup: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value.`);
      return next;
    };
    if (arg === '--now') {
      options.now = new Date(value());
      if (Number.isNaN(options.now.getTime()))
        throw new UsageError('--now needs a date such as 2026-01-31T12:00:00Z.');
    } else if (arg === '--root') options.roots = withExtraRoots(options.roots, pemRoots(value()));
    else if (arg === '--dnssec-proof') options.dnssecProof = true;
    else if (arg === '--anchor') {
      const path = value();
      try {
        options.anchors.push(...readAnchorText(readFileSync(path, 'utf8')).map((a) => a.line));
      } catch (error) {
        if (error instanceof PaymentError) throw new UsageError(`${path}: ${error.message}`);
        throw error;
      }
    } else if (arg === '--fetch') options.fetch = true;
    else if (arg === '--lookup') options.lookup = true;
    else if (arg === '--amount-msat') {
      const text = value();
      if (!/^\d{1,20}$/.test(text))
        throw new UsageError('--amount-msat needs a whole number of millisatoshis.');
      options.amountMsat = BigInt(text);
    } else if (arg === '--help' || arg === '-h') throw new UsageError(USAGE);
    else positional.push(arg);
  }
  if (positional.length !== 1) throw new UsageError(USAGE);
  return { input: positional[0]!, ...options };
}

const nodeFetch = (input: string, init: RequestInit) => fetch(input, init);

/** A file's bytes as a BIP70 request, unless they are text Hushdrop reads as a request. */
async function fromFile(path: string, options: Options): Promise<CheckedRequest> {
  if (statSync(path).size > MAX_PAYMENT_REQUEST_BYTES * 4)
    throw new UsageError(`${path} is far too large for a payment request.`);
  const bytes = new Uint8Array(readFileSync(path));
  const text = new TextDecoder().decode(bytes).trim();
  const form = paymentFormOf(text);
  if (form && form !== 'bip70') return fromText(readPayment(text), options);
  return bip70Request(await evaluatePaymentRequest(bytes, { roots: options.roots, now: options.now }));
}

async function fromText(read: ReadPayment, options: Options): Promise<CheckedRequest> {
  if (options.fetch && 'url' in read) return fetched(read.url, options);
  if (options.fetch && 'uri' in read && read.uri.r !== undefined) return fetched(read.uri.r, options);
  if (options.lookup && 'target' in read) {
    const params = await fetchPayParams(read.target, { fetch: nodeFetch });
    if (options.amountMsat === undefined) return lnurlRequest(read.target, params, undefined, options.now);
    return lnurlRequest(
      read.target,
      params,
      await fetchLnurlInvoice(params, options.amountMsat, { fetch: nodeFetch }),
      options.now,
    );
  }
  return checkRead(read, options.now);
}

/** A BIP70 request fetched (--fetch) and judged. */
async function fetched(url: string, options: Options): Promise<CheckedRequest> {
  const loaded = await loadPaymentRequest(url, undefined, {
    fetch: nodeFetch,
    roots: options.roots,
    now: options.now,
  });
  return bip70Request(loaded.evaluation, loaded.fetchWarnings);
}

/** JSON for bigints (as text) and bytes (as hex). */
function plain(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  return value;
}

function details(checked: CheckedRequest): unknown {
  return checked.bolt11 ?? checked.bolt12 ?? checked.bip21 ?? checked.lnurl ?? checked.bip70 ?? null;
}

/** Runs the check on command-line arguments: the JSON text to print and the exit status. */
export async function paymentCheck(argv: string[]): Promise<{ code: number; output: string }> {
  let report: PaymentReport;
  let kind: PaymentReport['kind'] = 'bip70';
  try {
    const options = readOptions(argv);
    if (options.dnssecProof) {
      const checked = await checkDnssecProof(proofBytesOfHex(options.input), {
        anchors: anchorsWith(options.anchors),
        now: options.now,
      });
      const out = bip353ReportOf(checked);
      return { code: out.verdict === 'invalid' ? 1 : 0, output: JSON.stringify(out, plain, 2) };
    }
    const isFile = existsSync(options.input) && statSync(options.input).isFile();
    if (!isFile) kind = paymentFormOf(options.input) ?? kind;
    const checked = isFile
      ? await fromFile(options.input, options)
      : await fromText(readPayment(options.input), options);
    report = { ...reportOf(checked), details: details(checked) };
  } catch (error) {
    if (error instanceof UsageError || (isPaymentError(error) && error.code === 'bad-input')) {
      return { code: 2, output: JSON.stringify({ error: error.message }) };
    }
    // Anything the core refuses (unreachable, unreadable bytes…) is an invalid request.
    if (!(error instanceof PaymentError)) throw error;
    report = { kind, verdict: 'invalid', reason: error.message, network: null, amount: null, payee: null };
  }
  return { code: report.verdict === 'invalid' ? 1 : 0, output: JSON.stringify(report, plain, 2) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  connectEnglish();
  const { code, output } = await paymentCheck(process.argv.slice(2));
  console.log(output);
  process.exitCode = code;
}
