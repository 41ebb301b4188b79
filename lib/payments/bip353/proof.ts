/**
 * BIP 353's PSBT_OUT_DNSSEC_PROOF value, as a hardware wallet or another device hands it over:
 * the name without its ₿, after one length byte, then an RFC 9102 AuthenticationChain (DNS
 * records in no order, uncompressed, nothing between them). Checked offline: no resolver is asked.
 */
import { hex } from '@scure/base';
import { t } from '../../i18n';
import type { TrustAnchor } from '../dnssec/validate';
import { DnsWireError, type ResourceRecord, readRecords } from '../dnssec/wire';
import { PaymentError } from '../errors';
import type { CheckedRequest } from '../request';
import { checkNameRecords } from './instructions';
import { parseBip353Name } from './name';

/** A proof larger than this is not one a device would send (the BIP's largest example is 5.8 kB). */
export const MAX_PROOF_BYTES = 65_536;

export interface DnssecProof {
  /** The name as the proof gives it (`user@domain`). */
  name: string;
  records: ResourceRecord[];
}

/** Reads the value; throws PaymentError('bad-input') for bytes that are not one. */
export function readDnssecProof(bytes: Uint8Array): DnssecProof {
  if (bytes.length > MAX_PROOF_BYTES) throw new PaymentError('bad-input', t('payProofTooLarge'));
  const length = bytes[0];
  if (length === undefined || length === 0 || 1 + length > bytes.length)
    throw new PaymentError('bad-input', t('payProofUnreadable'));
  const name = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(1, 1 + length));
  try {
    return { name, records: readRecords(bytes.subarray(1 + length)) };
  } catch (error) {
    if (error instanceof DnsWireError) throw new PaymentError('bad-input', t('payProofUnreadable'));
    throw error;
  }
}

/** Hex text (spaces allowed) as the value's bytes; throws PaymentError('bad-input'). */
export function proofBytesOfHex(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, '').toLowerCase();
  if (clean.length === 0 || clean.length % 2 !== 0 || !/^[0-9a-f]+$/.test(clean))
    throw new PaymentError('bad-input', t('payProofNotHex'));
  return hex.decode(clean);
}

/**
 * A proof judged at `now`: the name's payment request, verified when the chain from the anchors
 * holds and the one `bitcoin:` record reads; invalid with the reason otherwise. Throws
 * PaymentError('bad-input') when the bytes are not a proof or the name is not one.
 */
export async function checkDnssecProof(
  bytes: Uint8Array,
  options: { anchors: readonly TrustAnchor[]; now: Date; subtle?: SubtleCrypto },
): Promise<CheckedRequest> {
  const proof = readDnssecProof(bytes);
  const name = parseBip353Name(proof.name);
  return (await checkNameRecords(name, proof.records, { ...options, via: 'proof' })).checked;
}
