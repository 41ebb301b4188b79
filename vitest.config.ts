import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

// The server suite's files that run on S3 too (tests/server/storage-under-test.ts): they look at the store
// only through HTTP and the test server's stored()/storedBlobs(), which read through the storage interface.
// accounts, bodies, deployment and main start a server in a process of its own, which gets the store from
// STORAGE_URL and the AWS_* variables as a deployment does (tests/server/product-store.ts).
const SERVER_FILES_ON_S3 = [
  'accounts',
  'addresses',
  'bodies',
  'deployment',
  'download-page',
  'faults',
  'hostile-uploads',
  'large',
  'limits',
  'link-format',
  'main',
  'metrics',
  'operator',
  'names',
  'parts',
  'parts-done',
  'parts-stalls',
  'parts-store',
  'record',
  'server',
  'sweeper',
  'tls',
];
// The others stay on disk, each for a reason:
// - storage, persistence, full-disk: the disk store itself (its files, its lock, a data folder that
//   outlives the process, a disk that fills up); tests/s3/ checks the S3 store the same way;
// - shutdown: it watches a write in progress (on S3 seen only once a full 8 MiB part has arrived) and
//   reads the store after the server closed it, and its last test is about the data folder's lock;
// - config, units: no store at all;
// - daemon (signals, start-up problems) and package (the installed package's first run): not about the store.

export default defineConfig({
  plugins: [WxtVitest()],
  // Components render in unit tests too: their JSX is Preact's, as in the build.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: {
    testTimeout: 30_000,
    setupFiles: ['tests/i18n-setup.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/**/*.test.ts'], exclude: ['tests/e2e/**', 'tests/s3/**'] },
      },
      {
        // Against a real S3-compatible store: one single-node Ceph for the run, started only when a file
        // of this project is selected (Debian's ceph-mon, ceph-osd and radosgw; `.ci/run` installs them).
        extends: true,
        test: {
          name: 's3',
          include: [
            'tests/s3/**/*.test.ts',
            // The server suite again, on this store (see SERVER_FILES_ON_S3 above).
            ...SERVER_FILES_ON_S3.map((name) => `tests/server/${name}.test.ts`),
          ],
          env: { HUSHDROP_TEST_STORAGE: 's3' },
          globalSetup: ['tests/s3/global-setup.ts'],
          // The memory test collects garbage before it measures.
          execArgv: ['--expose-gc'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // After the unit tests, one file at a time: these move hundreds of MiB through a store on the
          // same two cores, and some of them stop or freeze a gateway on purpose.
          sequence: { groupOrder: 1 },
          fileParallelism: false,
        },
      },
    ],
  },
});
