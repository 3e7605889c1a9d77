import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Middleware } from 'openapi-fetch';

/** Where each contract test file writes the operations it called; read by the coverage test. */
export const CALLS_DIR = join(import.meta.dirname, '..', '..', '..', '.tmp', 'contract-calls');

/**
 * A client middleware that records `METHOD /path/template` of every request
 * the contract tests send, so the coverage test can name operations that no
 * test called.
 */
export function createCallRecorder(api: string) {
  const calls = new Set<string>();
  const middleware: Middleware = {
    onRequest({ request, schemaPath }) {
      calls.add(`${request.method} ${schemaPath}`);
      return undefined;
    },
  };
  const save = () => {
    mkdirSync(CALLS_DIR, { recursive: true });
    writeFileSync(join(CALLS_DIR, `${api}-${process.pid}-${Date.now()}.json`), JSON.stringify({ api, calls: [...calls] }));
  };
  return { middleware, calls, save };
}
