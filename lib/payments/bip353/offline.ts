/**
 * A BIP 353 name judged offline (the command without a look-up): nothing is known until its
 * records are checked, so it is unsigned and says so. (A name that cannot be one is refused by the
 * parser, read.ts, and judged invalid with its reason by check.ts.)
 */
import { t } from '../../i18n';
import type { CheckedRequest } from '../request';
import type { Bip353Name } from './name';

export function nameNotLookedUp(name: Bip353Name): CheckedRequest {
  return {
    kind: 'bip353',
    verdict: 'unsigned',
    reasons: [],
    warnings: [t('payNameNotLookedUp', name.display)],
    expired: false,
    payee: name.display,
    bip353: { name: name.display, via: 'resolver' },
  };
}
