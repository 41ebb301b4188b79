import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // A shared 2-core machine can be slow to reflect what the extension did; 1 s (the default) was not enough.
    expect: { poll: { timeout: 15_000 } },
  },
});
