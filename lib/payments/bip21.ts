import { t } from '../i18n';
import { addressFitsChain, type Chain, type DecodedAddress, decodeAddress } from './addresses';
import { formatAmountForPeople } from './amounts';
import { decodeBolt11 } from './bolt11';
import { decodeBolt12 } from './bolt12';
import { isPaymentError } from './errors';
import { formatTime, unixSeconds } from './expiry';
import { parseLnurl } from './lnurl';
import {
  type Amount,
  type Bip21Details,
  type CheckedRequest,
  chainName,
  networkWarning,
  nodeSigner,
  verdictOf,
} from './request';
import { type BitcoinUri, bitcoinUriText, parseBitcoinUri } from './uri';
import { quote } from './verdict';

/**
 * Judging a `bitcoin:` URI (BIP 21 / BIP 321): its address checked (checksum, type, network),
 * `bc=`/`tb=` addresses matched to their key's network, `lightning=` invoices decoded and
 * verified, `lno=` offers read (bolt12.ts), networks and amounts compared, unknown `req-`
 * parameters refused. `sp=`, `pj=` and `pay=` are shown, not acted on. A URI with `r=` is a
 * BIP70 request to fetch.
 *
 * Verdict: "verified" only when everything it offers to pay is a Lightning invoice whose
 * signature holds (no address or offer to pay that nothing signs); "unsigned" for a plain address.
 */

const SEGWIT_KEYS = { bc: 'main', tb: 'test', bcrt: 'regtest' } as const;

/** Schemes a proof-of-payment link must not use: they open in a browser and reveal the payer. */
const BROWSER_SCHEMES = [
  'http',
  'https',
  'file',
  'javascript',
  'mailto',
  'data',
  'blob',
  'ftp',
  'ws',
  'wss',
  'about',
];

function popOpensInBrowser(uri: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri.trim())?.[1]?.toLowerCase();
  return scheme === undefined || BROWSER_SCHEMES.includes(scheme);
}

interface Findings {
  reasons: string[];
  warnings: string[];
  details: Bip21Details;
}

function readAddresses(uri: BitcoinUri, found: Findings): void {
  if (uri.address !== undefined) {
    try {
      found.details.address = decodeAddress(uri.address);
    } catch (error) {
      if (!isPaymentError(error)) throw error;
      found.reasons.push(error.message);
    }
  }
  for (const key of ['bc', 'tb', 'bcrt'] as const) {
    for (const value of uri.instructions[key]) {
      let address: DecodedAddress;
      try {
        address = decodeAddress(value);
      } catch (error) {
        if (!isPaymentError(error)) throw error;
        found.reasons.push(error.message);
        continue;
      }
      const segwit = address.type !== 'p2pkh' && address.type !== 'p2sh';
      if (!segwit || address.prefixNetwork !== SEGWIT_KEYS[key])
        found.reasons.push(t('payUriSegwitKey', quote(value, 100), key));
      else found.details.segwit.push(address);
    }
  }
}

/** Reads a value with its decoder; what the decoder refuses becomes a reason. */
function readInto(found: Findings, read: () => void): void {
  try {
    read();
  } catch (error) {
    if (!isPaymentError(error)) throw error;
    found.reasons.push(error.message);
  }
}

function readLightning(uri: BitcoinUri, found: Findings): void {
  for (const value of uri.instructions.lightning) {
    readInto(found, () => {
      if (/^(lightning:)?lnurl/i.test(value)) found.details.lnurl ??= parseLnurl(value);
      else found.details.invoices.push(decodeBolt11(value));
    });
  }
  for (const value of uri.instructions.lno)
    readInto(found, () => found.details.offers.push(decodeBolt12(value)));
}

/** Every address, invoice and offer must be for one network; returns it. */
function commonNetwork(found: Findings): Chain | undefined {
  const { address, segwit, invoices, offers } = found.details;
  const addresses = [...(address ? [address] : []), ...segwit];
  const lightning = [...invoices, ...offers];
  for (const { network } of lightning) {
    for (const a of addresses) {
      if (!addressFitsChain(a, network))
        found.reasons.push(t('payUriNetworkMismatch', quote(a.address, 100), chainName(network)));
    }
    if (network !== lightning[0]!.network) found.reasons.push(t('payUriInvoicesNetworks'));
  }
  for (const a of addresses) {
    if (a.prefixNetwork !== addresses[0]!.prefixNetwork && lightning.length === 0)
      found.reasons.push(
        t('payUriNetworkMismatch', quote(a.address, 100), chainName(addresses[0]!.prefixNetwork)),
      );
  }
  return lightning[0]?.network ?? addresses[0]?.prefixNetwork;
}

/** Expired invoices and offers, and amounts in millisatoshis that differ from the URI's. */
function compareInvoices(uri: BitcoinUri, found: Findings, now: Date): void {
  const { invoices, offers } = found.details;
  for (const invoice of invoices) {
    if (invoice.expiresAt < unixSeconds(now))
      found.warnings.push(t('payInvoiceExpired', formatTime(invoice.expiresAt)));
  }
  for (const { absoluteExpiry } of offers) {
    if (absoluteExpiry !== undefined && absoluteExpiry < unixSeconds(now))
      found.warnings.push(t('payOfferExpired', formatTime(absoluteExpiry)));
  }
  if (uri.amount === undefined) return;
  const amounts = [
    ...invoices.map((invoice) => invoice.amountMsat),
    ...offers.map((offer) => (offer.currency ? undefined : offer.amount)),
  ];
  for (const msat of amounts) {
    if (msat !== undefined && msat !== uri.amount * 1000n) {
      found.warnings.push(
        t(
          'payUriAmountMismatch',
          formatAmountForPeople({ value: uri.amount, unit: 'sat' }),
          formatAmountForPeople({ value: msat, unit: 'msat' }),
        ),
      );
    }
  }
}

/** The amount a URI asks for: its own, else its first invoice's, else its first offer's. */
function amountOf(uri: BitcoinUri, { invoices, offers }: Bip21Details): Amount | undefined {
  if (uri.amount !== undefined) return { value: uri.amount, unit: 'sat' };
  const invoice = invoices.find((i) => i.amountMsat !== undefined);
  if (invoice) return { value: invoice.amountMsat!, unit: 'msat' };
  const offer = offers.find((o) => o.amount !== undefined);
  return offer ? { value: offer.amount!, unit: offer.currency ?? 'msat' } : undefined;
}

/** Judges a parsed URI at `now` (invoice expiry). */
export function checkBitcoinUri(uri: BitcoinUri, now: Date): CheckedRequest {
  const found: Findings = {
    reasons: [],
    warnings: [],
    details: { uri, segwit: [], invoices: [], offers: [], presentOnly: [] },
  };
  if (uri.unknownRequired.length > 0)
    found.reasons.push(t('payInputRequires', uri.unknownRequired.join(', ').slice(0, 80)));
  readAddresses(uri, found);
  readLightning(uri, found);
  for (const key of ['sp', 'pay'] as const)
    for (const value of uri.instructions[key]) found.details.presentOnly.push({ key, value });
  if (uri.pj !== undefined) found.details.presentOnly.push({ key: 'pj', value: uri.pj });
  if (uri.amount === 0n) found.reasons.push(t('payUriAmountZero'));
  if (uri.pop && popOpensInBrowser(uri.pop.uri)) {
    if (uri.pop.required) found.reasons.push(t('payUriPopRequired'));
    else found.warnings.push(t('payUriPopIgnored'));
  }
  const { address, segwit, invoices, offers, lnurl, presentOnly } = found.details;
  const payable =
    address ||
    segwit.length ||
    invoices.length ||
    offers.length ||
    lnurl ||
    presentOnly.some((p) => p.key !== 'pj');
  if (!payable && uri.r === undefined && found.reasons.length === 0) found.reasons.push(t('payUriNothing'));
  const network = commonNetwork(found);
  compareInvoices(uri, found, now);

  // Signed only when nothing but verified invoices is offered (an offer is not signed).
  const onlyInvoices =
    invoices.length > 0 &&
    !address &&
    segwit.length === 0 &&
    offers.length === 0 &&
    !lnurl &&
    presentOnly.length === 0;
  const verdict = verdictOf(found.reasons, onlyInvoices && uri.r === undefined);
  const first = invoices[0];
  const expiresAt = onlyInvoices ? first!.expiresAt : undefined;
  const expired = expiresAt !== undefined && expiresAt < unixSeconds(now);
  const amount = amountOf(uri, found.details);
  const payee =
    address?.address ??
    segwit[0]?.address ??
    first?.payeeNodeKey ??
    offers[0]?.issuerId ??
    lnurl?.label ??
    presentOnly[0]?.value;
  const checked: CheckedRequest = {
    kind: 'bip21',
    verdict,
    reasons: found.reasons,
    warnings: [...networkWarning(network), ...found.warnings, ...(lnurl?.warnings ?? [])],
    expired,
    bip21: found.details,
  };
  if (network) checked.network = network;
  if (amount) checked.amount = amount;
  if (payee) checked.payee = payee;
  const description = uri.message ?? (onlyInvoices ? first!.description : undefined);
  if (description !== undefined) checked.description = description;
  if (onlyInvoices) {
    checked.signer = nodeSigner(first!);
    checked.createdAt = first!.timestamp;
    checked.expiresAt = expiresAt!;
  }
  if (verdict !== 'invalid') {
    checked.handOff = { uri: bitcoinUriText(uri) };
    if (address) checked.handOff.address = address.address;
    if (amount) checked.handOff.amount = amount;
  }
  return checked;
}

/** Reads and judges `bitcoin:` text; an unreadable URI is an invalid request with the reason. */
export function checkBitcoinUriText(text: string, now: Date): CheckedRequest {
  let uri: BitcoinUri;
  try {
    uri = parseBitcoinUri(text);
  } catch (error) {
    if (!isPaymentError(error)) throw error;
    return { kind: 'bip21', verdict: 'invalid', reasons: [error.message], warnings: [], expired: false };
  }
  return checkBitcoinUri(uri, now);
}
