// The config's type only: this package is CommonJS and vitest/config is an ES module, so a
// value import (defineConfig, which only hands the object back) does not type-check.
type ViteUserConfig = import('vitest/config', { with: { 'resolution-mode': 'import' }}).ViteUserConfig;

export default {
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
  },
} satisfies ViteUserConfig;
