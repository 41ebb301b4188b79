import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shared real-world corpus (../shared/fixtures/bip70 from the project root) and what its
 * MANIFEST.md says about each file. Read in place; never copied into the project.
 */

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** BIP70_CORPUS_DIR overrides the location (e.g. to check the skip path). */
export const CORPUS_DIR = resolve(projectRoot, process.env.BIP70_CORPUS_DIR ?? '../shared/fixtures/bip70');
export const HAVE_CORPUS = existsSync(resolve(CORPUS_DIR, 'MANIFEST.md'));
export const CORPUS_ABSENT_MESSAGE = `BIP70 corpus not found at ${CORPUS_DIR}: real-world fixture tests skipped`;

if (!HAVE_CORPUS) console.warn(`\n*** ${CORPUS_ABSENT_MESSAGE} ***\n`);

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(resolve(CORPUS_DIR, name)));
}

/** PEM or DER file → DER bytes. */
export function certificateFixture(name: string): Uint8Array {
  const bytes = fixture(name);
  if (!name.endsWith('.pem')) return bytes;
  const body = new TextDecoder()
    .decode(bytes)
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\s+/g, '');
  return new Uint8Array(Buffer.from(body, 'base64'));
}

export interface RequestFixture {
  file: string;
  network: 'main' | 'test';
  networkPresent: boolean;
  versionPresent: boolean;
  time: bigint;
  expires?: bigint;
  memo: string;
  paymentUrl?: string;
  amount: bigint;
  script: string;
  /** Only where the manifest (or its source test) states the address. */
  address?: string;
  pkiType: 'x509+sha256' | 'x509+sha1';
  certificates: number;
  leafCommonName: string;
  /** The "@" time of the manifest (seconds), when the chain is judged. */
  at: number;
  /** Trust anchors the manifest lists for this file. */
  roots: string[];
  /** Whether the chain validates against those roots at `at` (our verdict, see MANIFEST §2/§5). */
  chainOk: boolean;
}

const CORE1_SCRIPT = '76a91495608a03c8fba5e9131b4d2cefe2d56155f199a888ac';
const CORE1_ADDRESS = '1EcqLEpyu3zY7T5QU7RLrHEQH134KeGPXR';
const CORE2_SCRIPT = '76a91404ac6a945304ac68ca43bd621a1a7246350aa2f288ac';
const CORE2_ADDRESS = 'mfwfYWyi4J971g1jBb8hYKLgmds9ecBH9K';
const GODADDY = ['root-godaddy-class2.pem'];
const DIGICERT = ['root-digicert-high-assurance-ev.pem'];

const core1 = (
  n: number,
  memo: string,
  leaf: string,
  certificates: number,
  chainOk: boolean,
  time = 1366388914n,
) =>
  ({
    file: `core-paymentrequest${n}-cert1.bin`,
    network: 'main',
    networkPresent: false,
    versionPresent: false,
    time,
    memo,
    amount: 110000n,
    script: CORE1_SCRIPT,
    address: CORE1_ADDRESS,
    pkiType: 'x509+sha256',
    certificates,
    leafCommonName: leaf,
    at: 1366400000,
    roots: ['core-cacert1.der'],
    chainOk,
  }) satisfies RequestFixture;

const core2 = (n: number, time: bigint, memo: string, amount: bigint, expires?: bigint): RequestFixture => ({
  file: `core-paymentrequest${n}-cert2.bin`,
  network: 'test',
  networkPresent: true,
  versionPresent: false,
  time,
  ...(expires === undefined ? {} : { expires }),
  memo,
  amount,
  script: CORE2_SCRIPT,
  address: CORE2_ADDRESS,
  pkiType: 'x509+sha256',
  certificates: 1,
  leafCommonName: 'PaymentRequest Test CA',
  at: 1423000000,
  roots: ['core-cacert2.der'],
  // The leaf's subject equals its issuer's name but it is signed by cacert2's key: a
  // signature-based path builder (ours) accepts it where OpenSSL says "self-signed".
  chainOk: true,
});

const bitpay = (
  file: string,
  network: 'main' | 'test',
  time: bigint,
  memo: string,
  invoiceHost: string,
  amount: bigint,
  script: string,
  address: string | undefined,
  certificates: number,
  leaf: string,
): RequestFixture => ({
  file,
  network,
  networkPresent: true,
  versionPresent: true,
  time,
  expires: time + 900n,
  memo,
  paymentUrl: `https://${invoiceHost}/i/${/invoice (\w+)/.exec(memo)![1]}`,
  amount,
  script,
  ...(address === undefined ? {} : { address }),
  pkiType: 'x509+sha256',
  certificates,
  leafCommonName: leaf,
  at: Number(time),
  roots: GODADDY,
  chainOk: true,
});

export const REQUEST_FIXTURES: RequestFixture[] = [
  core1(1, 'UnitTestOne', 'testmerchant.org', 1, true),
  core1(2, 'UnitTestTwo', 'expiredmerchant.org', 1, false),
  core1(3, 'UnitTestThree', 'testmerchant8.org', 9, true),
  core1(4, 'UnitTestFour', 'testmerchant8.org', 9, false),
  core1(5, 'UnitTestFive', 'testmerchant.org', 1, false, 1366392248n),
  core2(1, 1421002327n, 'Just Testing', 1100000000n),
  core2(2, 1421158664n, 'Testing testnet!', 10000000n, 1n),
  core2(3, 1421241288n, 'Testing testnet!', 10000000n, 0x7fffffffffffffffn),
  core2(4, 1421242551n, 'Testing testnet!', 10000000n, 0x8000000000000000n),
  core2(5, 1422601788n, 'Testing amount overflow!', 2100000100000000n),
  {
    file: 'bitcoinj-pki-test-bitcoincore-org-sha1.bin',
    network: 'main',
    networkPresent: true,
    versionPresent: true,
    time: 1378147531n,
    memo: '',
    paymentUrl: 'https://bitcoincore.org/~gavin/payACK.php',
    amount: 100000000n,
    script: '76a9140b8462a77f963bccf8260a7ba617c95c1d38027c88ac',
    pkiType: 'x509+sha1',
    certificates: 3,
    leafCommonName: 'www.bitcoincore.org',
    at: 1378147531,
    roots: ['root-addtrust-external.pem'],
    chainOk: true,
  },
  bitpay(
    'bitcore-bitpay-testnet-2014.bin',
    'test',
    1408645830n,
    'Payment request for BitPay invoice CMWpuFsjgmQ2ZLiyGfcF1W',
    'test.bitpay.com',
    43640000n,
    '76a914176d7c5d60da6f8c82de86671a1fb776028538ca88ac',
    undefined,
    4,
    '*.bitpay.com',
  ),
  bitpay(
    'bitcore-bitpay2-mainnet-2015.bin',
    'main',
    1442409238n,
    'Payment request for BitPay invoice PAQtNxX7KL8BtJBnfXyTaH for merchant BitGive Foundation',
    'bitpay.com',
    1000000n,
    '76a914e4ea045fc0f08208d452187ad401ab2a874d0b6d88ac',
    undefined,
    3,
    'bitpay.com',
  ),
  bitpay(
    'bitcore-bitpay3-mainnet-2017.bin',
    'main',
    1508936331n,
    'Payment request for BitPay invoice 4aKTwZemfhdmsBZATUkcaQ for merchant BitGive',
    'bitpay.com',
    1022000n,
    '76a914c8e0d3be13830ee275439fa6885ed6cb017e3a9b88ac',
    undefined,
    3,
    'bitpay.com',
  ),
  bitpay(
    'bwc-bitpay-testnet-2015.bin',
    'test',
    1427290483n,
    'Payment request for BitPay invoice CibEJJtG1t9H77KmM61E2t for merchant testCopay',
    'test.bitpay.com',
    404500n,
    '76a9142d89a9720d0aca9beaae478994a06b1ab178186788ac',
    'mjfjcbuYwBUdEyq2m7AezjCAR4etUBqyiE',
    4,
    '*.bitpay.com',
  ),
  bitpay(
    'bwc-bitpay-bch-mainnet-2018.bin',
    'main',
    1519303861n,
    'Payment request for BitPay invoice 5kXUTvXma6w5F6L1DTDgZV for merchant BitPay Visa® Load (USD-USA)',
    'bitpay.com',
    830600n,
    '76a9143d7b307358aa76176df90276a9a0b9b3588bcbd088ac',
    '16c5o3QbvsAcLbXau1zcqGpdxXVR7qNgYJ',
    3,
    'bitpay.com',
  ),
  bitpay(
    'bwc-bitpay-testnet-required-fee-rate-2018.bin',
    'test',
    1519769830n,
    'Payment request for BitPay invoice 4QZqHsP42WWzkec74jTHc4 for merchant GusPay',
    'test.bitpay.com',
    9400n,
    '76a9147bcefbb435d699b678a448f6d532b325f6bd7f0088ac',
    undefined,
    4,
    'test.bitpay.com',
  ),
  bitpay(
    'breadwallet-bitpay-mainnet-2014.bin',
    'main',
    1398812910n,
    'Payment request for BitPay invoice 8cX5RbN8aofc53aWAm5XFD',
    'bitpay.com',
    220000n,
    '76a914a533d4fa076634afef47451f6aec8cdc1e49daf088ac',
    undefined,
    3,
    'bitpay.com',
  ),
  {
    file: 'bitcore-coinbase-mainnet-2015.bin',
    network: 'main',
    networkPresent: false,
    versionPresent: false,
    time: 1442433682n,
    expires: 1442434548n,
    memo: 'Payment request for Coinbase order code: W87XX3WS',
    paymentUrl: 'https://www.coinbase.com/rp/55f9ca703d5d80008c0001f4',
    amount: 439000n,
    script: '76a914f5fa7bb3c2245e6469254c074c062af292ce008c88ac',
    pkiType: 'x509+sha256',
    certificates: 2,
    leafCommonName: 'coinbase.com',
    at: 1442433682,
    roots: DIGICERT,
    chainOk: true,
  },
  {
    file: 'breadwallet-coinbase-mainnet-2014.bin',
    network: 'main',
    networkPresent: false,
    versionPresent: false,
    time: 1406672044n,
    expires: 1406672466n,
    memo: 'Payment request for Coinbase order code: QCOIGDPA',
    paymentUrl: 'https://coinbase.com/rp/53d81bfa5d6b1dda7b000004',
    amount: 1711000n,
    script: '76a9147d5325a854f0c9a1cbb6cbfb89b2a96d837ed7bf88ac',
    pkiType: 'x509+sha256',
    certificates: 2,
    leafCommonName: 'coinbase.com',
    at: 1406672044,
    roots: DIGICERT,
    chainOk: true,
  },
];
