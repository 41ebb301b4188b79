import { t } from '../i18n';
import type { Chain, DecodedAddress } from './addresses';
import type { Bolt11Invoice } from './bolt11';
import type { Bolt12Offer } from './bolt12';
import type { CurrencyCode } from './currency';
import type { LnurlPayParams, LnurlTarget } from './lnurl';
import type { BitcoinUri } from './uri';
import type { Verdict } from './verdict';
import type { PaymentRequestEvaluation } from './verify';

/**
 * One model for a payment request, whatever it came as: a `bitcoin:` URI (BIP 21/321), a
 * Lightning invoice (BOLT 11), a Lightning offer (BOLT 12), an LNURL-pay link or Lightning
 * Address, a BIP70 request, or a BIP 353 name. The payment page, the history and the command-line
 * check all show this; the kind-specific part (`bip21`, `bolt11`, `bolt12`, `lnurl`, `bip70`,
 * `bip353`) holds everything else the source said.
 *
 * Verdicts, the same for every kind: "verified" — a signature was checked and covers what would
 * be paid (a BIP70 certificate chain; a BOLT 11 invoice's node signature, against `n` when
 * given); "unsigned" — nothing to check (a plain address); "invalid" — a rule is broken, with
 * the reasons. A node's signature proves which Lightning node asks, never which shop. An offer is
 * unsigned: the invoice a wallet asks for is signed by the key it names.
 */

export type RequestKind = 'bip21' | 'bolt11' | 'bolt12' | 'lnurl' | 'bip70' | 'bip353';

/**
 * An exact amount in the unit the request uses: bitcoin's, or (a BOLT 12 offer's) another
 * currency's smallest unit, named by its ISO 4217 code.
 */
export interface Amount {
  value: bigint;
  unit: 'sat' | 'msat' | CurrencyCode;
}

export type Signer =
  /** A Lightning node; `named`: the invoice named it (n) and the signature was verified against it. */
  | { kind: 'node'; nodeKey: string; named: boolean }
  /** A BIP70 merchant certificate that chains to a trusted root. */
  | { kind: 'certificate'; name: string; issuer: string; trustAnchor: string; organization?: string }
  /** A BIP 353 name whose TXT record a DNSSEC chain signs, `zones` from the root down. */
  | { kind: 'dnssec'; name: string; zones: string[] };

/** How the request goes to a wallet: the link (also as QR code), and what to copy. */
export interface WalletHandOff {
  uri: string;
  address?: string;
  amount?: Amount;
  invoice?: string;
  /** A Lightning offer to copy on its own. */
  offer?: string;
}

export interface Bip21Details {
  uri: BitcoinUri;
  /** The address part, read and checked. */
  address?: DecodedAddress;
  /** Segwit addresses given as `bc=`/`tb=`/`bcrt=` instructions. */
  segwit: DecodedAddress[];
  /** `lightning=` invoices that decoded and whose signature holds. */
  invoices: Bolt11Invoice[];
  /** `lno=` offers (BIP 321) that read and pass the spec's reader requirements. */
  offers: Bolt12Offer[];
  /** A `lightning=` LNURL (LUD-01's fallback form), looked up only when asked. */
  lnurl?: LnurlTarget;
  /** Instructions shown as present, not acted on: silent payments, payjoin, BIP 351. */
  presentOnly: { key: 'sp' | 'pj' | 'pay'; value: string }[];
}

export interface LnurlDetails {
  target: LnurlTarget;
  /** Once looked up. */
  params?: LnurlPayParams;
  /** With an invoice: where the service says whether it was paid (LUD-21), on the terms' origin. */
  verify?: string;
}

/** A BIP 353 name (bip353/): what was looked up, and what its DNSSEC chain vouched for. */
export interface Bip353Details {
  /** `₿user@domain`. */
  name: string;
  /** How the records came: a DNSSEC proof handed over, or asked of a DNS-over-HTTPS resolver. */
  via: 'proof' | 'resolver';
  /** The resolver's address, when one was asked. */
  resolver?: string;
  /** The TXT record's bitcoin: URI, read as any URI is. Absent when the name did not hold. */
  payment?: CheckedRequest;
  uri?: string;
  /** The zones whose signatures were checked, root first. */
  zones?: string[];
  /** The name asked, then each name a CNAME or DNAME led to. */
  path?: string[];
  /** The earliest expiry of a signature used, in seconds since 1970. */
  signaturesUntil?: bigint;
  /** The lowest TTL in the chain, in seconds: how long BIP 353 lets the answer be kept. */
  ttl?: number;
  /** The record, or an alias on the way, came from a wildcard. */
  wildcard?: boolean;
}

/** For a plain `user@domain`: which look-up answered, BIP 353 (asked first) or the Lightning Address. */
export interface NameLookup {
  answeredBy: 'bip353' | 'lightning-address';
  /** Why the BIP 353 name did not answer, as a sentence. */
  why?: string;
}

export interface CheckedRequest {
  kind: RequestKind;
  verdict: Verdict;
  /** Why it is invalid, as sentences; empty otherwise. */
  reasons: string[];
  warnings: string[];
  network?: Chain;
  /** Absent when the payer chooses the amount. */
  amount?: Amount;
  /** The address, the node key in hex (an offer's issuer key), the certificate's name, or the Lightning Address. */
  payee?: string;
  /** Untrusted text from whoever made the request: show as text, never as HTML. */
  description?: string;
  /** Seconds since the epoch. */
  createdAt?: bigint;
  expiresAt?: bigint;
  /** Whether it had expired at the moment it was checked. */
  expired: boolean;
  signer?: Signer;
  /** Absent when it must not be paid. */
  handOff?: WalletHandOff;
  bip21?: Bip21Details;
  bolt11?: Bolt11Invoice;
  bolt12?: Bolt12Offer;
  lnurl?: LnurlDetails;
  bip70?: PaymentRequestEvaluation;
  bip353?: Bip353Details;
  lookup?: NameLookup;
}

/** A network as people call it. */
export function chainName(network: string): string {
  if (network === 'main') return t('payNetworkMain');
  if (network === 'test') return t('payNetworkTestName');
  if (network === 'signet') return t('payNetworkSignetName');
  if (network === 'regtest') return t('payNetworkRegtestName');
  return t('payNetworkOther', network.slice(0, 40));
}

/** The warning a request for a test network gets (its coins have no value). */
export function networkWarning(network: Chain | undefined): string[] {
  return network && network !== 'main' ? [t('payNetworkTest')] : [];
}

/** The verdict that follows from the reasons and whether a signature covers what is paid. */
export function verdictOf(reasons: string[], signed: boolean): Verdict {
  return reasons.length > 0 ? 'invalid' : signed ? 'verified' : 'unsigned';
}

/** A node signer from a decoded invoice. */
export const nodeSigner = (invoice: Bolt11Invoice): Signer => ({
  kind: 'node',
  nodeKey: invoice.payeeNodeKey,
  named: invoice.nodeKeyGiven,
});
