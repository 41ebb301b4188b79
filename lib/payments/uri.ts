import { t } from '../i18n';
import { formatBtc, parseBtc } from './btc';
import { PaymentError } from './errors';
import { MAX_MONEY } from './limits';

/**
 * `bitcoin:` URIs (BIP 21 and its successor BIP 321, with BIP 72's `r=`). Reading here is syntax
 * only (what the URI says); whether its address, invoice and networks hold up is bip21.ts's to
 * judge. Whether a link is a payment link at all is forms.ts's to say.
 */

/** Query keys that carry a way to pay (BIP 321); each may appear more than once. */
export const INSTRUCTION_KEYS = ['lightning', 'lno', 'sp', 'pay', 'bc', 'tb', 'bcrt'] as const;
export type InstructionKey = (typeof INSTRUCTION_KEYS)[number];

/** Keys that must not appear twice (BIP 321: label, message, pop; amount by its examples; r and pj by sense). */
const SINGLE_KEYS = ['amount', 'label', 'message', 'pop', 'r', 'pj'];

export interface BitcoinUri {
  /** The address part; may be empty (BIP 72 `bitcoin:?r=…`, BIP 321 instructions only). */
  address?: string;
  /** In satoshis. */
  amount?: bigint;
  label?: string;
  message?: string;
  /** BIP72 payment request URL (percent-decoded). */
  r?: string;
  /** BIP 78 payjoin endpoint. */
  pj?: string;
  /** BIP 321 proof of payment: where a wallet reports back, and whether paying depends on it. */
  pop?: { uri: string; required: boolean };
  /** Payment instructions by key, in their order (BIP 321 `lightning`, `lno`, `sp`, …). */
  instructions: Record<InstructionKey, string[]>;
  /** Every parameter in order, keys in lower case, percent-decoded. */
  entries: [string, string][];
  /** Every parameter, percent-decoded (the last one wins on repeats). */
  params: Record<string, string>;
  /** `req-*` parameters we do not understand: the URI must then be refused for paying. */
  unknownRequired: string[];
}

/** `why` is the end of the sentence ("it contains a broken %-escape"). */
function badUri(why: string): PaymentError {
  return new PaymentError('bad-uri', t('payUriUnreadable', why));
}

function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw badUri(t('payUriEscape'));
  }
}

const emptyInstructions = (): Record<InstructionKey, string[]> => ({
  lightning: [],
  lno: [],
  sp: [],
  pay: [],
  bc: [],
  tb: [],
  bcrt: [],
});

/**
 * Parses a `bitcoin:` URI. Throws PaymentError('bad-uri') with the reason when it cannot be read:
 * a broken escape, an address part that is no address, an amount that is not plain decimal
 * bitcoin (no sign, no exponent, at most 8 decimals, at most 21 million), or a parameter that
 * must appear once appearing twice. Query keys are case-insensitive (BIP 321).
 */
export function parseBitcoinUri(text: string): BitcoinUri {
  const trimmed = text.trim();
  if (!/^bitcoin:/i.test(trimmed)) throw badUri(t('payUriScheme'));
  let rest = trimmed.slice('bitcoin:'.length);
  // Tolerate the "bitcoin://address" form some sites write.
  if (rest.startsWith('//')) rest = rest.slice(2);
  const hashAt = rest.indexOf('#');
  if (hashAt >= 0) rest = rest.slice(0, hashAt);
  const queryAt = rest.indexOf('?');
  const addressPart = queryAt >= 0 ? rest.slice(0, queryAt) : rest;
  const query = queryAt >= 0 ? rest.slice(queryAt + 1) : '';

  const uri: BitcoinUri = {
    instructions: emptyInstructions(),
    entries: [],
    params: {},
    unknownRequired: [],
  };
  const address = percentDecode(addressPart).replace(/\/$/, '');
  if (address !== '') {
    if (!/^[a-zA-Z0-9]{14,90}$/.test(address)) throw badUri(t('payUriAddress'));
    uri.address = address;
  }
  const seen = new Set<string>();
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = percentDecode(eq >= 0 ? pair.slice(0, eq) : pair).toLowerCase();
    const value = percentDecode(eq >= 0 ? pair.slice(eq + 1) : '');
    // pop and req-pop are one parameter (BIP 321).
    const single = key === 'req-pop' ? 'pop' : key;
    if (SINGLE_KEYS.includes(single)) {
      if (seen.has(single)) throw badUri(t('payUriTwice', key.slice(0, 30)));
      seen.add(single);
    }
    uri.entries.push([key, value]);
    uri.params[key] = value;
    switch (key) {
      case 'amount': {
        const amount = parseBtc(value);
        if (amount === undefined || amount > MAX_MONEY) throw badUri(t('payUriAmount', value.slice(0, 30)));
        uri.amount = amount;
        break;
      }
      case 'label':
        uri.label = value;
        break;
      case 'message':
        uri.message = value;
        break;
      case 'r':
        uri.r = value;
        break;
      case 'pj':
        uri.pj = value;
        break;
      case 'pop':
      case 'req-pop':
        uri.pop = { uri: value, required: key === 'req-pop' };
        break;
      default:
        if ((INSTRUCTION_KEYS as readonly string[]).includes(key))
          uri.instructions[key as InstructionKey].push(value);
        else if (key.startsWith('req-')) uri.unknownRequired.push(key);
    }
  }
  return uri;
}

/** The URI again, from what was read: the address, then every parameter in its order. */
export function bitcoinUriText(uri: BitcoinUri): string {
  const params = uri.entries.map(([key, value]) =>
    key === 'amount' && uri.amount !== undefined
      ? `amount=${formatBtc(uri.amount)}`
      : `${encodeURIComponent(key)}=${encodeURIComponent(value)}`,
  );
  return `bitcoin:${uri.address ?? ''}${params.length ? `?${params.join('&')}` : ''}`;
}

/** Builds a BIP21 URI for a wallet (QR code, "open in wallet"), amount in satoshis. */
export function bitcoinUriFor(
  address: string,
  amount?: bigint,
  extra: { label?: string; message?: string } = {},
): string {
  const params: string[] = [];
  if (amount !== undefined && amount > 0n) params.push(`amount=${formatBtc(amount)}`);
  if (extra.label) params.push(`label=${encodeURIComponent(extra.label)}`);
  if (extra.message) params.push(`message=${encodeURIComponent(extra.message)}`);
  return `bitcoin:${address}${params.length ? `?${params.join('&')}` : ''}`;
}
