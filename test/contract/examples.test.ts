import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { prismUrl } from './support/clients.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');

/** The README's examples, run as a user would, against the mocks. */
describe('examples/ run against the mocks', () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ['channels', { CHANNELS_BASE_URL: prismUrl('channels'), CHANNELS_API_KEY: 'example-key' }, /operation .* is /],
    [
      'streams',
      { STREAMS_BASE_URL: prismUrl('streams'), STREAMS_API_KEY: 'f2cb6d4c-7b0e-4b0a-9c3e-1f0c2b7d4e11', STREAMS_API_SECRET: 'example-secret' },
      /ETH\/USD \d+\.\d+ at \d+/,
    ],
    [
      'policy',
      {
        POLICY_API_KEY: 'example-key',
        POLICY_COORDINATOR_URL: prismUrl('policy-coordinator'),
        POLICY_EVALUATION_URL: prismUrl('policy-evaluation'),
        POLICY_REPORTING_URL: prismUrl('policy-reporting'),
      },
      /transaction: 0x[0-9a-f]{64}/,
    ],
  ];
  it.each(cases)('examples/%s.ts', async (name, env, expected) => {
    const { stdout } = await run(process.execPath, [tsx, join(root, 'examples', `${name}.ts`)], {
      cwd: root,
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    expect(stdout).toMatch(expected);
  }, 90_000);
});
