// The person's extra trusted roots (platform/payments/roots.ts), with WXT's fake browser standing
// in for local storage.
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  addExtraRootsFromPem,
  certificatesFromPem,
  listExtraRoots,
  loadExtraRoots,
  paymentRootStore,
  RootInputError,
  removeExtraRoot,
} from '../../platform/payments/roots';
import { createRootCa, pemOf } from '../merchant/ca';

let rootPem: string;
beforeAll(async () => {
  fakeBrowser.reset();
  rootPem = pemOf((await createRootCa('Hushdrop Test Merchant CA')).der);
});

describe('extra trusted roots', () => {
  it('are added once, join the bundled ones, are listed by name, removed, and garbage refused', async () => {
    const bundled = (await paymentRootStore()).certificates.length;
    expect(await addExtraRootsFromPem(rootPem)).toBe(1);
    expect(await addExtraRootsFromPem(rootPem)).toBe(0);
    expect((await paymentRootStore()).certificates.length).toBe(bundled + 1);
    const [root] = await listExtraRoots();
    expect(root?.name).toBe('Hushdrop Test Merchant CA');
    expect(root?.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    await removeExtraRoot(root!.der64);
    expect(await loadExtraRoots()).toEqual([]);
    expect(() => certificatesFromPem('hello')).toThrow(RootInputError);
    expect(() => certificatesFromPem('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----')).toThrow(
      /cannot be read as an X.509 certificate/,
    );
  });
});
