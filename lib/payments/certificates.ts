import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { t } from '../i18n';
import { PaymentError } from './errors';

/** Reading X.509 certificates with pkijs: parsing, names, and the leaf's public key. */

const OID_COMMON_NAME = '2.5.4.3';
const OID_ORGANIZATION = '2.5.4.10';
const OID_ORGANIZATIONAL_UNIT = '2.5.4.11';
const OID_SUBJECT_ALT_NAME = '2.5.29.17';
const GENERAL_NAME_DNS = 2;

/** Largest single certificate we parse; real ones are 0.5–2 KB. */
const MAX_CERTIFICATE_BYTES = 16_384;

export function parseCertificate(der: Uint8Array): pkijs.Certificate {
  if (der.length === 0 || der.length > MAX_CERTIFICATE_BYTES) {
    throw new PaymentError('malformed', t('payCertificateSize'));
  }
  try {
    // parseEmbedded: false leaves the contents of BIT and OCTET STRINGs (the key, the signature,
    // each extension's value) as bytes: pkijs parses the key and an extension's value itself when
    // they are read, so parsing them here as well only cost time (a third of a certificate's
    // parse, issue 21). The copy is ours, so asn1js need not make another.
    const asn1 = asn1js.fromBER(new Uint8Array(der), { parseEmbedded: false, copyInput: false });
    // Trailing bytes after the certificate mean it is not the DER a CA signed.
    if (asn1.offset === -1 || asn1.offset !== der.length) throw new Error('not a single DER value');
    return new pkijs.Certificate({ schema: asn1.result });
  } catch (error) {
    throw new PaymentError('malformed', t('payCertificateUnreadable'), { cause: error });
  }
}

function attribute(name: pkijs.RelativeDistinguishedNames, oid: string): string | undefined {
  for (const entry of name.typesAndValues) {
    if (entry.type !== oid) continue;
    const value = (entry.value as { valueBlock?: { value?: unknown } }).valueBlock?.value;
    if (typeof value === 'string') return value;
  }
  return undefined;
}

export function commonNameOf(name: pkijs.RelativeDistinguishedNames): string | undefined {
  return attribute(name, OID_COMMON_NAME);
}

export function organizationOf(name: pkijs.RelativeDistinguishedNames): string | undefined {
  return attribute(name, OID_ORGANIZATION);
}

/** A short display name for a CA: its CN, else O, else OU (Go Daddy Class 2 has only O and OU). */
export function displayNameOf(name: pkijs.RelativeDistinguishedNames): string {
  return (
    commonNameOf(name) ??
    attribute(name, OID_ORGANIZATIONAL_UNIT) ??
    organizationOf(name) ??
    t('payUnnamedAuthority')
  );
}

/** DNS names from subjectAltName. */
export function dnsNamesOf(certificate: pkijs.Certificate): string[] {
  const names: string[] = [];
  for (const extension of certificate.extensions ?? []) {
    if (extension.extnID !== OID_SUBJECT_ALT_NAME) continue;
    const parsed = extension.parsedValue as pkijs.AltName | undefined;
    for (const general of parsed?.altNames ?? []) {
      if (general.type === GENERAL_NAME_DNS && typeof general.value === 'string') names.push(general.value);
    }
  }
  return names;
}

/** The SubjectPublicKeyInfo DER of a certificate (what WebCrypto imports as 'spki'). */
export function spkiOf(certificate: pkijs.Certificate): Uint8Array {
  return new Uint8Array(certificate.subjectPublicKeyInfo.toSchema().toBER(false));
}

/** True when `host` is covered by `pattern` (a DNS name, possibly with one leading `*.` label). */
export function hostMatchesName(host: string, pattern: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  const p = pattern.toLowerCase().replace(/\.$/, '');
  if (!p.startsWith('*.')) return h === p;
  const suffix = p.slice(1);
  // A wildcard covers exactly one label.
  return h.endsWith(suffix) && h.length > suffix.length && !h.slice(0, -suffix.length).includes('.');
}
