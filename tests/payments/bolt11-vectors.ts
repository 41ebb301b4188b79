// BOLT 11's own examples (lightning/bolts 11-payment-encoding.md, read at a3772650d8eb, March
// 2026), written down as facts: each invoice and what its text says it holds. Every example invoice
// is signed by one node, 03e7156a…dd9ad, and carries the payment secret 11…11 and, unless said,
// the payment hash 0001…0102 and the timestamp 1496314658.
//
// One example moved: "Same, but including fields which must be ignored" is listed as valid, but the
// spec's rule since bolts#1243 (June 2025) is that p, h, s and n of the wrong length make an invoice
// invalid; bolts#1358 says the example is out of date, and bolts#1357 lists it as invalid. It is
// with the invalid ones here.

export interface ValidInvoice {
  what: string;
  invoice: string;
  network: 'main' | 'test' | 'signet' | 'regtest';
  /** Millisatoshis, as text; null when the payer chooses. */
  amountMsat: string | null;
  description?: string;
  descriptionHash?: string;
  payee?: string;
  timestamp?: number;
  paymentHash?: string;
  expiry?: number;
  minFinalCltv?: number;
  features?: number[];
  unknownOptional?: number[];
  metadata?: string;
  fallbacks?: string[];
  /** Each route: hops as [pubkey, short channel id, fee base msat, fee ppm, cltv delta]. */
  routes?: [string, string, number, number, number][][];
  signature?: string;
  recoveryId?: number;
  /** SHA-256 of the signed bytes. */
  signedHash?: string;
}

export interface InvalidInvoice {
  what: string;
  invoice: string;
  /** The rule it breaks, as lib/payments/bolt11.ts names it. */
  refusedFor: string;
}

export const SPEC_NODE = '03e7156ae33b0a208d0744199163177e909e80176e55d97a2f221ede0f934dd9ad';

/** What the coffee-beans example holds, in lower and in upper case. */
const COFFEE_BEANS: Omit<ValidInvoice, 'what' | 'invoice'> = {
  payee: SPEC_NODE,
  network: 'main',
  amountMsat: '2500000000',
  description: 'coffee beans',
  features: [8, 14, 99],
  unknownOptional: [99],
};

export const VALID_INVOICES: ValidInvoice[] = [
  {
    what: 'donation of any amount, no amount in the prefix',
    invoice:
      'lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5' +
      'rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq9qrs' +
      'gq357wnc5r2ueh7ck6q93dj32dlqnls087fxdwk8qakdyafkq3yap9us6v52vjjsrvywa6rt52cm9r9zqt8r2t7mlcwspyet' +
      'p5h2tztugp9lfyql',
    network: 'main',
    amountMsat: null,
    description: 'Please consider supporting this project',
    signature:
      '8d3ce9e28357337f62da0162d9454df827f83cfe499aeb1c1db349d4d81127425e434ca29929406c23bba1ae8ac6ca32880b38d4bf6ff874024cac34ba9625f1',
    signedHash: '6daf4d488be41ce7cbb487cab1ef2975e5efcea879b20d421f0ef86b07cbb987',
    payee: SPEC_NODE,
    expiry: 3600,
    recoveryId: 1,
    features: [8, 14],
  },
  {
    what: '2500u for one cup of coffee, expiring after 60 s',
    invoice:
      'lnbc2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsy' +
      'qcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu9qrsgquk0rl77nj30yxdy8j9vdx85fkpmdla2' +
      '087ne0xh8nhedh8w27kyke0lp53ut353s06fv3qfegext0eh0ymjpf39tuven09sam30g4vgpfna3rh',
    network: 'main',
    amountMsat: '250000000',
    description: '1 cup coffee',
    signature:
      'e59e3ffbd3945e4334879158d31e89b076dff54f3fa7979ae79df2db9dcaf5896cbfe1a478b8d2307e92c88139464cb7e6ef26e414c4abe33337961ddc5e8ab1',
    signedHash: '047e24bf270b25d42a56d57b2578faa3a10684641bab817c2851a871cb41dbc0',
    payee: SPEC_NODE,
    expiry: 60,
    recoveryId: 1,
    features: [8, 14],
  },
  {
    what: '2500u with a Japanese description',
    invoice:
      'lnbc2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsy' +
      'qcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d0xqzpu9qrsgqhtjpauu9ur7fw2thcl4' +
      'y9vfvh4m9wlfyz2gem29g5ghe2aak2pm3ps8fdhtceqsaagty2vph7utlgj48u0ged6a337aewvraedendscp573dxr',
    network: 'main',
    amountMsat: '250000000',
    description: 'ナンセンス 1杯',
    signature:
      'bae41ef385e0fc972977c7ea42b12cbd76577d2412919da8a8a22f9577b6507710c0e96dd78c821dea16453037f717f44aa7e3d196ebb18fbb97307dcb7336c3',
    signedHash: 'f140d992ba419578ba9cfe1af85f92df90a76f442fb5e6e09b1f0582534ba87d',
    payee: SPEC_NODE,
    expiry: 60,
    recoveryId: 1,
  },
  {
    what: '20m with a description hash instead of a description',
    invoice:
      'lnbc20m1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqc' +
      'yq5rqwzqfqqqsyqcyq5rqwzqfqypqhp58yjmdan79s6qqdhdzgynm4zwqd5d7xmw5fk98klysy043l2ahrqs9qrsgq7ea976' +
      'txfraylvgzuxs8kgcw23ezlrszfnh8r6qtfpr6cxga50aj6txm9rxrydzd06dfeawfk6swupvz4erwnyutnjq7x39ymw6j38' +
      'gp7ynn44',
    network: 'main',
    amountMsat: '2000000000',
    descriptionHash: '3925b6f67e2c340036ed12093dd44e0368df1b6ea26c53dbe4811f58fd5db8c1',
    signature:
      'f67a5f696648fa4fb102e1a07b230e54722f8e024cee71e80b4847ac191da3fb2d2cdb28cc32344d7e9a9cf5c9b6a0ee0582ae46e9938b9c81e344a4dbb5289d',
    signedHash: 'e2ffa444e2979edb639fbdaa384638683ba1a5240b14dd7a150e45a04eea261d',
    payee: SPEC_NODE,
    recoveryId: 1,
  },
  {
    what: 'testnet, 20m, P2PKH fallback',
    invoice:
      'lntb20m1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygshp58yjmdan79s6qqdhdzgynm4z' +
      'wqd5d7xmw5fk98klysy043l2ahrqspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqfpp3x9et2e20' +
      'v6pu37c5d9vax37wxq72un989qrsgqdj545axuxtnfemtpwkc45hx9d2ft7x04mt8q7y6t0k2dge9e7h8kpy9p34ytyslj3y' +
      'u569aalz2xdk8xkd7ltxqld94u8h2esmsmacgpghe9k8',
    network: 'test',
    amountMsat: '2000000000',
    descriptionHash: '3925b6f67e2c340036ed12093dd44e0368df1b6ea26c53dbe4811f58fd5db8c1',
    signature:
      '6ca95a74dc32e69ced6175b15a5cc56a92bf19f5dace0f134b7d94d464b9f5cf6090a18d48b243f289394d17bdf89466d8e6b37df5981f696bc3dd5986e1bee1',
    signedHash: '33bc6642a336097c74299cadfdfdd2e4884a555cf1b4fda72b095382d473d795',
    payee: SPEC_NODE,
    recoveryId: 1,
    fallbacks: ['mk2QpYatsKicvFVuTAQLBryyccRXMUaGHP'],
  },
  {
    what: 'mainnet, P2PKH fallback and a two-hop private route',
    invoice:
      'lnbc20m1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqc' +
      'yq5rqwzqfqqqsyqcyq5rqwzqfqypqhp58yjmdan79s6qqdhdzgynm4zwqd5d7xmw5fk98klysy043l2ahrqsfpp3qjmp7lwp' +
      'agxun9pygexvgpjdc4jdj85fr9yq20q82gphp2nflc7jtzrcazrra7wwgzxqc8u7754cdlpfrmccae92qgzqvzq2ps8pqqqq' +
      'qqpqqqqq9qqqvpeuqafqxu92d8lr6fvg0r5gv0heeeqgcrqlnm6jhphu9y00rrhy4grqszsvpcgpy9qqqqqqgqqqqq7qqzq9' +
      'qrsgqdfjcdk6w3ak5pca9hwfwfh63zrrz06wwfya0ydlzpgzxkn5xagsqz7x9j4jwe7yj7vaf2k9lqsdk45kts2fd0fkr28a' +
      'm0u4w95tt2nsq76cqw0',
    network: 'main',
    amountMsat: '2000000000',
    descriptionHash: '3925b6f67e2c340036ed12093dd44e0368df1b6ea26c53dbe4811f58fd5db8c1',
    signature:
      '6a6586db4e8f6d40e3a5bb92e4df5110c627e9ce493af237e20a046b4e86ea200178c59564ecf892f33a9558bf041b6ad2cb8292d7a6c351fbb7f2ae2d16b54e',
    signedHash: 'b342d4655b984e53f405fe4d872fb9b7cf54ba538fcd170ed4a5906a9f535064',
    payee: SPEC_NODE,
    recoveryId: 0,
    fallbacks: ['1RustyRX2oai4EYYDpQGWvEL62BBGqN9T'],
    routes: [
      [
        ['029e03a901b85534ff1e92c43c74431f7ce72046060fcf7a95c37e148f78c77255', '66051x263430x1800', 1, 20, 3],
        [
          '039e03a901b85534ff1e92c43c74431f7ce72046060fcf7a95c37e148f78c77255',
          '197637x395016x2314',
          2,
          30,
          4,
        ],
      ],
    ],
  },
  {
    what: 'mainnet, P2SH fallback',
    invoice:
      'lnbc20m1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygshp58yjmdan79s6qqdhdzgynm4z' +
      'wqd5d7xmw5fk98klysy043l2ahrqspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqfppj3a24vwu6' +
      'r8ejrss3axul8rxldph2q7z99qrsgqz6qsgww34xlatfj6e3sngrwfy3ytkt29d2qttr8qz2mnedfqysuqypgqex4haa2h8f' +
      'x3wnypranf3pdwyluftwe680jjcfp438u82xqphf75ym',
    descriptionHash: '3925b6f67e2c340036ed12093dd44e0368df1b6ea26c53dbe4811f58fd5db8c1',
    network: 'main',
    amountMsat: '2000000000',
    signature:
      '16810439d1a9bfd5a65acc61340dc92448bb2d456a80b58ce012b73cb5202438020500c9ab7ef5573a4d174c811f669885ae27f895bb3a3be52c243589f87518',
    signedHash: '9e93321a775f7dffdca03e61d1ac6e0e356cc63cecd3835271200c1e5b499d29',
    payee: SPEC_NODE,
    recoveryId: 1,
    fallbacks: ['3EktnHQD7RiAE6uzMj2ZifT9YgRrkSgzQX'],
  },
  {
    what: 'mainnet, P2WPKH fallback',
    invoice:
      'lnbc20m1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygshp58yjmdan79s6qqdhdzgynm4z' +
      'wqd5d7xmw5fk98klysy043l2ahrqspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqfppqw508d6qe' +
      'jxtdg4y5r3zarvary0c5xw7k9qrsgqt29a0wturnys2hhxpner2e3plp6jyj8qx7548zr2z7ptgjjc7hljm98xhjym0dg52s' +
      'drvqamxdezkmqg4gdrvwwnf0kv2jdfnl4xatsqmrnsse',
    descriptionHash: '3925b6f67e2c340036ed12093dd44e0368df1b6ea26c53dbe4811f58fd5db8c1',
    network: 'main',
    amountMsat: '2000000000',
    signature:
      '5a8bd7b97c1cc9055ee60cf2356621f8752248e037a953886a1782b44a58f5ff2d94e6bc89b7b514541a3603bb33722b6c08aa1a3639d34becc549a99fea6eae',
    signedHash: '44fbec32cdac99a1a3cd638ec507dad633a1e5bba514832fd3471e663a157f7b',
    payee: SPEC_NODE,
    recoveryId: 0,
    fallbacks: ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
  },
  {
    what: 'mainnet, P2WSH fallback',
    invoice:
      'lnbc20m1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygshp58yjmdan79s6qqdhdzgynm4z' +
      'wqd5d7xmw5fk98klysy043l2ahrqspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqfp4qrp33g0q5' +
      'c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q9qrsgq9vlvyj8cqvq6ggvpwd53jncp9nwc47xlrsnenq2zp70fq8' +
      '3qlgesn4u3uyf4tesfkkwwfg3qs54qe426hp3tz7z6sweqdjg05axsrjqp9yrrwc',
    descriptionHash: '3925b6f67e2c340036ed12093dd44e0368df1b6ea26c53dbe4811f58fd5db8c1',
    network: 'main',
    amountMsat: '2000000000',
    signature:
      '2b3ec248f80301a421817369194f012cdd8af8df1c279981420f9e901e20fa3309d791e11355e609b59ce4a220852a0cd55ab862b1785a83b206c90fa74d01c8',
    signedHash: '865a2cc6730e1eeeacd30e6da8e9ab0e9115828d27953ec0c0f985db05da5027',
    payee: SPEC_NODE,
    recoveryId: 1,
    fallbacks: ['bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3'],
  },
  {
    what: 'mainnet, P2TR fallback',
    invoice:
      'lnbc20m1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqc' +
      'yq5rqwzqfqqqsyqcyq5rqwzqfqypqhp58yjmdan79s6qqdhdzgynm4zwqd5d7xmw5fk98klysy043l2ahrqsfp4pptdvg0d2' +
      'nj99568qn6ssdy4cygnwuxgw2ukmnwgwz7jpqjz2kszs9qrsgqy606dznq28exnydt2r4c29y56xjtn3sk4mhgjtl4pg2y4a' +
      'r3249rq4ajlmj9jy8zvlzw7cr8mggqzm842xfr0v72rswzq9xvr4hknfsqwmn6xd',
    descriptionHash: '3925b6f67e2c340036ed12093dd44e0368df1b6ea26c53dbe4811f58fd5db8c1',
    network: 'main',
    amountMsat: '2000000000',
    signature:
      '269fa68a6051f26991ab50eb851494d1a4b9c616aeee892ff50a144af471554a3057b2fee45910e267c4ef6067da10016cf5519237b3ca1c1c2014cc1d6f69a6',
    signedHash: '116fdb0f18352c886deb263f6466eb40e5e6518b80231a1f9df86088bfa48043',
    payee: SPEC_NODE,
    recoveryId: 0,
    fallbacks: ['bc1pptdvg0d2nj99568qn6ssdy4cygnwuxgw2ukmnwgwz7jpqjz2kszse2s3lm'],
  },
  {
    what: 'amount in pico-bitcoin, a week to pay, min_final_cltv 10, one route hop',
    invoice:
      'lnbc9678785340p1pwmna7lpp5gc3xfm08u9qy06djf8dfflhugl6p7lgza6dsjxq454gxhj9t7a0sd8dgfkx7cmtwd68yet' +
      'pd5s9xar0wfjn5gpc8qhrsdfq24f5ggrxdaezqsnvda3kkum5wfjkzmfqf3jkgem9wgsyuctwdus9xgrcyqcjcgpzgfskx6e' +
      'qf9hzqnteypzxz7fzypfhg6trddjhygrcyqezcgpzfysywmm5ypxxjemgw3hxjmn8yptk7untd9hxwg3q2d6xjcmtv4ezq7p' +
      'qxgsxzmnyyqcjqmt0wfjjq6t5v4khxsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygsxqyjw5qcqp2' +
      'rzjq0gxwkzc8w6323m55m4jyxcjwmy7stt9hwkwe2qxmy8zpsgg7jcuwz87fcqqeuqqqyqqqqlgqqqqn3qq9q9qrsgqrvgkp' +
      'nmps664wgkp43l22qsgdw4ve24aca4nymnxddlnp8vh9v2sdxlu5ywdxefsfvm0fq3sesf08uf6q9a2ke0hc9j6z6wlxg5z5' +
      'kqpu2v9wz',
    payee: SPEC_NODE,
    network: 'main',
    amountMsat: '967878534',
    description:
      'Blockstream Store: 88.85 USD for Blockstream Ledger Nano S x 1, "Back In My Day" Sticker x 2, "I Got Lightning Working" Sticker x 2 and 1 more items',
    paymentHash: '462264ede7e14047e9b249da94fefc47f41f7d02ee9b091815a5506bc8abf75f',
    timestamp: 1572468703,
    expiry: 604800,
    minFinalCltv: 10,
    routes: [
      [
        [
          '03d06758583bb5154774a6eb221b1276c9e82d65bbaceca806d90e20c108f4b1c7',
          '589390x3312x1',
          1000,
          2500,
          40,
        ],
      ],
    ],
  },
  {
    what: 'features 8, 14 and 99 (99 is odd and unknown: ignored)',
    invoice:
      'lnbc25m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5vdhkven9v5sxyetpdeessp5' +
      'zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q5sqqqqqqqqqqqqqqqqsgq2a25dxl5hrntdtn6zvydt' +
      '7d66hyzsyhqs4wdynavys42xgl6sgx9c4g7me86a27t07mdtfry458rtjr0v92cnmswpsjscgt2vcse3sgpz3uapa',
    ...COFFEE_BEANS,
  },
  {
    what: 'the same in upper case',
    invoice:
      'LNBC25M1PVJLUEZPP5QQQSYQCYQ5RQWZQFQQQSYQCYQ5RQWZQFQQQSYQCYQ5RQWZQFQYPQDQ5VDHKVEN9V5SXYETPDEESSP5' +
      'ZYG3ZYG3ZYG3ZYG3ZYG3ZYG3ZYG3ZYG3ZYG3ZYG3ZYG3ZYG3ZYGS9Q5SQQQQQQQQQQQQQQQQSGQ2A25DXL5HRNTDTN6ZVYDT' +
      '7D66HYZSYHQS4WDYNAVYS42XGL6SGX9C4G7ME86A27T07MDTFRY458RTJR0V92CNMSWPSJSCGT2VCSE3SGPZ3UAPA',
    ...COFFEE_BEANS,
  },
  {
    what: 'payment metadata 01fafaf0, features 8, 14 and 48',
    invoice:
      'lnbc10m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdp9wpshjmt9de6zqmt9w3skgct' +
      '5vysxjmnnd9jx2mq8q8a04uqsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q2gqqqqqqsgq7hf8' +
      'he7ecf7n4ffphs6awl9t6676rrclv9ckg3d3ncn7fct63p6s365duk5wrk202cfy3aj5xnnp5gs3vrdvruverwwq7yzhkf5a' +
      '3xqpd05wjc',
    payee: SPEC_NODE,
    network: 'main',
    amountMsat: '1000000000',
    description: 'payment metadata inside',
    metadata: '01fafaf0',
    features: [8, 14, 48],
  },
  {
    what: 'a high-S signature, accepted when the key is recovered',
    invoice:
      'lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5' +
      'rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq9qrs' +
      'gq357wnc5r2ueh7ck6q93dj32dlqnls087fxdwk8qakdyafkq3yap2r09nt4ndd0unm3z9u5t48y6ucv4r5sg7lk98c77ctv' +
      'jczkspk5qprc90gx',
    network: 'main',
    amountMsat: null,
    description: 'Please consider supporting this project',
    signature:
      '8d3ce9e28357337f62da0162d9454df827f83cfe499aeb1c1db349d4d8112742a1bcb35d66d6bf93dc445e51753935cc32a3a411efd8a7c7bd85b25815a01b50',
    signedHash: '6daf4d488be41ce7cbb487cab1ef2975e5efcea879b20d421f0ef86b07cbb987',
    recoveryId: 1,
  },
];

export const INVALID_INVOICES: InvalidInvoice[] = [
  {
    what: 'unknown even feature 100 is required',
    invoice:
      'lnbc25m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5vdhkven9v5sxyetpdeessp5' +
      'zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q4psqqqqqqqqqqqqqqqqsgqtqyx5vggfcsll4wu246h' +
      'z02kp85x4katwsk9639we5n5yngc3yhqkm35jnjw4len8vrnqnf5ejh0mzj9n3vz2px97evektfm2l6wqccp3y7372',
    refusedFor: 'feature-required',
  },
  {
    what: 'a wrong bech32 checksum',
    invoice:
      'lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78' +
      'q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tft' +
      'c9c5fh0nnqpnl2jfll544esqchsrnt',
    refusedFor: 'checksum',
  },
  {
    what: 'no "1" separator',
    invoice:
      'pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78q4eyqc7d8d' +
      '0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tftc9c5fh0nnq' +
      'pnl2jfll544esqchsrny',
    refusedFor: 'no-separator',
  },
  {
    what: 'upper and lower case mixed',
    invoice:
      'LNBC2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpquwpc4curk03c9wlrswe78' +
      'q4eyqc7d8d0xqzpuyk0sg5g70me25alkluzd2x62aysf2pyy8edtjeevuv4p2d5p76r4zkmneet7uvyakky2zr4cusd45tft' +
      'c9c5fh0nnqpnl2jfll544esqchsrny',
    refusedFor: 'mixed-case',
  },
  {
    what: 'a signature from which no key can be recovered',
    invoice:
      'lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsx' +
      'qzpusp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9qrsgqwgt7mcn5yqw3yx0w94pswkpq6j9uh6x' +
      'fqqqtsk4tnarugeektd4hg5975x9am52rz4qskukxdmjemg92vvqz8nvmsye63r5ykel43pgz7zq0g2',
    refusedFor: 'not-recoverable',
  },
  {
    what: 'too short for a timestamp and a signature',
    invoice:
      'lnbc1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjyp' +
      'eh2ursdae8g6na6hlh',
    refusedFor: 'too-short',
  },
  {
    what: 'the multiplier "x"',
    invoice:
      'lnbc2500x1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsx' +
      'qzpusp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9qrsgqrrzc4cvfue4zp3hggxp47ag7xnrlr8v' +
      'gcmkjxk3j5jqethnumgkpqp23z9jclu3v0a7e0aruz366e9wqdykw6dxhdzcjjhldxq0w6wgqcnu43j',
    refusedFor: 'multiplier',
  },
  {
    what: 'an amount that is not a whole number of millisatoshis',
    invoice:
      'lnbc2500000001p1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7en' +
      'xv4jsxqzpusp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9qrsgq0lzc236j96a95uv0m3umg28gc' +
      'lm5lqxtqqwk32uuk4k6673k6n5kfvx3d2h8s295fad45fdhmusm8sjudfhlf6dcsxmfvkeywmjdkxcp99202x',
    refusedFor: 'sub-millisatoshi',
  },
  {
    what: 'no payment secret (s)',
    invoice:
      'lnbc20m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqhp58yjmdan79s6qqdhdzgynm4z' +
      'wqd5d7xmw5fk98klysy043l2ahrqs9qrsgq7ea976txfraylvgzuxs8kgcw23ezlrszfnh8r6qtfpr6cxga50aj6txm9rxry' +
      'dzd06dfeawfk6swupvz4erwnyutnjq7x39ymw6j38gp49qdkj',
    refusedFor: 'no-payment-secret',
  },
  {
    what: 'a high-S signature in an invoice that names its node (n)',
    invoice:
      'lnbc25m1p70xwfzpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kget' +
      'jypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaqnp4q0n326hr8v9zprg8gsvezcch06gfaqqhde2aj730yg0durunfhv66' +
      'sp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9qrsgqsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3' +
      'zyg3zyg3zyg3zyg3zygsp5cfzp9ugllvk03rltd6hvndxj26ux6gcxc5azyxk060rj9tzghct5zvjlps76gx8wpq5yuu7968' +
      '8k8gnm2c0al6v608s96l0xzrrlqqwnzxmu',
    refusedFor: 'high-s',
  },
  {
    what: 'fixed-length fields (p, h, s, n) of the wrong length',
    invoice:
      'lnbc25m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5vdhkven9v5sxyetpdeessp5' +
      'zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q5sqqqqqqqqqqqqqqqqsgq2qrqqqfppnqqqqqqqqqqq' +
      'qqqqqqqqqqqqqqqqqqqqqppnqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqpp4qqqqqqqqqqqqqqqqqq' +
      'qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqhpnqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqhp4qqqq' +
      'qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqspnqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq' +
      'qqqqqqqsp4qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnp5qqqqqqqqqqqqqqqqqqqqqqqqqqqqqq' +
      'qqqqqqqqqqqqqqqqqqqqqqnpkqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqz599y53s3ujmcfjp5' +
      'xrdap68qxymkqphwsexhmhr8wdz5usdzkzrse33chw6dlp3jhuhge9ley7j2ayx36kawe7kmgg8sv5ugdyusdcqzn8z9x',
    refusedFor: 'field-length',
  },
];
