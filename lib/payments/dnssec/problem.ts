// A DNSSEC chain that does not hold, as one error with the rule it broke and a sentence.
import { PaymentError } from '../errors';
import { type Name, nameText } from './wire';

/** Which rule a chain broke. `proven`: something was shown false (a signature, a digest), not only missing. */
export type DnssecProblem =
  | 'unreadable'
  | 'no-record'
  | 'unsigned'
  | 'bad-signature'
  | 'expired'
  | 'not-yet'
  | 'algorithm'
  | 'rsa-short'
  | 'no-key'
  | 'no-dnskey'
  | 'no-ds'
  | 'ds-mismatch'
  | 'no-anchor'
  | 'wildcard'
  | 'nsec3-iterations'
  | 'too-many-steps'
  | 'too-much-work';

const PROVEN_FALSE = new Set<DnssecProblem>([
  'unreadable',
  'bad-signature',
  'ds-mismatch',
  'no-anchor',
  'too-much-work',
]);

export class DnssecError extends PaymentError {
  readonly problem: DnssecProblem;
  constructor(problem: DnssecProblem, message: string) {
    super('dnssec', message, { detail: problem });
    this.problem = problem;
  }
  /** Records were shown to be false, not only missing or out of date. */
  get proven(): boolean {
    return PROVEN_FALSE.has(this.problem);
  }
}

/** A name as people read it: without the final dot, the root as ".". */
export const displayName = (name: Name) => (name.length === 0 ? '.' : nameText(name).slice(0, -1));
