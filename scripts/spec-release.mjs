#!/usr/bin/env node
// Makes the current bundle of one API its release: writes
// openapi/releases/<api>.yaml, the base that spec:check, spec:diff and
// spec:changelog compare with from then on. Commit it with the bump.
//
//   npm run spec:release -- --api <name> [--changelog CHANGELOG.md]
//
// It refuses what the gate refuses (a change without the bump it needs), and
// a version that CHANGELOG.md has no section for, so that writing the release
// file cannot be a way around either.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bundlePath, compareAll, parseArgs, root } from './lib/spec-diff/compare.mjs';
import { gate } from './lib/spec-diff/gate.mjs';
import { releasePath, releaseText } from './lib/spec-diff/release.mjs';

/** Whether a changelog has the section `## <api> <version> (<date>)`. */
function hasChangelogSection(text, api, version) {
  return text.split('\n').some((line) => line.startsWith(`## ${api} ${version} (`));
}

try {
  const options = parseArgs(process.argv.slice(2), { api: undefined, changelog: join(root, 'CHANGELOG.md') });
  if (options.api === undefined) throw new Error('--api <name> is required: one API per release');
  const [result] = await compareAll({ apis: [options.api] });
  const { api, revisionVersion: version } = result;
  const target = join(root, releasePath(api));

  if (result.status === 'missing') throw new Error(result.reason);
  if (result.status === 'compared' && result.matchesBase) {
    console.log(`spec:release: ${api} ${version} is already released (${releasePath(api)}); nothing to write.`);
  } else {
    // A first release has nothing to be held to; any other must pass the gate.
    const verdict = result.status === 'new' ? { ok: true, problems: [] } : gate(result);
    if (!verdict.ok) {
      for (const problem of verdict.problems) console.error(`spec:release: REFUSED ${problem}`);
      console.error(`spec:release: ${releasePath(api)} is unchanged. Bump info.version as above, \`npm run generate\`, then try again.`);
      process.exitCode = 1;
    } else if (!(existsSync(options.changelog) && hasChangelogSection(readFileSync(options.changelog, 'utf8'), api, version))) {
      console.error(`spec:release: REFUSED ${options.changelog} has no section "## ${api} ${version} (<date>)": run \`npm run spec:changelog -- --api ${api}\` first.`);
      process.exitCode = 1;
    } else {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, releaseText(api, readFileSync(join(root, bundlePath(api)), 'utf8')));
      const from = result.status === 'new' ? 'its first release' : `was ${result.baseVersion}`;
      console.log(`spec:release: ${releasePath(api)} now holds ${api} ${version} (${from}); commit it with the bump.`);
    }
  }
} catch (error) {
  console.error(`spec:release: ${error.message}`);
  process.exitCode = 2;
}
