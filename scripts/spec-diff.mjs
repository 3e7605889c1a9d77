#!/usr/bin/env node
// Lists, per API, every change between a base and the current bundle
// (generated/openapi/<api>.yaml), as a client sees it.
//
//   npm run spec:diff -- [--base <git-ref>] [--format text|json|markdown] [--api <name>]
//
// Default base: the API's committed release file, openapi/releases/<api>.yaml;
// with --base, the bundle committed at that ref.
// Changes are rated by `redocly diff` plus our rules (lib/spec-diff/classify.mjs).
import { compareAll, parseArgs } from './lib/spec-diff/compare.mjs';
import { formatMarkdown, formatText } from './lib/spec-diff/format.mjs';

try {
  const options = parseArgs(process.argv.slice(2), { base: undefined, format: 'text', api: undefined });
  if (!['text', 'json', 'markdown'].includes(options.format)) throw new Error(`--format ${options.format}: use text, json or markdown`);
  const results = await compareAll({ baseRef: options.base, apis: options.api && [options.api] });
  const print = { text: formatText, markdown: formatMarkdown, json: (r) => JSON.stringify(r, null, 2) }[options.format];
  console.log(print(results));
} catch (error) {
  console.error(`spec:diff: ${error.message}`);
  process.exitCode = 2;
}
