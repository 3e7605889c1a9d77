import { defineConfig } from 'vitest/config';

// Projects: unit tests (no servers); contract tests against the Prism mocks
// their global setup starts; the coverage gate, which runs after the contract
// tests (a later group) and reads the calls they recorded.
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 90_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'contract',
          include: ['test/contract/**/*.test.ts'],
          exclude: ['test/contract/coverage.test.ts'],
          globalSetup: ['test/contract/prism-setup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'sandbox', include: ['test/sandbox/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'package', include: ['test/package/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], testTimeout: 120_000 },
      },
      {
        extends: true,
        test: { name: 'runtimes', include: ['test/runtimes/**/*.test.ts'], testTimeout: 120_000 },
      },
      {
        extends: true,
        test: {
          name: 'contract-coverage',
          include: ['test/contract/coverage.test.ts'],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
