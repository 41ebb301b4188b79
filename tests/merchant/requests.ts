import { type Hash, signBytes } from '../../devkit/ca';
import {
  encodePaymentDetails,
  encodeX509Certificates,
  type PaymentDetailsInit,
} from '../../lib/payments/codec';
import { bytesField, concat, varintField } from './wire';

/**
 * Builds PaymentRequests the way a merchant would, with control over what real signers did
 * differently: field order, unknown fields, explicit defaults. The signature covers the bytes as
 * laid out here with an empty field 5 in its place, exactly as BIP70 describes.
 */

export interface Signer {
  /** DER certificates, leaf first. */
  chain: Uint8Array[];
  privateKey: CryptoKey;
}

export type FieldSlot = 1 | 2 | 3 | 4 | 5 | 'extra';

export interface BuildOptions {
  details: PaymentDetailsInit | Uint8Array;
  signer?: Signer;
  /** Defaults to 'x509+sha256' with a signer, 'none' without. */
  pkiType?: string;
  /** Written only when given (absent means version 1). */
  version?: number;
  /** Top-level field order; default [1, 2, 3, 4, 'extra', 5]. */
  order?: FieldSlot[];
  /** Raw unknown top-level fields (e.g. extensions numbered ≥ 100). */
  extraFields?: Uint8Array[];
  /** Hash to sign with, when it must disagree with pki_type. */
  signHash?: Hash;
  /** Sign these bytes instead of the proper ones (to make a wrong signature). */
  tamperSignedBytes?: (signed: Uint8Array) => Uint8Array;
}

const hashOf = (pkiType: string): Hash => (pkiType === 'x509+sha1' ? 'SHA-1' : 'SHA-256');

export async function buildPaymentRequest(options: BuildOptions): Promise<Uint8Array> {
  const details =
    options.details instanceof Uint8Array ? options.details : encodePaymentDetails(options.details);
  const pkiType = options.pkiType ?? (options.signer ? 'x509+sha256' : 'none');
  const order = options.order ?? [1, 2, 3, 4, 'extra', 5];
  const parts = new Map<FieldSlot, Uint8Array>();
  if (options.version !== undefined) parts.set(1, varintField(1, options.version));
  if (pkiType !== 'none' || options.pkiType !== undefined) parts.set(2, bytesField(2, pkiType));
  if (options.signer) parts.set(3, bytesField(3, encodeX509Certificates(options.signer.chain)));
  parts.set(4, bytesField(4, details));
  parts.set('extra', concat(...(options.extraFields ?? [])));

  const assemble = (signature: Uint8Array | undefined) =>
    concat(
      ...order.map((slot) =>
        slot === 5
          ? signature
            ? bytesField(5, signature)
            : new Uint8Array(0)
          : (parts.get(slot) ?? new Uint8Array(0)),
      ),
    );

  if (!options.signer) return assemble(undefined);
  let signed = assemble(new Uint8Array(0));
  if (options.tamperSignedBytes) signed = options.tamperSignedBytes(signed);
  const signature = await signBytes(options.signer.privateKey, options.signHash ?? hashOf(pkiType), signed);
  return assemble(signature);
}

/** A P2PKH script (hash160 = 89ab…ba). */
export const P2PKH_SCRIPT = '76a91489abcdefabbaabbaabbaabbaabbaabbaabbaabba88ac';
