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
import { parse } from 'yaml';
import { bundlePath, compareAll, parseArgs, root } from './lib/spec-diff/compare.mjs';
import { changelogSection, changelogVerdict, updateChangelog } from './lib/spec-diff/format.mjs';
import { newStatusNote } from './lib/status-kinds.mjs';

/** Each change that adds a status value says whether the value is final (from the bundle's x-status-kinds). */
function withStatusNotes(result) {
  if (!result.changes?.length || !existsSync(join(root, bundlePath(result.api)))) return result;
  const document = parse(readFileSync(join(root, bundlePath(result.api)), 'utf8'));
  const changes = result.changes.map((change) => {
    const note = newStatusNote(document, change);
    return note === undefined ? change : { ...change, message: `${change.message} ${note}` };
  });
  return { ...result, changes };
}

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
      sections.push(changelogSection(withStatusNotes(result), options.date));
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
