import { t } from '../i18n';
import { alsoName, type Bip353Name, parseBip353Name } from './bip353/name';
import { isPaymentError, PaymentError } from './errors';
import { httpUrl, paymentFormOf, type RequestForm } from './forms';
import { type LnurlTarget, parseLnurl } from './lnurl-target';
import { type BitcoinUri, parseBitcoinUri } from './uri';

/**
 * The parser: request text read once, in the form forms.ts's classifier names. What it reads is
 * syntax (a bitcoin: URI's parameters, where an LNURL's terms are, a request's web address); the
 * decoders that judge a request (bip21.ts, bolt11.ts, bolt12.ts, bip70's verify.ts) take it from
 * here; a BIP 353 name's records are looked up and checked in bip353/. The payment page, the hand-off from a page and the command line all read text through this one
 * function, so a request read twice (once where it arrives, again where it is shown) is read the
 * same way both times.
 *
 * Text of no form Hushdrop reads is refused with PaymentError('bad-input'); text of a known form
 * that cannot be read (a broken bitcoin: URI, an LNURL that decodes to nothing) comes back with
 * the refusal as `unreadable`, to be shown as an invalid request with its reason.
 */
export type ReadPayment = { text: string } & (
  | { form: 'bip21'; uri: BitcoinUri }
  | { form: 'bolt11' | 'bolt12' }
  /** `name`: a plain user@domain is also a BIP 353 name, asked first when it is looked up. */
  | { form: 'lnurl'; target: LnurlTarget; name?: Bip353Name }
  | { form: 'bip353'; name: Bip353Name }
  | { form: 'bip70'; url: string }
  | { form: Extract<RequestForm, 'bip21' | 'lnurl' | 'bip353'>; unreadable: PaymentError }
);

/** PaymentErrors become `unreadable`; anything else is a bug and is thrown on. */
function readOrRefusal<T>(read: () => T): T | { unreadable: PaymentError } {
  try {
    return read();
  } catch (error) {
    if (!isPaymentError(error)) throw error;
    return { unreadable: error };
  }
}

/**
 * Reads request text: a bitcoin: URI, a Lightning invoice or offer, an LNURL or name@domain, a
 * ₿name@domain, a web address.
 */
export function readPayment(input: string): ReadPayment {
  const text = input.trim();
  const form = paymentFormOf(text);
  switch (form) {
    case 'bip21': {
      const read = readOrRefusal(() => ({ uri: parseBitcoinUri(text) }));
      return { form, text, ...read };
    }
    // Invoices and offers are read by their decoders, which judge them as they read.
    case 'bolt11':
    case 'bolt12':
      return { form, text };
    case 'lnurl': {
      const read = readOrRefusal(() => {
        const target = parseLnurl(text);
        // A lightning: link names a Lightning Address only.
        const plain = target.form === 'address' && !/^lightning:/i.test(text);
        return { target, ...(plain ? alsoName(text) : {}) };
      });
      return { form, text, ...read };
    }
    case 'bip353': {
      const read = readOrRefusal(() => ({ name: parseBip353Name(text) }));
      return { form, text, ...read };
    }
    case 'bip70': {
      const url = httpUrl(text);
      if (url) return { form, text, url: url.href };
    }
  }
  throw new PaymentError('bad-input', t('payInputNotLink'));
}
