// How certificate keys reach WebCrypto (lib/payments/rsa-key.ts): from the modulus and exponent
// pkijs parsed, as a JWK, because an SPKI import costs several times as much; the SPKI import
// stays the fallback, so a key that imports neither way still fails as it always did.
import { beforeAll, describe, expect, it } from 'vitest';
import { createRootCa, type Identity, issue } from '../../devkit/ca';
import { t } from '../../lib/i18n';
import { createCertificateCache } from '../../lib/payments/certificate-cache';
import { createRootStore, type RootStore } from '../../lib/payments/roots';
import { evaluatePaymentRequest } from '../../lib/payments/verify';
import { buildPaymentRequest, P2PKH_SCRIPT } from '../merchant/requests';
import { fromHex } from '../merchant/wire';
import { watchedSubtle } from './watched-subtle';

const NOW = new Date();

let root: Identity;
let intermediate: Identity;
let leaf: Identity;
let roots: RootStore;

beforeAll(async () => {
  root = await createRootCa('Hushdrop Key Import Root CA');
  intermediate = await issue(root, { commonName: 'Hushdrop Key Import Issuing CA', isCa: true });
  leaf = await issue(intermediate, { commonName: 'shop.example' });
  roots = createRootStore([root.der]);
}, 60_000);

const request = (chain: Uint8Array[], privateKey: CryptoKey) =>
  buildPaymentRequest({
    details: { time: 1n, outputs: [{ amount: 1000n, script: fromHex(P2PKH_SCRIPT) }] },
    signer: { chain, privateKey },
  });

/** First sight: a fresh certificate cache, so every key of the chain is imported again. */
const judge = (bytes: Uint8Array, subtle: SubtleCrypto) =>
  evaluatePaymentRequest(bytes, { roots, now: NOW, subtle, certificates: createCertificateCache() });

describe('certificate keys reach WebCrypto from the parsed key', () => {
  it('imports every RSA key of a chain as a JWK, none as SPKI, and verifies', async () => {
    const watched = watchedSubtle();
    const result = await judge(
      await request([leaf.der, intermediate.der], leaf.keys.privateKey),
      watched.subtle,
    );
    expect(result.verdict).toBe('verified');
    // The leaf's key (for the request's signature), the intermediate's and the root's (for the chain).
    expect(watched.formats).toEqual(['jwk', 'jwk', 'jwk']);
  });

  it('the JWK is the certificate’s own key: a request signed by another key is refused', async () => {
    const other = await issue(intermediate, { commonName: 'shop.example' });
    const result = await judge(
      await request([leaf.der, intermediate.der], other.keys.privateKey),
      watchedSubtle().subtle,
    );
    expect(result.verdict).toBe('invalid');
    expect(result.reasons).toEqual([t('paySignatureMismatch')]);
  });

  it('where WebCrypto refuses the JWK, the SPKI import decides, with the same verdicts', async () => {
    const watched = watchedSubtle(['jwk']);
    const good = await judge(
      await request([leaf.der, intermediate.der], leaf.keys.privateKey),
      watched.subtle,
    );
    expect(good.verdict).toBe('verified');
    expect(watched.formats).toContain('spki');
    const rogueRoot = await createRootCa('Hushdrop Key Import Root CA');
    const rogue = await issue(rogueRoot, { commonName: 'shop.example' });
    const bad = await judge(await request([rogue.der], rogue.keys.privateKey), watched.subtle);
    expect(bad.verdict).toBe('invalid');
  });

  it('a merchant certificate holding an EC key is refused with the sentence that says so', async () => {
    const ec = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
      'verify',
    ]);
    const ecLeaf = await issue(intermediate, { commonName: 'shop.example', publicKey: ec.publicKey });
    // The request is signed with the RSA key issue() made; the certificate names the EC key.
    const result = await judge(
      await request([ecLeaf.der, intermediate.der], ecLeaf.keys.privateKey),
      watchedSubtle().subtle,
    );
    expect(result.verdict).toBe('invalid');
    expect(result.reasons).toContain(t('payCertificateNotRsa'));
  });
});
