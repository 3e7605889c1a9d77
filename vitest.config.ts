import { defineConfig } from 'vitest/config';

// Projects: unit tests (no servers); contract tests against the Prism mocks
// their global setup starts; the sandbox's end-to-end tests, then the same
// again through `prism proxy` (conformance); and the two coverage gates, each
// in a later group than the tests whose records it reads.
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
        test: {
          // The sandbox's end-to-end tests again, every request through `prism proxy` (test/conformance/through-prism.ts).
          name: 'conformance',
          include: ['test/sandbox/channels.test.ts', 'test/sandbox/streams.test.ts', 'test/sandbox/policy.test.ts'],
          setupFiles: ['test/conformance/through-prism.ts'],
          globalSetup: ['test/conformance/prism-proxies.ts'],
          // One file at a time: the Prism proxies forward to one port, where the running file listens.
          // A group of its own, after the others (a one-worker project cannot share a group).
          fileParallelism: false,
          sequence: { groupOrder: 2 },
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: { name: 'conformance-coverage', include: ['test/conformance/coverage.test.ts'], sequence: { groupOrder: 3 } },
      },
      {
        extends: true,
        // The service-sdk command line (src/cli), in process and as child processes, against listening sandboxes.
        test: { name: 'cli', include: ['test/cli/**/*.test.ts'] },
      },
      {
        extends: true,
        // `service-sdk mcp` (src/mcp) driven over stdio by the official MCP SDK's Client.
        // Each test starts a server process (a few seconds each on a busy machine).
        test: { name: 'mcp', include: ['test/mcp/**/*.test.ts'], testTimeout: 60_000 },
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
