#!/usr/bin/env node
// The spec gate (part of `npm test`): fails when a bundle changed since its
// committed release (openapi/releases/<api>.yaml) without the matching bump
// of its info.version, or when an API has no release file. It reads the
// working tree only, so it bites the same in a clone without tags or history.
// See lib/spec-diff/gate.mjs for the rule.
//
//   npm run spec:check -- [--api <name>] [--tag <api>@<version> | v<version>]
//
// With --tag (the publish workflow), every bundle must also be exactly its
// release, and the tag must name a released version.
import { apiNames, compareAll, parseArgs, root } from './lib/spec-diff/compare.mjs';
import { gate } from './lib/spec-diff/gate.mjs';
import { releaseTagProblems } from './lib/spec-diff/release.mjs';

try {
  const options = parseArgs(process.argv.slice(2), { api: undefined, tag: undefined });
  const released = options.tag !== undefined;
  const verdicts = (await compareAll({ apis: options.api && [options.api] })).map((result) => gate(result, { released }));
  for (const { notes } of verdicts) for (const note of notes) console.log(`spec:check: ${note}`);
  const problems = verdicts.flatMap((v) => v.problems);
  if (released) problems.push(...releaseTagProblems(options.tag, { apis: apiNames(root), cwd: root }));
  for (const problem of problems) console.error(`spec:check: FAIL ${problem}`);
  if (problems.length > 0) {
    console.error('spec:check: see "After a spec bump" in CONTRIBUTING.md: bump info.version in openapi/<api>/openapi.yaml, `npm run generate`, `npm run spec:changelog`, `npm run spec:release -- --api <api>`.');
    process.exitCode = 1;
  }
} catch (error) {
  console.error(`spec:check: ${error.message}`);
  process.exitCode = 2;
}
