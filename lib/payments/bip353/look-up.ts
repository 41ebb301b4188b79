/**
 * Looking a name up when the person asks: a `₿user@domain` as a BIP 353 name only; a plain
 * `user@domain` as a BIP 353 name first and, when that gives no answer the chain vouches for, as a
 * Lightning Address (BIP 353 "Backwards Compatibility" allows that fallback), saying which one
 * answered and why the name did not. Records a resolver gave that fail their check are never
 * used: the fallback asks the Lightning Address's own site instead.
 */
import { lnurlRequest } from '../check';
import { isPaymentError, type PaymentError } from '../errors';
import type { LnurlPayParams, LnurlTarget } from '../lnurl';
import type { LnurlSource } from '../page-input';
import type { CheckedRequest } from '../request';
import type { Bip353Name } from './name';
import type { NameSource } from './source';

export interface NameLookUpDeps {
  /** The name through the resolver: `problem` set when its records did not hold. */
  resolve: (name: Bip353Name) => Promise<{ checked: CheckedRequest; problem?: PaymentError }>;
  /** The Lightning Address's terms (LUD-16). */
  lightning: (target: LnurlTarget) => Promise<LnurlPayParams>;
  now: Date;
}

export async function lookUpName(
  source: NameSource | (LnurlSource & { name: Bip353Name }),
  deps: NameLookUpDeps,
): Promise<CheckedRequest> {
  if (source.kind === 'name') return (await deps.resolve(source.name)).checked;
  let why: string;
  try {
    const named = await deps.resolve(source.name);
    if (!named.problem) return { ...named.checked, lookup: { answeredBy: 'bip353' } };
    why = named.problem.message;
  } catch (error) {
    // The resolver did not answer: the Lightning Address may still.
    if (!isPaymentError(error) || error.code !== 'unreachable') throw error;
    why = error.message;
  }
  const params = await deps.lightning(source.target);
  return {
    ...lnurlRequest(source.target, params, undefined, deps.now),
    lookup: { answeredBy: 'lightning-address', why },
  };
}
