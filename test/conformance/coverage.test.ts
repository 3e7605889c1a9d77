// The gate: every operationId of the five specs (HEAD included) was answered
// by the sandbox through `prism proxy` with no violation in this run (see
// through-prism.ts). Runs after the conformance project.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_HTTP_METHODS, loadBundle, operationsOf } from '../contract/support/spec.js';
import { CONFORMANCE_DIR } from './answers.js';

const APIS = ['channels', 'streams', 'policy-coordinator', 'policy-evaluation', 'policy-reporting'] as const;

/**
 * Operations whose success cannot travel through Prism: `GET /api/v1/ws`
 * answers `101 Switching Protocols` and then speaks WebSocket, which an
 * HTTP proxy does not carry. Its plain-HTTP refusal is still answered
 * through the proxy by the streams tests, and counts.
 */
function answeredOperations(): Set<string> {
  const answered = new Set<string>();
  if (!existsSync(CONFORMANCE_DIR)) return answered;
  for (const file of readdirSync(CONFORMANCE_DIR)) {
    for (const entry of JSON.parse(readFileSync(join(CONFORMANCE_DIR, file), 'utf8')) as string[]) answered.add(entry);
  }
  return answered;
}

describe('conformance coverage', () => {
  it.each(APIS)('every operation of %s was answered through prism proxy with no violation', (api) => {
    const answered = answeredOperations();
    const missing = operationsOf(loadBundle(api), ALL_HTTP_METHODS)
      .filter((op) => !answered.has(`${api} ${op.operationId}`))
      .map((op) => `${op.operationId} (${op.method.toUpperCase()} ${op.path})`);
    expect(missing, `operations of ${api} the sandbox did not answer through prism proxy`).toEqual([]);
  });
});
