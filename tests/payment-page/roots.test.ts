// The person's extra trusted roots (platform/payments/roots.ts), with WXT's fake browser standing
// in for local storage.
import { base64 } from '@scure/base';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createRootCa, type Identity, pemOf } from '../../devkit/ca';
import {
  addExtraRootsFromPem,
  certificatesFromPem,
  listExtraRoots,
  loadExtraRoots,
  paymentRootStore,
  paymentRootsItem,
  RootInputError,
  removeExtraRoot,
} from '../../platform/payments/roots';

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

  it('are one store until the list changes, and a changed list never keeps the old roots', async () => {
    const first = await paymentRootStore();
    // The same object, so the chain check's index of the roots (made per store) is made once.
    expect(await paymentRootStore()).toBe(first);
    const [a, b]: Identity[] = await Promise.all([
      createRootCa('Hushdrop Root A'),
      createRootCa('Hushdrop Root B'),
    ]);
    const lastOf = async () => (await paymentRootStore()).certificates.at(-1)!.tbsView;
    await paymentRootsItem.setValue([base64.encode(a.der)]);
    const withA = await paymentRootStore();
    expect(withA).not.toBe(first);
    expect(await lastOf()).toEqual(a.certificate.tbsView);
    expect(await paymentRootStore()).toBe(withA);
    // Another root in its place, the list as long as before: the store holds B, not A.
    await paymentRootsItem.setValue([base64.encode(b.der)]);
    expect(await paymentRootStore()).not.toBe(withA);
    expect(await lastOf()).toEqual(b.certificate.tbsView);
    expect((await paymentRootStore()).certificates).not.toContain(withA.certificates.at(-1));
    await paymentRootsItem.setValue([]);
    expect((await paymentRootStore()).certificates.length).toBe(first.certificates.length);
  });
});
