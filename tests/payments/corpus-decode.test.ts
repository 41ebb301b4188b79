import { readdirSync } from 'node:fs';
import { sha256 } from '@noble/hashes/sha2.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CORPUS_ABSENT_MESSAGE,
  CORPUS_DIR,
  certificateFixture,
  fixture,
  HAVE_CORPUS,
  REQUEST_FIXTURES,
} from '../../devkit/corpus';
import { describeScript } from '../../lib/payments/addresses';
import { commonNameOf, parseCertificate, spkiOf } from '../../lib/payments/certificates';
import {
  decodePayment,
  decodePaymentAck,
  decodePaymentDetails,
  decodePaymentRequest,
  decodeX509Certificates,
  encodePayment,
  encodePaymentAck,
  encodePaymentDetails,
  encodePaymentRequest,
} from '../../lib/payments/codec';
import { signedBytesOf, verifyRsaSignature } from '../../lib/payments/signature';
import { parseTransaction } from '../../lib/payments/transactions';
import { walkFields } from '../../lib/payments/wire';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

if (!HAVE_CORPUS) {
  describe('real-world BIP70 corpus', () => {
    it.skip(CORPUS_ABSENT_MESSAGE, () => {});
  });
}

describe.runIf(HAVE_CORPUS)('real-world corpus: decoding and signatures', () => {
  it('every file in the folder is known to these tests and reads as what the manifest says', () => {
    const payments = ['bwc-payment-reconstructed.bin', 'xbterminal-payment-testnet.bin'];
    const acks = ['paymentack-bitpay-empty-payment.bin', 'xbterminal-paymentack-echo.bin'];
    const bareDetails = ['xbterminal-paymentdetails-testnet.bin'];
    const requests = REQUEST_FIXTURES.map((f) => f.file);
    for (const name of readdirSync(CORPUS_DIR)) {
      if (name === 'MANIFEST.md') continue;
      if (name.endsWith('.der') || name.endsWith('.pem')) {
        expect(commonNameOf(parseCertificate(certificateFixture(name)).subject) ?? name, name).toBeTruthy();
      } else if (requests.includes(name)) {
        decodePaymentDetails(decodePaymentRequest(fixture(name)).serializedPaymentDetails);
      } else if (payments.includes(name)) {
        decodePayment(fixture(name));
      } else if (acks.includes(name)) {
        decodePaymentAck(fixture(name));
      } else if (bareDetails.includes(name)) {
        decodePaymentDetails(fixture(name));
      } else {
        throw new Error(`${name} is in the corpus but not in these tests: add it`);
      }
    }
  });

  describe.each(REQUEST_FIXTURES)('$file', (f) => {
    // Read in beforeAll, not while collecting, so an absent corpus only skips.
    let bytes: Uint8Array;
    let request: ReturnType<typeof decodePaymentRequest>;
    let details: ReturnType<typeof decodePaymentDetails>;
    beforeAll(() => {
      bytes = fixture(f.file);
      request = decodePaymentRequest(bytes);
      details = decodePaymentDetails(request.serializedPaymentDetails);
    });

    it('decodes with the values the manifest lists', () => {
      expect(request.version).toBe(1);
      expect(request.versionPresent).toBe(f.versionPresent);
      expect(request.pkiType).toBe(f.pkiType);
      expect(details.network).toBe(f.network);
      expect(details.networkPresent).toBe(f.networkPresent);
      expect(details.time).toBe(f.time);
      expect(details.expires).toBe(f.expires);
      expect(details.memo).toBe(f.memo);
      expect(details.paymentUrl).toBe(f.paymentUrl);
      expect(details.outputs).toHaveLength(1);
      expect(details.outputs[0]!.amount).toBe(f.amount);
      expect(hex(details.outputs[0]!.script)).toBe(f.script);
    });

    it('carries the listed certificates, leaf first', () => {
      const certificates = decodeX509Certificates(request.pkiData!);
      expect(certificates).toHaveLength(f.certificates);
      expect(commonNameOf(parseCertificate(certificates[0]!).subject)).toBe(f.leafCommonName);
    });

    it('verifies with field 5 emptied in place, and fails if field 5 is dropped', async () => {
      const leaf = parseCertificate(decodeX509Certificates(request.pkiData!)[0]!);
      const signed = signedBytesOf(bytes);
      // In every corpus file field 5 is last, so signed = bytes before it + `2a 00`.
      const field5 = walkFields(bytes).find((field) => field.number === 5)!;
      expect(field5.end).toBe(bytes.length);
      expect(hex(signed)).toBe(`${hex(bytes.subarray(0, field5.start))}2a00`);
      expect(
        await verifyRsaSignature(crypto.subtle, spkiOf(leaf), f.pkiType, signed, request.signature!),
      ).toBe(true);
      const dropped = signed.subarray(0, signed.length - 2);
      expect(
        await verifyRsaSignature(crypto.subtle, spkiOf(leaf), f.pkiType, dropped, request.signature!),
      ).toBe(false);
    });

    it('re-encodes the details byte-identically (nothing lost, defaults kept as sent)', () => {
      expect(hex(encodePaymentDetails(details))).toBe(hex(request.serializedPaymentDetails));
    });
  });

  it('keeps BitPay field 8 (required_fee_rate, a float = 1.0) as an unknown field', () => {
    const request = decodePaymentRequest(fixture('bwc-bitpay-testnet-required-fee-rate-2018.bin'));
    const details = decodePaymentDetails(request.serializedPaymentDetails);
    expect(details.unknownFields.map(hex)).toEqual(['450000803f']);
    expect(new DataView(details.unknownFields[0]!.buffer).getFloat32(1, true)).toBe(1);
  });

  it.each(['breadwallet-bitpay-mainnet-2014.bin', 'breadwallet-coinbase-mainnet-2014.bin'])(
    '%s round-trips byte-identically',
    (file) => {
      const bytes = fixture(file);
      expect(hex(encodePaymentRequest(decodePaymentRequest(bytes)))).toBe(hex(bytes));
    },
  );

  it('every request round-trips (all use numerical field order)', () => {
    for (const f of REQUEST_FIXTURES) {
      const bytes = fixture(f.file);
      const numbers = walkFields(bytes).map((field) => field.number);
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      expect(hex(encodePaymentRequest(decodePaymentRequest(bytes))), f.file).toBe(hex(bytes));
    }
  });

  it('decodes the bare xbterminal PaymentDetails', () => {
    const details = decodePaymentDetails(fixture('xbterminal-paymentdetails-testnet.bin'));
    expect(details).toMatchObject({
      network: 'test',
      time: 1507367556n,
      expires: 1507368456n,
      memo: 'test',
      paymentUrl: 'http://test',
    });
    expect(details.outputs.map((o) => [o.amount, hex(o.script)])).toEqual([
      [100000n, '76a9141ed5557f4914da4362c7bb25be78ae9386b4e76d88ac'],
    ]);
    expect(hex(encodePaymentDetails(details))).toBe(hex(fixture('xbterminal-paymentdetails-testnet.bin')));
  });

  it('decodes the xbterminal Payment', () => {
    const bytes = fixture('xbterminal-payment-testnet.bin');
    const payment = decodePayment(bytes);
    expect(payment.merchantData).toBeUndefined();
    expect(payment.memo).toBeUndefined();
    expect(payment.transactions).toHaveLength(1);
    // The pasted-transaction parser reads this real testnet transaction, whose txid is known.
    const tx = parseTransaction(payment.transactions[0]!);
    expect(tx.outputs.length).toBeGreaterThan(0);
    const txid = Buffer.from(sha256(sha256(payment.transactions[0]!)))
      .reverse()
      .toString('hex');
    expect(txid).toBe('62cc0fa8c7c7cd4a63aad51e2e038a4a058cde2ea3b290ca76004cd69deee03e');
    expect(describeScript(payment.refundTo[0]!.script, 'test').address).toBe(
      'mg5wHpgha1Qvd1stQ9MDAAPr4LSwe1QbUs',
    );
    expect(payment.refundTo.map((o) => [o.amount, hex(o.script)])).toEqual([
      [34092n, '76a914063ce37eef0c8b22b6ee8b68fd22b1bbc0f9d4b088ac'],
    ]);
    expect(hex(encodePayment(payment))).toBe(hex(bytes));
  });

  it('decodes the xbterminal PaymentACK, which echoes that Payment', () => {
    const ack = decodePaymentAck(fixture('xbterminal-paymentack-echo.bin'));
    expect(ack.memo).toBe('ack');
    expect(hex(encodePayment(ack.payment))).toBe(hex(fixture('xbterminal-payment-testnet.bin')));
  });

  it('decodes the BitPay PaymentACK with an empty payment, and round-trips it', () => {
    const bytes = fixture('paymentack-bitpay-empty-payment.bin');
    const ack = decodePaymentAck(bytes);
    expect(ack.memo).toBe(
      'Transaction received by BitPay. Invoice will be marked as paid if the transaction is confirmed.',
    );
    expect(ack.payment).toEqual({ transactions: [], refundTo: [], unknownFields: [] });
    expect(hex(encodePaymentAck(ack))).toBe(hex(bytes));
  });

  it('decodes the reconstructed bitcore-wallet-client Payment', () => {
    const bytes = fixture('bwc-payment-reconstructed.bin');
    const payment = decodePayment(bytes);
    expect(JSON.parse(new TextDecoder().decode(payment.merchantData))).toMatchObject({
      invoiceId: 'CibEJJtG1t9H77KmM61E2t',
    });
    expect(payment.transactions.map(hex)).toEqual(['12ab1234']);
    expect(payment.refundTo.map((o) => o.amount)).toEqual([100n]);
    expect(hex(encodePayment(payment))).toBe(hex(bytes));
  });
});
