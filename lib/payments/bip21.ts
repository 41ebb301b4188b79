import { t } from '../i18n';
import { addressFitsChain, type Chain, type DecodedAddress, decodeAddress } from './addresses';
import { formatAmountForPeople } from './amounts';
import { type Bolt11Invoice, decodeBolt11 } from './bolt11';
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
 * verified, networks and amounts compared, unknown `req-` parameters refused. `lno=`, `sp=`,
 * `pj=` and `pay=` are shown, not acted on. A URI with `r=` is a BIP70 request to fetch.
 *
 * Verdict: "verified" only when everything it offers to pay is a Lightning invoice whose
 * signature holds (no address to pay that nothing signs); "unsigned" for a plain address.
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

function readLightning(uri: BitcoinUri, found: Findings): void {
  for (const value of uri.instructions.lightning) {
    try {
      if (/^(lightning:)?lnurl/i.test(value)) found.details.lnurl ??= parseLnurl(value);
      else found.details.invoices.push(decodeBolt11(value));
    } catch (error) {
      if (!isPaymentError(error)) throw error;
      found.reasons.push(error.message);
    }
  }
}

/** Every address and invoice must be for one network; returns it. */
function commonNetwork(found: Findings): Chain | undefined {
  const { address, segwit, invoices } = found.details;
  const addresses = [...(address ? [address] : []), ...segwit];
  for (const invoice of invoices) {
    for (const a of addresses) {
      if (!addressFitsChain(a, invoice.network))
        found.reasons.push(t('payUriNetworkMismatch', quote(a.address, 100), chainName(invoice.network)));
    }
    if (invoice.network !== invoices[0]!.network) found.reasons.push(t('payUriInvoicesNetworks'));
  }
  for (const a of addresses) {
    if (a.prefixNetwork !== addresses[0]!.prefixNetwork && invoices.length === 0)
      found.reasons.push(
        t('payUriNetworkMismatch', quote(a.address, 100), chainName(addresses[0]!.prefixNetwork)),
      );
  }
  return invoices[0]?.network ?? addresses[0]?.prefixNetwork;
}

function compareInvoices(uri: BitcoinUri, invoices: Bolt11Invoice[], found: Findings, now: Date): void {
  for (const invoice of invoices) {
    if (invoice.expiresAt < unixSeconds(now))
      found.warnings.push(t('payInvoiceExpired', formatTime(invoice.expiresAt)));
  }
  if (uri.amount === undefined) return;
  for (const invoice of invoices) {
    if (invoice.amountMsat !== undefined && invoice.amountMsat !== uri.amount * 1000n) {
      found.warnings.push(
        t(
          'payUriAmountMismatch',
          formatAmountForPeople({ value: uri.amount, unit: 'sat' }),
          formatAmountForPeople({ value: invoice.amountMsat, unit: 'msat' }),
        ),
      );
    }
  }
}

/** Judges a parsed URI at `now` (invoice expiry). */
export function checkBitcoinUri(uri: BitcoinUri, now: Date): CheckedRequest {
  const found: Findings = {
    reasons: [],
    warnings: [],
    details: { uri, segwit: [], invoices: [], presentOnly: [] },
  };
  if (uri.unknownRequired.length > 0)
    found.reasons.push(t('payInputRequires', uri.unknownRequired.join(', ').slice(0, 80)));
  readAddresses(uri, found);
  readLightning(uri, found);
  for (const key of ['lno', 'sp', 'pay'] as const)
    for (const value of uri.instructions[key]) found.details.presentOnly.push({ key, value });
  if (uri.pj !== undefined) found.details.presentOnly.push({ key: 'pj', value: uri.pj });
  if (uri.amount === 0n) found.reasons.push(t('payUriAmountZero'));
  if (uri.pop && popOpensInBrowser(uri.pop.uri)) {
    if (uri.pop.required) found.reasons.push(t('payUriPopRequired'));
    else found.warnings.push(t('payUriPopIgnored'));
  }
  const { address, segwit, invoices, lnurl, presentOnly } = found.details;
  const payable =
    address || segwit.length || invoices.length || lnurl || presentOnly.some((p) => p.key !== 'pj');
  if (!payable && uri.r === undefined && found.reasons.length === 0) found.reasons.push(t('payUriNothing'));
  const network = commonNetwork(found);
  compareInvoices(uri, invoices, found, now);

  // Signed only when nothing but verified invoices is offered.
  const onlyInvoices =
    invoices.length > 0 && !address && segwit.length === 0 && !lnurl && presentOnly.length === 0;
  const verdict = verdictOf(found.reasons, onlyInvoices && uri.r === undefined);
  const first = invoices[0];
  const expiresAt = onlyInvoices ? first!.expiresAt : undefined;
  const expired = expiresAt !== undefined && expiresAt < unixSeconds(now);
  const amount: Amount | undefined =
    uri.amount !== undefined
      ? { value: uri.amount, unit: 'sat' }
      : first?.amountMsat !== undefined
        ? { value: first.amountMsat, unit: 'msat' }
        : undefined;
  const payee =
    address?.address ?? segwit[0]?.address ?? first?.payeeNodeKey ?? lnurl?.label ?? presentOnly[0]?.value;
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
