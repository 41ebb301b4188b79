/**
 * BIP 353 names: `₿user@domain` (or `user@domain`, which is also a Lightning Address), whose
 * payment instructions are a TXT record at `user.user._bitcoin-payment.domain`. Only printable
 * ASCII is read (BIP 353: a wallet that takes no precautions against look-alike letters shows
 * punycode, so a non-ASCII name must be typed as its `xn--` form).
 */
import { t } from '../../i18n';
import { type Name, nameFromText, nameWire } from '../dnssec/wire';
import { PaymentError } from '../errors';

export const BITCOIN_SIGN = '₿';

export interface Bip353Name {
  /** Lower case, as looked up. */
  user: string;
  domain: string;
  /** `₿user@domain`, how BIP 353 says to show a name. */
  display: string;
  /** `user.user._bitcoin-payment.domain.` */
  dnsName: Name;
}

/** Labels of the user part: a DNS label's usual letters, and "+" as in many mail names. */
const USER_LABEL = /^[a-z0-9_+-]{1,63}$/;
/** Labels of the domain: letters, digits, "-", and "_" (the BIP's own test domain has one). */
const DOMAIN_LABEL = /^[a-z0-9_-]{1,63}$/;

/** Reads `₿user@domain` or `user@domain`; throws PaymentError('bad-input') saying what is wrong. */
export function parseBip353Name(input: string): Bip353Name {
  let text = input.trim();
  if (text.startsWith(BITCOIN_SIGN)) text = text.slice(BITCOIN_SIGN.length);
  const shown = text.slice(0, 100);
  if (!/^[\x21-\x7e]+$/.test(text)) throw new PaymentError('bad-input', t('payNameNotAscii', shown));
  const at = text.indexOf('@');
  if (at <= 0 || at !== text.lastIndexOf('@')) throw new PaymentError('bad-input', t('payNameForm', shown));
  const user = text.slice(0, at).toLowerCase();
  const domain = text
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, '');
  const userOk = user.split('.').every((label) => USER_LABEL.test(label));
  const domainLabels = domain.split('.');
  const domainOk = domainLabels.length >= 2 && domainLabels.every((label) => DOMAIN_LABEL.test(label));
  if (!userOk || !domainOk) throw new PaymentError('bad-input', t('payNameForm', shown));
  const dnsName = nameFromText(`${user}.user._bitcoin-payment.${domain}`);
  if (nameWire(dnsName).length > 255) throw new PaymentError('bad-input', t('payNameForm', shown));
  return { user, domain, display: `${BITCOIN_SIGN}${user}@${domain}`, dnsName };
}

/** For a plain `user@domain`: the BIP 353 name it also is, when it is one. */
export function alsoName(text: string): { name?: Bip353Name } {
  try {
    return { name: parseBip353Name(text) };
  } catch {
    return {};
  }
}
