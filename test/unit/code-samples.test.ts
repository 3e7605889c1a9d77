// The SDK samples of the reference docs (scripts/lib/code-samples.mjs): one
// per operation of every spec, and each compiles as a user's module against
// the sources, strictly. A failure names the operation.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { codeSamplesOf, FIRST_CALL_SAMPLE, withCodeSamples } from '../../scripts/lib/code-samples.mjs';
import { ALL_HTTP_METHODS, loadBundle, operationsOf } from '../contract/support/spec.js';
import { typeCheckUserModules } from '../support/user-modules.js';

const root = join(import.meta.dirname, '..', '..');
const dir = join(root, 'test-results', 'code-samples');
const APIS = ['channels', 'streams', 'policy-coordinator', 'policy-evaluation', 'policy-reporting'] as const;
const bundleText = (api: string) => readFileSync(join(root, 'generated', 'openapi', `${api}.yaml`), 'utf8');

describe('SDK code samples of the reference docs', () => {
  it.each(APIS)('%s: every operation has one, and the docs build adds it', (api) => {
    const operations = operationsOf(loadBundle(api), ALL_HTTP_METHODS).map((op) => op.operationId).sort();
    const samples = codeSamplesOf(api, parse(bundleText(api))) as [string, string][];
    expect(samples.map(([id]) => id).sort()).toEqual(operations);
    const withSamples = parse(withCodeSamples(api, bundleText(api)));
    for (const op of operationsOf(loadBundle(api), ALL_HTTP_METHODS)) {
      expect(withSamples.paths[op.path][op.method]['x-codeSamples'], op.operationId).toEqual([
        { lang: 'TypeScript', label: 'SDK', source: expect.stringContaining('@ourteam/service-sdk/') },
      ]);
    }
  });

  it('every channels sample makes its client at the organisation\'s address, as the README does', () => {
    // The README's channels section: "The channels API lives at your organisation's own address: pass it as `baseUrl`."
    const readmeClient = /createChannelsClient\(\{[^}]*baseUrl: 'https:\/\/<org>\.example\/v1'/;
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toMatch(readmeClient);
    const samples = codeSamplesOf('channels', parse(bundleText('channels'))) as [string, string][];
    expect(samples.length).toBeGreaterThan(0);
    const without = samples.filter(([, source]) => !readmeClient.test(source)).map(([operationId]) => operationId);
    expect(without, 'channels samples whose client has no baseUrl').toEqual([]);
    expect(FIRST_CALL_SAMPLE).toMatch(readmeClient);
  });

  it('every sample, and the first call of the docs index, compiles as a user module', { timeout: 180_000 }, () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = new Map<string, string>();
    for (const api of APIS) {
      for (const [operationId, source] of codeSamplesOf(api, parse(bundleText(api))) as [string, string][]) {
        const file = join(dir, `${api}.${operationId}.ts`);
        writeFileSync(file, `${source}\nexport {};\n`);
        files.set(file, `${api} ${operationId}`);
      }
    }
    // The first call the docs index shows under the install line.
    const firstCall = join(dir, 'index.first-call.ts');
    writeFileSync(firstCall, `${FIRST_CALL_SAMPLE}\nexport {};\n`);
    files.set(firstCall, 'the docs index: first call');
    const problems = typeCheckUserModules([...files.keys()], (file) => files.get(file)!);
    expect(problems).toEqual([]);
  });
});
