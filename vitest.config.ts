import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Installs the test-only toolchain (tools/node22) on first use: see scripts/test-toolchain.mjs.
    globalSetup: ['test/setup/toolchain.ts'],
    // Gateways the tests start leave the user's cache folder alone (src/cli/compile-cache.ts, which
    // test/cli/compile-cache.test.ts runs with its own folders).
    env: { SWITCHBOARD_COMPILE_CACHE: '0' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
