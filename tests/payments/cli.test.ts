// `npm run -s payment -- <text or file>` (scripts/payment.ts), run as a person would: one JSON
// object with kind, verdict, reason, network, amount and payee first; exit 0, 1 or 2.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRootCa, issue, pemOf } from '../../devkit/ca';
import { paymentCheck } from '../../scripts/payment';
import { TEST_NODE_KEY } from '../lnurl/invoices';
import { type LnurlService, startLnurlService } from '../lnurl/server';
import { buildPaymentRequest, P2PKH_SCRIPT } from '../merchant/requests';
import { FORMAT_VECTORS, HAVE_BOLT12_VECTORS, OFFER_VECTORS } from '../testkit/bolt12-vectors';
import { VALID_INVOICES } from './bolt11-vectors';
import { makeOffer } from './offers';

/** As a person runs it: npm, tsx, the script; stdout parsed. Slow (a process start): used twice. */
function spawn(...args: string[]): Promise<{ code: number; json: Record<string, any> }> {
  return new Promise((resolve, reject) => {
    execFile('npm', ['run', '-s', 'payment', '--', ...args], { timeout: 120_000 }, (error, stdout) => {
      if (error && typeof error.code !== 'number') return reject(error);
      try {
        resolve({ code: error ? Number(error.code) : 0, json: JSON.parse(stdout) });
      } catch (parse) {
        reject(new Error(`not JSON: ${stdout}`, { cause: parse }));
      }
    });
  });
}

/** The same check in this process. */
async function run(...args: string[]): Promise<{ code: number; json: Record<string, any> }> {
  const { code, output } = await paymentCheck(args);
  return { code, json: JSON.parse(output) };
}

/** The members the issue names, first and in this order. */
const FIRST_MEMBERS = ['kind', 'verdict', 'reason', 'network', 'amount', 'payee'];

let dir: string;
let service: LnurlService;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hushdrop-cli-'));
  service = await startLnurlService();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await service?.close();
});

describe('the command-line check', () => {
  it('a BOLT 11 invoice: the members the issue names, in that order', { timeout: 120_000 }, async () => {
    const { code, json } = await spawn(VALID_INVOICES[1]!.invoice);
    expect(code).toBe(0);
    expect(Object.keys(json).slice(0, 6)).toEqual(FIRST_MEMBERS);
    expect(json).toMatchObject({
      kind: 'bolt11',
      verdict: 'verified',
      reason: null,
      network: 'main',
      amount: { value: '250000000', unit: 'msat' },
      payee: '03e7156ae33b0a208d0744199163177e909e80176e55d97a2f221ede0f934dd9ad',
      description: '1 cup coffee',
      expired: true,
    });
  });

  it('bitcoin: URIs: unsigned with the amount in sat, invalid with the reason and exit 1', async () => {
    const plain = await run('bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=20.3');
    expect(plain).toEqual({
      code: 0,
      json: expect.objectContaining({
        kind: 'bip21',
        verdict: 'unsigned',
        reason: null,
        network: 'main',
        amount: { value: '2030000000', unit: 'sat' },
        payee: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
      }),
    });
    const bad = await run('bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=1e3');
    expect(bad.code).toBe(1);
    expect(bad.json).toMatchObject({ kind: 'bip21', verdict: 'invalid', amount: null });
    expect(bad.json.reason).toMatch(/its amount "1e3" is not a number of bitcoin/);
  });

  it('a BIP70 file, with a root and a clock given', async () => {
    const root = await createRootCa('CLI Test CA');
    const leaf = await issue(root, { commonName: 'shop.example', dnsNames: ['shop.example'] });
    const bytes = await buildPaymentRequest({
      signer: { chain: [leaf.der], privateKey: leaf.keys.privateKey },
      details: {
        time: 1_700_000_000n,
        outputs: [{ amount: 150_000n, script: Buffer.from(P2PKH_SCRIPT, 'hex') }],
        memo: 'Order 7',
      },
    });
    writeFileSync(join(dir, 'request.bin'), bytes);
    writeFileSync(join(dir, 'ca.pem'), pemOf(root.der));
    const args = [join(dir, 'request.bin'), '--now', new Date().toISOString()];
    const trusted = await run(...args, '--root', join(dir, 'ca.pem'));
    expect(trusted.json).toMatchObject({
      kind: 'bip70',
      verdict: 'verified',
      network: 'main',
      amount: { value: '150000', unit: 'sat' },
      payee: 'shop.example',
      description: 'Order 7',
    });
    const untrusted = await run(...args);
    expect(untrusted.code).toBe(1);
    expect(untrusted.json.verdict).toBe('invalid');
  });

  it('a Lightning Address: offline by default, looked up and invoiced when asked', async () => {
    const address = service.address('alice');
    expect((await run(address)).json).toMatchObject({ kind: 'lnurl', verdict: 'unsigned', payee: address });
    const before = service.invoiceRequests.length;
    const invoiced = await run(address, '--lookup', '--amount-msat', '21000');
    expect(invoiced.json).toMatchObject({
      kind: 'lnurl',
      verdict: 'verified',
      amount: { value: '21000', unit: 'msat' },
      payee: TEST_NODE_KEY,
    });
    expect(service.invoiceRequests.length).toBe(before + 1);
    const mismatched = await run(service.address('mallory-hash'), '--lookup', '--amount-msat', '21000');
    expect(mismatched.code).toBe(1);
    expect(mismatched.json.reason).toMatch(/description hash is not the hash/);
  });

  it('a BOLT 12 offer in another currency, as a person runs it: its ISO 4217 code as unit', {
    timeout: 120_000,
  }, async () => {
    const offer = makeOffer({ currency: 'EUR', amount: 250n, description: 'Tea', quantityMax: 3n });
    const { code, json } = await spawn(offer);
    expect(code).toBe(0);
    expect(Object.keys(json).slice(0, 6)).toEqual([
      'kind',
      'verdict',
      'reason',
      'network',
      'amount',
      'payee',
    ]);
    expect(json).toMatchObject({
      kind: 'bolt12',
      verdict: 'unsigned',
      reason: null,
      network: 'main',
      amount: { value: '250', unit: 'EUR', decimals: 2 },
      payee: TEST_NODE_KEY,
      wallet: `lightning:${offer}`,
      details: { quantityMax: '3', description: 'Tea' },
    });
  });

  it.runIf(HAVE_BOLT12_VECTORS)(
    'every BOLT 12 spec vector: offers-test.json (53) and format-string-test.json (12)',
    async () => {
      let passed = 0;
      for (const v of OFFER_VECTORS) {
        const { code, json } = await run(v.bolt12);
        expect([v.description, code, json.kind, json.verdict]).toEqual([
          v.description,
          v.valid ? 0 : 1,
          'bolt12',
          v.valid ? 'unsigned' : 'invalid',
        ]);
        if (!v.valid) expect(json.reason, v.description).toMatch(/^This Lightning offer cannot be used: /);
        passed++;
      }
      for (const v of FORMAT_VECTORS) {
        const { code, json } = await run(v.string);
        expect([v.comment, code, json.verdict]).toEqual([
          v.comment,
          v.valid ? 0 : 1,
          v.valid ? 'unsigned' : 'invalid',
        ]);
        passed++;
      }
      expect(passed).toBe(65);
    },
  );

  it('input it cannot use: exit 2 and an error sentence', { timeout: 120_000 }, async () => {
    expect(await spawn('hello there')).toEqual({
      code: 2,
      json: { error: expect.stringMatching(/^This is not a payment request Hushdrop can read/) },
    });
    expect((await run()).code).toBe(2);
  });
});
