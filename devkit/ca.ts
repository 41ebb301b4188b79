import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/**
 * A certificate authority made at test time (RSA, WebCrypto, pkijs), so our own fixtures never
 * depend on files or on the date: every certificate is valid around the moment the test runs,
 * unless a test asks for another window.
 */

export type Hash = 'SHA-256' | 'SHA-1';

export interface Identity {
  der: Uint8Array;
  certificate: pkijs.Certificate;
  /** RSASSA-PKCS1-v1_5 key pair, extractable (so it can be re-bound to another hash). */
  keys: CryptoKeyPair;
  commonName: string;
}

export interface IssueOptions {
  commonName: string;
  organization?: string;
  dnsNames?: string[];
  /** IPv4 addresses for subjectAltName (a TLS server reached as https://127.0.0.1). */
  ipAddresses?: string[];
  isCa?: boolean;
  pathLength?: number;
  notBefore?: Date;
  notAfter?: Date;
  /** Hash of the certificate's own signature. */
  hash?: Hash;
  /** Issuer name to write, when it must differ from the signer's subject (name tricks). */
  issuerName?: string;
  keyUsage?: 'sign' | 'none';
  modulusLength?: number;
  /** Name constraints of a CA: the DNS subtrees it may vouch for, and those it may not. */
  permittedDns?: string[];
  excludedDns?: string[];
  /** A public key to certify instead of the RSA one made for it (e.g. an EC key). */
  publicKey?: CryptoKey;
}

const subtle = globalThis.crypto.subtle;
const engine = new pkijs.CryptoEngine({ name: 'test', crypto: globalThis.crypto });
let serial = 1;

const DAY = 86_400_000;

export async function generateKeys(hash: Hash = 'SHA-256', modulusLength = 2048): Promise<CryptoKeyPair> {
  return subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength, publicExponent: Uint8Array.of(1, 0, 1), hash },
    true,
    ['sign', 'verify'],
  );
}

/** WebCrypto binds an RSA key to one hash; re-import it for another. */
export async function rebind(privateKey: CryptoKey, hash: Hash): Promise<CryptoKey> {
  const pkcs8 = await subtle.exportKey('pkcs8', privateKey);
  return subtle.importKey('pkcs8', pkcs8, { name: 'RSASSA-PKCS1-v1_5', hash }, true, ['sign']);
}

export async function signBytes(privateKey: CryptoKey, hash: Hash, data: Uint8Array): Promise<Uint8Array> {
  const key = await rebind(privateKey, hash);
  return new Uint8Array(await subtle.sign('RSASSA-PKCS1-v1_5', key, data as Uint8Array<ArrayBuffer>));
}

function name(target: pkijs.RelativeDistinguishedNames, commonName: string, organization?: string) {
  if (organization) {
    target.typesAndValues.push(
      new pkijs.AttributeTypeAndValue({
        type: '2.5.4.10',
        value: new asn1js.Utf8String({ value: organization }),
      }),
    );
  }
  target.typesAndValues.push(
    new pkijs.AttributeTypeAndValue({ type: '2.5.4.3', value: new asn1js.Utf8String({ value: commonName }) }),
  );
}

function extension(
  extnID: string,
  critical: boolean,
  value: asn1js.BaseBlock | { toSchema(): asn1js.BaseBlock },
) {
  const schema = value instanceof asn1js.BaseBlock ? value : value.toSchema();
  return new pkijs.Extension({ extnID, critical, extnValue: schema.toBER(false), parsedValue: value });
}

/** Issues a certificate signed by `issuer`, or self-signed when `issuer` is null. */
export async function issue(issuer: Identity | null, options: IssueOptions): Promise<Identity> {
  const hash = options.hash ?? 'SHA-256';
  const keys = await generateKeys(hash, options.modulusLength);
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  const number = serial++;
  certificate.serialNumber = new asn1js.Integer({
    valueHex: Uint8Array.of(0x10, number >> 8, number & 0xff).buffer,
  });
  name(certificate.subject, options.commonName, options.organization);
  if (options.issuerName !== undefined) name(certificate.issuer, options.issuerName);
  else if (issuer) certificate.issuer = issuer.certificate.subject;
  else name(certificate.issuer, options.commonName, options.organization);
  const now = Date.now();
  certificate.notBefore.value = options.notBefore ?? new Date(now - DAY);
  certificate.notAfter.value = options.notAfter ?? new Date(now + 365 * DAY);

  const extensions: pkijs.Extension[] = [];
  if (options.isCa) {
    extensions.push(
      extension(
        '2.5.29.19',
        true,
        new pkijs.BasicConstraints({
          cA: true,
          ...(options.pathLength === undefined ? {} : { pathLenConstraint: options.pathLength }),
        }),
      ),
    );
  }
  // keyUsage bits: digitalSignature (0x80), keyCertSign (0x04), cRLSign (0x02).
  const usage = options.isCa ? 0x86 : options.keyUsage === 'none' ? 0x20 : 0x80;
  extensions.push(
    extension(
      '2.5.29.15',
      true,
      new asn1js.BitString({ valueHex: Uint8Array.of(usage).buffer, unusedBits: 1 }),
    ),
  );
  const altNames = [
    ...(options.dnsNames ?? []).map((value) => new pkijs.GeneralName({ type: 2, value })),
    ...(options.ipAddresses ?? []).map(
      (ip) =>
        new pkijs.GeneralName({
          type: 7,
          value: new asn1js.OctetString({ valueHex: Uint8Array.from(ip.split('.').map(Number)).buffer }),
        }),
    ),
  ];
  if (altNames.length) extensions.push(extension('2.5.29.17', false, new pkijs.AltName({ altNames })));
  if (options.permittedDns || options.excludedDns) {
    const subtrees = (names: string[] | undefined) =>
      names?.map((value) => new pkijs.GeneralSubtree({ base: new pkijs.GeneralName({ type: 2, value }) }));
    const permittedSubtrees = subtrees(options.permittedDns);
    const excludedSubtrees = subtrees(options.excludedDns);
    extensions.push(
      extension(
        '2.5.29.30',
        true,
        new pkijs.NameConstraints({
          ...(permittedSubtrees ? { permittedSubtrees } : {}),
          ...(excludedSubtrees ? { excludedSubtrees } : {}),
        }),
      ),
    );
  }
  certificate.extensions = extensions;
  await certificate.subjectPublicKeyInfo.importKey(options.publicKey ?? keys.publicKey, engine);
  const signer = issuer ? await rebind(issuer.keys.privateKey, hash) : keys.privateKey;
  await certificate.sign(signer, hash, engine);
  const der = new Uint8Array(certificate.toSchema(true).toBER(false));
  return { der, certificate: pkijs.Certificate.fromBER(der), keys, commonName: options.commonName };
}

export async function createRootCa(
  commonName = 'Hushdrop Test Root CA',
  hash: Hash = 'SHA-256',
): Promise<Identity> {
  return issue(null, { commonName, organization: 'Hushdrop tests', isCa: true, hash });
}

export function pemOf(der: Uint8Array, label = 'CERTIFICATE'): string {
  const body = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n');
  return `-----BEGIN ${label}-----\n${body.trimEnd()}\n-----END ${label}-----\n`;
}
