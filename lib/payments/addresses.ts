import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, bech32m, createBase58check } from '@scure/base';
import { type MessageKey, t } from '../i18n';
import { PaymentError } from './errors';

/**
 * Output scripts ↔ Bitcoin addresses for mainnet and testnet: P2PKH and P2SH (base58check),
 * P2WPKH and P2WSH (bech32, witness v0), P2TR (bech32m, witness v1). Any other script is
 * "custom": shown as hex and flagged, since a person cannot check it against an address.
 */

export type Network = 'main' | 'test';
export type ScriptType = 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr' | 'custom';

export interface ScriptInfo {
  type: ScriptType;
  /** Absent for custom scripts. */
  address?: string;
}

const base58check = createBase58check(sha256);

const PARAMS = {
  main: { p2pkh: 0x00, p2sh: 0x05, hrp: 'bc' },
  test: { p2pkh: 0x6f, p2sh: 0xc4, hrp: 'tb' },
} as const;

const OP_0 = 0x00;
const OP_1 = 0x51;
const OP_DUP = 0x76;
const OP_HASH160 = 0xa9;
const OP_EQUAL = 0x87;
const OP_EQUALVERIFY = 0x88;
const OP_CHECKSIG = 0xac;

function versioned(version: number, hash: Uint8Array): string {
  const payload = new Uint8Array(1 + hash.length);
  payload[0] = version;
  payload.set(hash, 1);
  return base58check.encode(payload);
}

function segwit(network: Network, version: number, program: Uint8Array): string {
  const words = [version, ...bech32.toWords(program)];
  return version === 0
    ? bech32.encode(PARAMS[network].hrp, words)
    : bech32m.encode(PARAMS[network].hrp, words);
}

/** Classifies a scriptPubKey and renders it as an address for `network`. */
export function describeScript(script: Uint8Array, network: Network): ScriptInfo {
  const s = script;
  const p = PARAMS[network];
  if (
    s.length === 25 &&
    s[0] === OP_DUP &&
    s[1] === OP_HASH160 &&
    s[2] === 20 &&
    s[23] === OP_EQUALVERIFY &&
    s[24] === OP_CHECKSIG
  ) {
    return { type: 'p2pkh', address: versioned(p.p2pkh, s.subarray(3, 23)) };
  }
  if (s.length === 23 && s[0] === OP_HASH160 && s[1] === 20 && s[22] === OP_EQUAL) {
    return { type: 'p2sh', address: versioned(p.p2sh, s.subarray(2, 22)) };
  }
  if (s.length === 22 && s[0] === OP_0 && s[1] === 20) {
    return { type: 'p2wpkh', address: segwit(network, 0, s.subarray(2)) };
  }
  if (s.length === 34 && s[0] === OP_0 && s[1] === 32) {
    return { type: 'p2wsh', address: segwit(network, 0, s.subarray(2)) };
  }
  if (s.length === 34 && s[0] === OP_1 && s[1] === 32) {
    return { type: 'p2tr', address: segwit(network, 1, s.subarray(2)) };
  }
  return { type: 'custom' };
}

/** `why` names the message that ends the sentence ("it is empty"). */
function badAddress(text: string, network: Network, why: MessageKey): PaymentError {
  return new PaymentError(
    'bad-address',
    t(network === 'main' ? 'payAddressInvalidMain' : 'payAddressInvalidTest', text, t(why)),
  );
}

/**
 * Turns an address into its output script, checking it belongs to `network`. Used for the
 * refund address a person types; throws PaymentError('bad-address') with the reason.
 */
export function addressToScript(address: string, network: Network): Uint8Array {
  const text = address.trim();
  if (text === '') throw badAddress(text, network, 'payAddressEmpty');
  const p = PARAMS[network];
  const lower = text.toLowerCase();
  if (lower.startsWith(`${p.hrp}1`) || /^(bc|tb|bcrt)1/.test(lower)) {
    if (!lower.startsWith(`${p.hrp}1`)) throw badAddress(text, network, 'payAddressOtherNetwork');
    if (text !== lower && text !== text.toUpperCase()) throw badAddress(text, network, 'payAddressMixedCase');
    return segwitScript(lower, network);
  }
  let payload: Uint8Array;
  try {
    payload = base58check.decode(text);
  } catch {
    throw badAddress(text, network, 'payAddressBadCharacters');
  }
  if (payload.length !== 21) throw badAddress(text, network, 'payAddressLength');
  const hash = payload.subarray(1);
  if (payload[0] === p.p2pkh) {
    return Uint8Array.of(OP_DUP, OP_HASH160, 20, ...hash, OP_EQUALVERIFY, OP_CHECKSIG);
  }
  if (payload[0] === p.p2sh) return Uint8Array.of(OP_HASH160, 20, ...hash, OP_EQUAL);
  const other = network === 'main' ? PARAMS.test : PARAMS.main;
  if (payload[0] === other.p2pkh || payload[0] === other.p2sh) {
    throw badAddress(text, network, 'payAddressOtherNetwork');
  }
  throw badAddress(text, network, 'payAddressVersion');
}

function segwitScript(address: string, network: Network): Uint8Array {
  // BIP350: v0 uses bech32, v1+ uses bech32m; try both and keep the one whose checksum holds.
  const decoded = bech32.decodeUnsafe(address, 90) ?? bech32m.decodeUnsafe(address, 90);
  if (!decoded || decoded.words.length === 0) throw badAddress(address, network, 'payAddressChecksum');
  const version = decoded.words[0]!;
  const isBech32m = !bech32.decodeUnsafe(address, 90);
  if (version > 16) throw badAddress(address, network, 'payAddressWitnessVersion');
  if ((version === 0) === isBech32m) throw badAddress(address, network, 'payAddressChecksumVariant');
  const program = bech32.fromWordsUnsafe(decoded.words.slice(1));
  if (!program) throw badAddress(address, network, 'payAddressPadding');
  if (program.length < 2 || program.length > 40)
    throw badAddress(address, network, 'payAddressProgramLength');
  if (version === 0 && program.length !== 20 && program.length !== 32) {
    throw badAddress(address, network, 'payAddressProgramLength');
  }
  return Uint8Array.of(version === 0 ? OP_0 : OP_1 + version - 1, program.length, ...program);
}

/** Whether this looks like an address on either network (for quick UI hints). */
export function isAddress(address: string, network: Network): boolean {
  try {
    addressToScript(address, network);
    return true;
  } catch {
    return false;
  }
}
