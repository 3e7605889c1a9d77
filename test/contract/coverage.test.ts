import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALLS_DIR } from './support/recorder.js';
import { loadBundle, operationsOf } from './support/spec.js';

const APIS = ['channels', 'streams', 'policy-coordinator', 'policy-evaluation', 'policy-reporting'];

function recordedCalls(api: string): Set<string> {
  const calls = new Set<string>();
  if (!existsSync(CALLS_DIR)) return calls;
  for (const file of readdirSync(CALLS_DIR)) {
    const record = JSON.parse(readFileSync(join(CALLS_DIR, file), 'utf8')) as { api: string; calls: string[] };
    if (record.api === api) for (const call of record.calls) calls.add(call);
  }
  return calls;
}

/**
 * Every operationId of every bundle must have been called by a contract test
 * (recorded by the clients' middleware in this run). Runs after the contract
 * project; the contract global setup empties the record at the start of a run.
 */
describe('contract coverage', () => {
  it.each(APIS)('every operation of %s was called', (api) => {
    const calls = recordedCalls(api);
    const missing = operationsOf(loadBundle(api))
      .filter((op) => !calls.has(`${op.method.toUpperCase()} ${op.path}`))
      .map((op) => `${op.operationId} (${op.method.toUpperCase()} ${op.path})`);
    expect(missing, `operations no contract test called in ${api}`).toEqual([]);
  });
});
