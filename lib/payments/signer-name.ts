import type * as pkijs from 'pkijs';
import { t } from '../i18n';
import { commonNameOf, displayNameOf, dnsNamesOf } from './certificates';
import { quote } from './verdict';

/**
 * The name a verified payment request is "Signed by": the one its certificate chain actually
 * vouches for. A CA's name constraints (RFC 5280 §4.2.1.10) bound the DNS names it may certify,
 * and pkijs enforces them on subjectAltName DNS names only. A CN beside them is whatever the
 * issuer wrote, so a CA limited to example.com (or a root the person added for their company)
 * could head the page with "bank.com". So:
 *   - with SAN DNS names, those are the names, and the CN is never shown;
 *   - without, the CN is the name only after it passed every DNS constraint of the chain;
 *   - any name outside a constraint makes the request invalid, with a sentence naming the CA.
 * Every name is checked here against every CA of the path, the trust anchor included: pkijs
 * skips the anchor's own constraints, and those are the ones a person-added root carries.
 */

const OID_NAME_CONSTRAINTS = '2.5.29.30';
const GENERAL_NAME_DNS = 2;

export type SignerName = { ok: true; name: string; dnsNames: string[] } | { ok: false; reason: string };

/** A DNS name or constraint as compared: lower case, without a final dot. */
const normal = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * True when `name` lies in the DNS subtree `base`: the name itself or any name below it, label by
 * label ("badexample.com" is not under "example.com"). A base written with a leading dot, as some
 * CAs do, holds only the names below it; an empty base holds every name.
 */
export function inDnsSubtree(name: string, base: string): boolean {
  const n = normal(name);
  const b = normal(base);
  if (b === '') return true;
  if (b.startsWith('.')) return n.endsWith(b) && n.length > b.length;
  return n === b || n.endsWith(`.${b}`);
}

/** The DNS bases of one certificate's name constraints, as pkijs parsed the extension. */
function dnsConstraintsOf(certificate: pkijs.Certificate): { permitted: string[]; excluded: string[] } {
  const bases = (subtrees: pkijs.GeneralSubtree[] | undefined) =>
    (subtrees ?? [])
      .filter((subtree) => subtree.base.type === GENERAL_NAME_DNS && typeof subtree.base.value === 'string')
      .map((subtree) => subtree.base.value as string);
  const permitted: string[] = [];
  const excluded: string[] = [];
  for (const extension of certificate.extensions ?? []) {
    if (extension.extnID !== OID_NAME_CONSTRAINTS) continue;
    const parsed = extension.parsedValue as pkijs.NameConstraints | undefined;
    permitted.push(...bases(parsed?.permittedSubtrees));
    excluded.push(...bases(parsed?.excludedSubtrees));
  }
  return { permitted, excluded };
}

/**
 * The first CA in `authorities` whose DNS name constraints do not allow `name`: outside every
 * permitted subtree it lists (when it lists any), or inside one it excludes.
 */
function refusingAuthority(name: string, authorities: pkijs.Certificate[]): pkijs.Certificate | undefined {
  return authorities.find((authority) => {
    const { permitted, excluded } = dnsConstraintsOf(authority);
    if (permitted.length > 0 && !permitted.some((base) => inDnsSubtree(name, base))) return true;
    return excluded.some((base) => inDnsSubtree(name, base));
  });
}

/** `path` is the validated chain, leaf first, ending with the trust anchor. */
export function signerNameOf(path: pkijs.Certificate[]): SignerName {
  const leaf = path[0];
  if (!leaf) return { ok: false, reason: t('payCertificateNoName') };
  const authorities = path.slice(1);
  const dnsNames = dnsNamesOf(leaf);
  const commonName = commonNameOf(leaf.subject);
  const names = dnsNames.length > 0 ? dnsNames : commonName !== undefined ? [commonName] : [];
  if (names.length === 0) return { ok: false, reason: t('payCertificateNoName') };
  for (const name of names) {
    const authority = refusingAuthority(name, authorities);
    if (authority)
      return {
        ok: false,
        reason: t('payCertificateNameRefused', quote(name), quote(displayNameOf(authority.subject))),
      };
  }
  return { ok: true, name: names[0]!, dnsNames };
}
