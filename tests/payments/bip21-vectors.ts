// The example URIs of BIP 21 and BIP 321 (bitcoin/bips bip-0021.mediawiki and
// bip-0321.mediawiki, read at 7fe0b034ec96), written down as facts: each URI, what the BIP says
// it asks for, and whether the BIP calls it valid. Both BIPs say their example addresses are
// invalid on purpose ("to prevent accidental transactions"), and so are the example invoice
// "lnbc420bogusinvoice", offer and silent-payment address: `syntax` is the BIP's word on the
// URI's form; what Hushdrop then says about the (broken) addresses is checked separately.

export interface UriVector {
  what: string;
  uri: string;
  /** The BIP's word on the URI's form. */
  syntax: 'valid' | 'invalid';
  /** Satoshis, as text. */
  amount?: string;
  label?: string;
  message?: string;
  address?: string;
  lightning?: string[];
  lno?: string[];
  sp?: string[];
  bc?: string[];
  tb?: string[];
  pop?: { uri: string; required: boolean };
  unknownRequired?: string[];
}

const A = '175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W';
const BC0 = 'bc1qufgy354j3kmvuch987xe4s40836x3h0lg8f5nq';
const BC1 = 'bc1p5swkugezn97763tl0yty6556856uug0q6jflljvep9m4p7339x5qzyrh4q';

export const BIP21_EXAMPLES: UriVector[] = [
  { what: 'just the address', uri: `bitcoin:${A}`, syntax: 'valid', address: A },
  {
    what: 'address and label',
    uri: `bitcoin:${A}?label=Luke-Jr`,
    syntax: 'valid',
    address: A,
    label: 'Luke-Jr',
  },
  {
    what: '20.30 BTC to "Luke-Jr"',
    uri: `bitcoin:${A}?amount=20.3&label=Luke-Jr`,
    syntax: 'valid',
    address: A,
    amount: '2030000000',
    label: 'Luke-Jr',
  },
  {
    what: '50 BTC with a message',
    uri: `bitcoin:${A}?amount=50&label=Luke-Jr&message=Donation%20for%20project%20xyz`,
    syntax: 'valid',
    address: A,
    amount: '5000000000',
    label: 'Luke-Jr',
    message: 'Donation for project xyz',
  },
  {
    what: 'required parameters not understood',
    uri: `bitcoin:${A}?req-somethingyoudontunderstand=50&req-somethingelseyoudontget=999`,
    syntax: 'invalid',
    address: A,
    unknownRequired: ['req-somethingyoudontunderstand', 'req-somethingelseyoudontget'],
  },
  {
    what: 'optional parameters not understood',
    uri: `bitcoin:${A}?somethingyoudontunderstand=50&somethingelseyoudontget=999`,
    syntax: 'valid',
    address: A,
  },
];

/** BIP 321's examples beyond BIP 21's (which it repeats). */
export const BIP321_EXAMPLES: UriVector[] = [
  {
    what: 'a BOLT 11 invoice with an on-chain fallback',
    uri: `bitcoin:${A}?lightning=lnbc420bogusinvoice`,
    syntax: 'valid',
    address: A,
    lightning: ['lnbc420bogusinvoice'],
  },
  {
    what: 'a BOLT 11 invoice alone',
    uri: 'bitcoin:?lightning=lnbc420bogusinvoice',
    syntax: 'valid',
    lightning: ['lnbc420bogusinvoice'],
  },
  {
    what: 'a BOLT 12 offer alone',
    uri: 'bitcoin:?lno=lno1bogusoffer',
    syntax: 'valid',
    lno: ['lno1bogusoffer'],
  },
  {
    what: 'an offer or a silent-payment address',
    uri: 'bitcoin:?lno=lno1bogusoffer&sp=sp1qsilentpayment',
    syntax: 'valid',
    lno: ['lno1bogusoffer'],
    sp: ['sp1qsilentpayment'],
  },
  {
    what: 'a silent-payment address alone',
    uri: 'bitcoin:?sp=sp1qsilentpayment',
    syntax: 'valid',
    sp: ['sp1qsilentpayment'],
  },
  {
    what: 'a silent-payment address with a fallback',
    uri: `bitcoin:${A}?sp=sp1qsilentpayment`,
    syntax: 'valid',
    address: A,
    sp: ['sp1qsilentpayment'],
  },
  {
    what: 'two segwit addresses under bc=',
    uri: `bitcoin:?bc=${BC0}&bc=${BC1}`,
    syntax: 'valid',
    bc: [BC0, BC1],
  },
  {
    what: 'upper case, address in the body',
    uri: `BITCOIN:${BC0.toUpperCase()}?BC=${BC1.toUpperCase()}`,
    syntax: 'valid',
    address: BC0.toUpperCase(),
    bc: [BC1.toUpperCase()],
  },
  {
    what: 'upper case, both under BC=',
    uri: `BITCOIN:?BC=${BC0.toUpperCase()}&BC=${BC1.toUpperCase()}`,
    syntax: 'valid',
    bc: [BC0.toUpperCase(), BC1.toUpperCase()],
  },
  {
    what: 'a testnet segwit address under tb=',
    uri: 'bitcoin:?tb=tb1qghfhmd4zh7ncpmxl3qzhmq566jk8ckq4gafnmq',
    syntax: 'valid',
    tb: ['tb1qghfhmd4zh7ncpmxl3qzhmq566jk8ckq4gafnmq'],
  },
  { what: 'a label twice', uri: `bitcoin:${A}?label=Luke-Jr&label=Matt`, syntax: 'invalid' },
  { what: 'an amount twice', uri: `bitcoin:${A}?amount=42&amount=10`, syntax: 'invalid' },
  { what: 'the same amount twice', uri: `bitcoin:${A}?amount=42&amount=42`, syntax: 'invalid' },
  {
    what: 'pop and req-pop together',
    uri: `bitcoin:${A}?pop=callback%3a&req-pop=callback%3a`,
    syntax: 'invalid',
  },
  {
    what: 'a proof-of-payment app link',
    uri: `bitcoin:${A}?pop=initiatingapp%3a`,
    syntax: 'valid',
    address: A,
    pop: { uri: 'initiatingapp:', required: false },
  },
  {
    what: 'a proof-of-payment link with an invoice',
    uri: 'bitcoin:?lightning=lnbc420bogusinvoice&pop=callbackuri%3abody%3fpop=',
    syntax: 'valid',
    lightning: ['lnbc420bogusinvoice'],
    pop: { uri: 'callbackuri:body?pop=', required: false },
  },
  {
    what: 'a proof-of-payment link for either way to pay',
    uri: `bitcoin:${A}?lightning=lnbc420bogusinvoice&pop=app%3a%3f`,
    syntax: 'valid',
    address: A,
    lightning: ['lnbc420bogusinvoice'],
    pop: { uri: 'app:?', required: false },
  },
];

/** BIP 321: a web page as pop is ignored (pay, report nowhere); as req-pop the URI must not be paid. */
export const POP_WEB = `bitcoin:${A}?pop=https%3aiwantyouripaddress.com`;
export const REQ_POP_WEB = `bitcoin:${A}?req-pop=https%3aevilwebsite.com`;
/** BIP 321: a testnet address under bc= is invalid. */
export const TESTNET_UNDER_BC = 'bitcoin:?bc=tb1qghfhmd4zh7ncpmxl3qzhmq566jk8ckq4gafnmq';
/** The BIPs' example address. */
export const EXAMPLE_ADDRESS = A;
