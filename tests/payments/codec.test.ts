import { describe, expect, it } from 'vitest';
import {
  decodePayment,
  decodePaymentAck,
  decodePaymentDetails,
  decodePaymentRequest,
  decodeX509Certificates,
  encodePayment,
  encodePaymentDetails,
  encodePaymentRequest,
} from '../../lib/payments/codec';
import { PaymentError } from '../../lib/payments/errors';
import { signedBytesOf } from '../../lib/payments/signature';
import { walkFields } from '../../lib/payments/wire';
import { bytesField, concat, fixed32Field, fromHex, tag, toHex, varint, varintField } from '../merchant/wire';

const details = (...fields: Uint8Array[]) => concat(...fields);
const output = (amount: bigint, script = `76a914${'11'.repeat(20)}88ac`) =>
  concat(varintField(1, amount), bytesField(2, fromHex(script)));

function expectPaymentError(fn: () => unknown, code?: string): PaymentError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(PaymentError);
    if (code) expect((error as PaymentError).code).toBe(code);
    expect((error as PaymentError).message).toMatch(/^[A-Z].*\.$/);
    return error as PaymentError;
  }
  throw new Error('expected a PaymentError');
}

describe('codec: PaymentDetails', () => {
  it('fills defaults: network main, amount 0', () => {
    const d = decodePaymentDetails(details(bytesField(2, bytesField(2, fromHex('51'))), varintField(3, 5)));
    expect(d.network).toBe('main');
    expect(d.networkPresent).toBe(false);
    expect(d.outputs).toEqual([
      { amount: 0n, script: fromHex('51'), unknownFields: [], amountPresent: false },
    ]);
    expect(d.expires).toBeUndefined();
    expect(d.memo).toBeUndefined();
  });

  it('reads 64-bit amounts and times exactly, as bigint', () => {
    const max = (1n << 64n) - 1n;
    const d = decodePaymentDetails(
      details(bytesField(2, output(max)), varintField(3, 2n ** 63n), varintField(4, 2n ** 63n - 1n)),
    );
    expect(d.outputs[0]!.amount).toBe(max);
    expect(d.time).toBe(2n ** 63n);
    expect(d.expires).toBe(2n ** 63n - 1n);
    expect(decodePaymentDetails(encodePaymentDetails(d))).toEqual(d);
  });

  it('requires time', () => {
    const error = expectPaymentError(() => decodePaymentDetails(bytesField(5, 'memo')), 'malformed');
    expect(error.message).toContain('"time"');
  });

  it('keeps unknown fields, including extensions numbered 100 and above, and re-encodes them', () => {
    const unknownA = varintField(100, 7);
    const unknownB = bytesField(5000, 'extension');
    const unknownC = fixed32Field(8, fromHex('0000803f'));
    const bytes = details(varintField(3, 1), unknownA, unknownB, unknownC);
    const d = decodePaymentDetails(bytes);
    expect(d.unknownFields.map(toHex)).toEqual([unknownA, unknownB, unknownC].map(toHex));
    expect(toHex(encodePaymentDetails(d))).toBe(toHex(bytes));
  });

  it('keeps an explicit default on re-encode (network "main" on the wire)', () => {
    const bytes = details(bytesField(1, 'main'), varintField(3, 1));
    expect(toHex(encodePaymentDetails(decodePaymentDetails(bytes)))).toBe(toHex(bytes));
  });

  it('a known field with the wrong wire type is kept as unknown rather than misread', () => {
    const bytes = details(varintField(3, 1), bytesField(4, 'not a number'));
    const d = decodePaymentDetails(bytes);
    expect(d.expires).toBeUndefined();
    expect(d.unknownFields).toHaveLength(1);
  });
});

describe('codec: PaymentRequest', () => {
  it('fills defaults: version 1, pki_type none', () => {
    const r = decodePaymentRequest(bytesField(4, varintField(3, 1)));
    expect(r).toMatchObject({ version: 1, versionPresent: false, pkiType: 'none', pkiTypePresent: false });
    expect(r.signature).toBeUndefined();
    expect(r.pkiData).toBeUndefined();
  });

  it('requires serialized_payment_details', () => {
    expectPaymentError(() => decodePaymentRequest(bytesField(2, 'none')), 'malformed');
  });

  it('refuses more than 50,000 bytes before decoding, accepts exactly 50,000', () => {
    const body = new Uint8Array(50_000 - 4);
    const exact = concat(tag(4, 2), varint(body.length), body);
    expect(exact.length).toBe(50_000);
    expect(decodePaymentRequest(exact).serializedPaymentDetails.length).toBe(body.length);
    const over = concat(exact, fromHex('00'));
    expect(expectPaymentError(() => decodePaymentRequest(over), 'too-large').message).toContain(
      '50,001 bytes',
    );
  });

  it('turns truncated and garbled input into PaymentError', () => {
    const good = concat(bytesField(2, 'none'), bytesField(4, varintField(3, 1)));
    for (let cut = 1; cut < good.length; cut++) {
      try {
        decodePaymentRequest(good.subarray(0, cut));
      } catch (error) {
        expect(error).toBeInstanceOf(PaymentError);
      }
    }
    expectPaymentError(() => decodePaymentRequest(fromHex('ff')), 'malformed');
    expectPaymentError(() => decodePaymentRequest(fromHex('0f')), 'malformed'); // wire type 7
    expectPaymentError(() => decodePaymentRequest(fromHex('22ffffffff0f')), 'malformed'); // huge length
    expectPaymentError(() => decodePaymentRequest('text' as unknown as Uint8Array), 'bad-input');
  });

  it('encodes fields in numerical order, and round-trips', () => {
    const init = {
      version: 1,
      pkiType: 'x509+sha256',
      pkiData: fromHex('0a0101'),
      serializedPaymentDetails: varintField(3, 1),
      signature: new Uint8Array(0),
    };
    const bytes = encodePaymentRequest(init);
    expect(walkFields(bytes).map((f) => f.number)).toEqual([2, 3, 4, 5]);
    expect(toHex(signedBytesOf(bytes))).toBe(toHex(bytes));
    expect(decodeX509Certificates(decodePaymentRequest(bytes).pkiData!)).toEqual([fromHex('01')]);
  });
});

describe('codec: Payment and PaymentACK', () => {
  it('encodes a Payment and decodes it back', () => {
    const payment = {
      merchantData: fromHex('0102'),
      transactions: [fromHex('aa'), fromHex('bb')],
      refundTo: [{ amount: 5n, script: fromHex('51') }],
      memo: 'thanks',
    };
    const decoded = decodePayment(encodePayment(payment));
    expect(decoded).toMatchObject({ ...payment, refundTo: [{ amount: 5n, script: fromHex('51') }] });
  });

  it('a refund output without amount has no amount field on the wire', () => {
    const bytes = encodePayment({ refundTo: [{ script: fromHex('51') }] });
    expect(toHex(bytes)).toBe('1a03120151');
  });

  it('caps a PaymentACK at 60,000 bytes', () => {
    const memo = 'x'.repeat(60_000);
    const bytes = concat(bytesField(1, new Uint8Array(0)), bytesField(2, memo));
    expectPaymentError(() => decodePaymentAck(bytes), 'too-large');
    const fits = concat(bytesField(1, new Uint8Array(0)), bytesField(2, 'x'.repeat(59_000)));
    expect(decodePaymentAck(fits).memo).toHaveLength(59_000);
  });

  it('requires the payment inside a PaymentACK', () => {
    expectPaymentError(() => decodePaymentAck(bytesField(2, 'memo')), 'malformed');
  });
});

describe('wire walker', () => {
  it('lists fields with their offsets, including groups', () => {
    const group = concat(tag(9, 3), varintField(1, 1), tag(9, 4));
    const bytes = concat(varintField(1, 1), group, fixed32Field(8, fromHex('00000000')));
    expect(walkFields(bytes).map((f) => [f.number, f.wireType, f.start, f.end])).toEqual([
      [1, 0, 0, 2],
      [9, 3, 2, 6],
      [8, 5, 6, 11],
    ]);
  });

  it('rejects stray end-groups, mismatched groups, and truncation', () => {
    expectPaymentError(() => walkFields(tag(9, 4)), 'malformed');
    expectPaymentError(() => walkFields(concat(tag(9, 3), tag(8, 4))), 'malformed');
    expectPaymentError(() => walkFields(fromHex('2a05aa')), 'malformed');
    expectPaymentError(() => walkFields(fromHex('08ffffffffffffffffffff01')), 'malformed');
  });
});
