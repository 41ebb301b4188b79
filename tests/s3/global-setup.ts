// Vitest globalSetup of the `s3` project: one Ceph cluster (and its gateway) for the whole test run,
// started before the first S3 test file and stopped after the last, whatever the tests did. Test files
// get its address and credentials with `inject('ceph')` (see store.ts).

import type { TestProject } from 'vitest/node';
import { type CephInfo, startCeph } from '../../devkit/ceph';

declare module 'vitest' {
  export interface ProvidedContext {
    ceph: CephInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const ceph = await startCeph();
  console.log(
    `Ceph for the S3 tests: ${ceph.endpoint}, started in ${(ceph.startMs / 1000).toFixed(1)} s, ` +
      `${(ceph.memoryBytes() / 2 ** 20).toFixed(0)} MiB resident`,
  );
  const { dir, conf, endpoint, region, accessKeyId, secretAccessKey } = ceph;
  project.provide('ceph', { dir, conf, endpoint, region, accessKeyId, secretAccessKey });
  return async () => {
    const each = Object.entries(ceph.memory()).map(
      ([name, bytes]) => `${name} ${(bytes / 2 ** 20).toFixed(0)}`,
    );
    console.log(`Ceph at the end of the S3 tests, MiB resident: ${each.join(', ')}`);
    await ceph.stop();
  };
}
