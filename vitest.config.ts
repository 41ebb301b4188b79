import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

const SERVER_FILES_ON_S3 = ['addresses', 'download-page', 'hostile-uploads', 'large', 'record'];

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
            // The server suite again, on this store (tests/server/storage-under-test.ts): the files that
            // look only through HTTP. The others read the disk store's files and run in `unit` only.
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
