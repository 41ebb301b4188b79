import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, bech32m, createBase58check } from '@scure/base';
import { type MessageKey, t } from '../i18n';
import { PaymentError } from './errors';

/**
 * Output scripts ↔ Bitcoin addresses: P2PKH and P2SH (base58check), P2WPKH and P2WSH (bech32,
 * witness v0), P2TR and later witness versions (bech32m). Any other script is "custom": shown as
 * hex and flagged, since a person cannot check it against an address.
 *
 * Networks: BIP70 knows "main" and "test"; addresses and Lightning also know signet and regtest.
 * Signet shares testnet's prefixes (tb1…, m/n/2…), and regtest shares testnet's base58 versions,
 * so an address alone says "main", "test" (testnet or signet) or "regtest" (bcrt1…).
 */

/** The networks a BIP70 request names. */
export type Network = 'main' | 'test';
/** Every Bitcoin network a request can be for. */
export type Chain = 'main' | 'test' | 'signet' | 'regtest';
export type ScriptType = 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr' | 'segwit' | 'custom';

export interface ScriptInfo {
  type: ScriptType;
  /** Absent for custom scripts. */
  address?: string;
}

/** An address read without knowing its network: what it pays to, and what its prefix says. */
export interface DecodedAddress {
  /** Normalised: bech32 in lower case. */
  address: string;
  script: Uint8Array;
  type: Exclude<ScriptType, 'custom'>;
  /** "test" covers testnet and signet, and for base58 addresses regtest too. */
  prefixNetwork: 'main' | 'test' | 'regtest';
}

const base58check = createBase58check(sha256);

const PARAMS: Record<Chain, { p2pkh: number; p2sh: number; hrp: string }> = {
  main: { p2pkh: 0x00, p2sh: 0x05, hrp: 'bc' },
  test: { p2pkh: 0x6f, p2sh: 0xc4, hrp: 'tb' },
  signet: { p2pkh: 0x6f, p2sh: 0xc4, hrp: 'tb' },
  regtest: { p2pkh: 0x6f, p2sh: 0xc4, hrp: 'bcrt' },
};
const SEGWIT_HRPS: Record<string, DecodedAddress['prefixNetwork']> = {
  bc: 'main',
  tb: 'test',
  bcrt: 'regtest',
};

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

/** A witness program as an address (bech32 for v0, bech32m after: BIP350). */
export function segwitAddress(chain: Chain, version: number, program: Uint8Array): string {
  const words = [version, ...bech32.toWords(program)];
  return version === 0 ? bech32.encode(PARAMS[chain].hrp, words) : bech32m.encode(PARAMS[chain].hrp, words);
}

/** A P2PKH or P2SH hash as a base58check address. */
export function hashAddress(chain: Chain, type: 'p2pkh' | 'p2sh', hash: Uint8Array): string {
  return versioned(PARAMS[chain][type], hash);
}

/** Classifies a scriptPubKey and renders it as an address for `network`. */
export function describeScript(script: Uint8Array, network: Chain): ScriptInfo {
  const s = script;
  if (
    s.length === 25 &&
    s[0] === OP_DUP &&
    s[1] === OP_HASH160 &&
    s[2] === 20 &&
    s[23] === OP_EQUALVERIFY &&
    s[24] === OP_CHECKSIG
  ) {
    return { type: 'p2pkh', address: hashAddress(network, 'p2pkh', s.subarray(3, 23)) };
  }
  if (s.length === 23 && s[0] === OP_HASH160 && s[1] === 20 && s[22] === OP_EQUAL) {
    return { type: 'p2sh', address: hashAddress(network, 'p2sh', s.subarray(2, 22)) };
  }
  if (s.length === 22 && s[0] === OP_0 && s[1] === 20) {
    return { type: 'p2wpkh', address: segwitAddress(network, 0, s.subarray(2)) };
  }
  if (s.length === 34 && s[0] === OP_0 && s[1] === 32) {
    return { type: 'p2wsh', address: segwitAddress(network, 0, s.subarray(2)) };
  }
  if (s.length === 34 && s[0] === OP_1 && s[1] === 32) {
    return { type: 'p2tr', address: segwitAddress(network, 1, s.subarray(2)) };
  }
  return { type: 'custom' };
}

/** The script and type of a witness program; throws the message key of what is wrong. */
export function witnessScript(
  version: number,
  program: Uint8Array,
): { script: Uint8Array; type: DecodedAddress['type'] } | MessageKey {
  if (version > 16) return 'payAddressWitnessVersion';
  if (program.length < 2 || program.length > 40) return 'payAddressProgramLength';
  if (version === 0 && program.length !== 20 && program.length !== 32) return 'payAddressProgramLength';
  const type =
    version === 0
      ? program.length === 20
        ? 'p2wpkh'
        : 'p2wsh'
      : version === 1 && program.length === 32
        ? 'p2tr'
        : 'segwit';
  return {
    script: Uint8Array.of(version === 0 ? OP_0 : OP_1 + version - 1, program.length, ...program),
    type,
  };
}

/** The script of a P2PKH or P2SH hash. */
export function hashScript(type: 'p2pkh' | 'p2sh', hash: Uint8Array): Uint8Array {
  return type === 'p2pkh'
    ? Uint8Array.of(OP_DUP, OP_HASH160, 20, ...hash, OP_EQUALVERIFY, OP_CHECKSIG)
    : Uint8Array.of(OP_HASH160, 20, ...hash, OP_EQUAL);
}

function readSegwit(
  address: string,
  prefixNetwork: DecodedAddress['prefixNetwork'],
): DecodedAddress | MessageKey {
  // BIP350: v0 uses bech32, v1+ uses bech32m; try both and keep the one whose checksum holds.
  const plain = bech32.decodeUnsafe(address, 90);
  const decoded = plain ?? bech32m.decodeUnsafe(address, 90);
  if (!decoded || decoded.words.length === 0) return 'payAddressChecksum';
  const version = decoded.words[0]!;
  if (version > 16) return 'payAddressWitnessVersion';
  if ((version === 0) === !plain) return 'payAddressChecksumVariant';
  const program = bech32.fromWordsUnsafe(decoded.words.slice(1));
  if (!program) return 'payAddressPadding';
  const witness = witnessScript(version, program);
  if (typeof witness === 'string') return witness;
  return { address, ...witness, prefixNetwork };
}

/** Reads any Bitcoin address; the message key says what is wrong when it is not one. */
function readAddress(text: string): DecodedAddress | MessageKey {
  if (text === '') return 'payAddressEmpty';
  const lower = text.toLowerCase();
  const separator = lower.lastIndexOf('1');
  const hrpNetwork = separator > 0 ? SEGWIT_HRPS[lower.slice(0, separator)] : undefined;
  if (hrpNetwork) {
    if (text !== lower && text !== text.toUpperCase()) return 'payAddressMixedCase';
    return readSegwit(lower, hrpNetwork);
  }
  let payload: Uint8Array;
  try {
    payload = base58check.decode(text);
  } catch {
    return 'payAddressBadCharacters';
  }
  if (payload.length !== 21) return 'payAddressLength';
  const hash = payload.subarray(1);
  for (const [network, p] of [
    ['main', PARAMS.main],
    ['test', PARAMS.test],
  ] as const) {
    if (payload[0] === p.p2pkh)
      return { address: text, script: hashScript('p2pkh', hash), type: 'p2pkh', prefixNetwork: network };
    if (payload[0] === p.p2sh)
      return { address: text, script: hashScript('p2sh', hash), type: 'p2sh', prefixNetwork: network };
  }
  return 'payAddressVersion';
}

/** Whether an address's prefix allows this network (signet uses testnet's, regtest testnet's base58). */
export function addressFitsChain(address: DecodedAddress, chain: Chain): boolean {
  if (address.prefixNetwork === 'main') return chain === 'main';
  if (address.prefixNetwork === 'regtest') return chain === 'regtest';
  const base58 = address.type === 'p2pkh' || address.type === 'p2sh';
  return chain === 'test' || chain === 'signet' || (chain === 'regtest' && base58);
}

/** Reads an address of any network; throws PaymentError('bad-address') saying what is wrong. */
export function decodeAddress(address: string): DecodedAddress {
  const text = address.trim();
  const read = readAddress(text);
  if (typeof read === 'string')
    throw new PaymentError('bad-address', t('payAddressInvalidMain', text, t(read)));
  return read;
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
  const read = readAddress(text);
  if (typeof read === 'string') throw badAddress(text, network, read);
  if (!addressFitsChain(read, network)) throw badAddress(text, network, 'payAddressOtherNetwork');
  return read.script;
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
