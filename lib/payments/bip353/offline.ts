/**
 * A BIP 353 name judged offline (the command without a look-up): nothing is known until its
 * records are checked, so it is unsigned and says so; a name that cannot be one is invalid.
 */
import { t } from '../../i18n';
import { isPaymentError } from '../errors';
import type { CheckedRequest } from '../request';
import { parseBip353Name } from './name';

export function nameNotLookedUp(text: string): CheckedRequest {
  try {
    const name = parseBip353Name(text);
    return {
      kind: 'bip353',
      verdict: 'unsigned',
      reasons: [],
      warnings: [t('payNameNotLookedUp', name.display)],
      expired: false,
      payee: name.display,
      bip353: { name: name.display, via: 'resolver' },
    };
  } catch (error) {
    if (!isPaymentError(error)) throw error;
    return { kind: 'bip353', verdict: 'invalid', reasons: [error.message], warnings: [], expired: false };
  }
}
