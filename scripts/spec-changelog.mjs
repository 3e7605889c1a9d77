#!/usr/bin/env node
// Writes one CHANGELOG.md section per API whose spec changed since its base
// (by default its release file openapi/releases/<api>.yaml): version, date,
// and one line per change under Breaking / Dangerous / Deprecated / Removed /
// Added / Changed. Run after bumping info.version; a section for the same
// API and version is replaced, so it can be re-run.
//
//   npm run spec:changelog -- [--base <git-ref>] [--api <name>] [--date YYYY-MM-DD] [--output CHANGELOG.md]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareAll, parseArgs, root } from './lib/spec-diff/compare.mjs';
import { changelogSection, changelogVerdict, updateChangelog } from './lib/spec-diff/format.mjs';

try {
  const options = parseArgs(process.argv.slice(2), {
    base: undefined,
    api: undefined,
    date: new Date().toISOString().slice(0, 10),
    output: join(root, 'CHANGELOG.md'),
  });
  const sections = [];
  for (const result of await compareAll({ baseRef: options.base, apis: options.api && [options.api] })) {
    const verdict = changelogVerdict(result);
    if (verdict.error) {
      console.error(`spec:changelog: ${verdict.error}`);
      process.exitCode = 1;
    } else if (verdict.write) {
      sections.push(changelogSection(result, options.date));
      console.log(`spec:changelog: ${result.api} ${result.revisionVersion}: ${result.status === 'new' ? 'first version' : `${result.changes.length} change(s)`}`);
    } else {
      console.log(`spec:changelog: ${result.api}: no change since ${result.baseRef}`);
    }
  }
  if (sections.length > 0) {
    const existing = existsSync(options.output) ? readFileSync(options.output, 'utf8') : '';
    writeFileSync(options.output, updateChangelog(existing, sections));
    console.log(`spec:changelog: wrote ${options.output}`);
  }
} catch (error) {
  console.error(`spec:changelog: ${error.message}`);
  process.exitCode = 2;
}
