// Request checks regenerated from an edited copy of a committed bundle, into
// a temporary folder inside the repository (ignored by git), by the same code
// `npm run generate` runs: what a spec bump would commit, without touching
// generated/. The folder gets the run-time module beside the checks.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { requestChecksModules, requestChecksRuntime } from '../../scripts/lib/request-checks.mjs';
import { GENERATED_REQUEST_CHECKS, type RequestChecks } from '../../src/sandbox/request-check.js';
import type { SandboxApi } from '../../src/sandbox/types.js';

const root = join(import.meta.dirname, '..', '..');

/** A committed bundle (generated/openapi/<api>.yaml), parsed afresh: the caller may edit it. */
export function committedBundle(api: SandboxApi): Record<string, any> {
  return parse(readFileSync(join(root, 'generated', 'openapi', `${api}.yaml`), 'utf8'));
}

/** A temporary folder for regenerated checks; `remove()` deletes it. */
export function checksFolder(): {
  generate: (api: string, bundle: Record<string, any>, name: string) => Promise<RequestChecks[SandboxApi]>;
  regenerate: (api: SandboxApi, bundle: Record<string, any>, name: string) => Promise<RequestChecks>;
  remove: () => void;
} {
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const out = mkdtempSync(join(root, '.tmp', 'checks-'));
  writeFileSync(join(out, 'runtime.ts'), requestChecksRuntime(root));
  const generate = async (api: string, bundle: Record<string, any>, name: string) => {
    for (const [file, text] of Object.entries(requestChecksModules(api, bundle, name))) writeFileSync(join(out, file), text);
    return ((await import(pathToFileURL(join(out, `${name}.ts`)).href)) as { requestChecks: RequestChecks[SandboxApi] }).requestChecks;
  };
  return {
    /** The checks of any bundle, by operationId (written as `<name>.ts` and its parts). */
    generate,
    /** The committed checks, with `api`'s regenerated from `bundle`. */
    regenerate: async (api, bundle, name) => ({ ...GENERATED_REQUEST_CHECKS, [api]: await generate(api, bundle, name) }),
    remove: () => rmSync(out, { recursive: true, force: true }),
  };
}
