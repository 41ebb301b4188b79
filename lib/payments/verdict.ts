import { t } from '../i18n';
import { describeScript, type Network, type ScriptType } from './addresses';
import { formatBtcForPeople } from './amounts';
import type { PaymentDetails, PaymentRequest } from './codec';
import { formatTime, isExpired } from './expiry';
import { MAX_MONEY } from './limits';

/**
 * The content rules of a payment request, independent of who signed it (notes/bip70.md §5–§7):
 * version, network, outputs, amounts, expiry. Each broken rule is a sentence in `reasons` (the
 * request is invalid); things a person should know but that do not make it invalid go to
 * `warnings`.
 */

export type Verdict = 'verified' | 'unsigned' | 'invalid';

export interface EvaluatedOutput {
  amount: bigint;
  /** Lower-case hex of the scriptPubKey. */
  script: string;
  /** Absent for custom scripts and for an unknown network. */
  address?: string;
  type: ScriptType;
}

export interface EvaluatedDetails {
  network: string;
  outputs: EvaluatedOutput[];
  /** Sum of all amounts (0 = the payer chooses the amount). */
  total: bigint;
  time: bigint;
  expires?: bigint;
  /** Untrusted text from the merchant: show as text, never as HTML. */
  memo?: string;
  /** Untrusted text from the merchant. */
  paymentUrl?: string;
  merchantData?: Uint8Array;
  /** How many fields we did not recognise (kept, not interpreted). */
  unknownFieldCount: number;
}

export interface RuleFindings {
  details: EvaluatedDetails;
  reasons: string[];
  warnings: string[];
  expired: boolean;
  networkMatches?: boolean;
}

export interface RuleOptions {
  now: Date;
  expectedNetwork?: Network;
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function isKnownNetwork(network: string): network is Network {
  return network === 'main' || network === 'test';
}

/** Quotes untrusted text for a sentence, shortened and with control characters made visible. */
export function quote(text: string, max = 40): string {
  const clean = text.replace(/\p{Cc}/gu, '\uFFFD');
  return JSON.stringify(clean.length > max ? `${clean.slice(0, max)}…` : clean);
}

export function checkRules(
  request: PaymentRequest,
  details: PaymentDetails,
  options: RuleOptions,
): RuleFindings {
  const reasons: string[] = [];
  const warnings: string[] = [];

  if (request.version !== 1) {
    reasons.push(t('payVersionUnknown', request.version));
  }

  const known = isKnownNetwork(details.network);
  if (!known) {
    reasons.push(t('payNetworkUnknown', quote(details.network)));
  }
  let networkMatches: boolean | undefined;
  if (known && options.expectedNetwork) {
    networkMatches = details.network === options.expectedNetwork;
    if (!networkMatches) {
      warnings.push(t(details.network === 'test' ? 'payNetworkTestUnexpected' : 'payNetworkMainUnexpected'));
    }
  } else if (known && details.network === 'test') {
    warnings.push(t('payNetworkTest'));
  }

  const outputs: EvaluatedOutput[] = details.outputs.map((output) => {
    const info = known
      ? describeScript(output.script, details.network as Network)
      : { type: 'custom' as const };
    const evaluated: EvaluatedOutput = { amount: output.amount, script: hex(output.script), type: info.type };
    if (info.address !== undefined) evaluated.address = info.address;
    return evaluated;
  });

  if (outputs.length === 0) reasons.push(t('payNoOutputs'));
  let total = 0n;
  outputs.forEach((output, i) => {
    if (output.amount > MAX_MONEY) {
      reasons.push(t('payOutputTooMuch', i + 1, formatBtcForPeople(output.amount)));
    }
    total += output.amount;
    if (output.type === 'custom') {
      warnings.push(t('payOutputCustom', i + 1, output.script.slice(0, 16) || t('payEmpty')));
    }
  });
  if (total > MAX_MONEY && outputs.every((output) => output.amount <= MAX_MONEY)) {
    reasons.push(t('payTotalTooMuch', formatBtcForPeople(total)));
  }

  const expired = isExpired(details.expires, options.now);
  if (expired) {
    warnings.push(t('payExpiredDoNotPay', formatTime(details.expires!)));
  }

  if (details.paymentUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(details.paymentUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      warnings.push(t('payPaymentUrlNotWeb'));
    } else if (url.protocol === 'http:') {
      warnings.push(t('payPaymentUrlPlainHttp'));
    }
  }

  const result: EvaluatedDetails = {
    network: details.network,
    outputs,
    total,
    time: details.time,
    unknownFieldCount:
      details.unknownFields.length +
      request.unknownFields.length +
      details.outputs.reduce((n, output) => n + output.unknownFields.length, 0),
  };
  if (details.expires !== undefined) result.expires = details.expires;
  if (details.memo !== undefined) result.memo = details.memo;
  if (details.paymentUrl !== undefined) result.paymentUrl = details.paymentUrl;
  if (details.merchantData !== undefined) result.merchantData = details.merchantData;

  const findings: RuleFindings = { details: result, reasons, warnings, expired };
  if (networkMatches !== undefined) findings.networkMatches = networkMatches;
  return findings;
}
