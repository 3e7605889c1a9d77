#!/usr/bin/env node
// The spec gate (part of `npm test`): fails when a spec changed without the
// matching bump of its info.version. See lib/spec-diff/gate.mjs for the rule.
//
//   npm run spec:check -- [--base <git-ref>] [--api <name>]
import { compareAll, parseArgs } from './lib/spec-diff/compare.mjs';
import { gate } from './lib/spec-diff/gate.mjs';

try {
  const options = parseArgs(process.argv.slice(2), { base: undefined, api: undefined });
  const verdicts = (await compareAll({ baseRef: options.base, apis: options.api && [options.api] })).map(gate);
  for (const { notes } of verdicts) for (const note of notes) console.log(`spec:check: ${note}`);
  const problems = verdicts.flatMap((v) => v.problems);
  for (const problem of problems) console.error(`spec:check: FAIL ${problem}`);
  if (problems.length > 0) {
    console.error('spec:check: bump info.version in openapi/<api>/openapi.yaml as above, then `npm run generate` (see "After a spec bump" in the README).');
    process.exitCode = 1;
  }
} catch (error) {
  console.error(`spec:check: ${error.message}`);
  process.exitCode = 2;
}
