// What people read: spec:diff's text and markdown, and CHANGELOG.md sections.
import { CATEGORIES } from './classify.mjs';
import { describeChange, listOperations, versionBump } from './gate.mjs';

const TITLES = { breaking: 'Breaking', dangerous: 'Dangerous', deprecated: 'Deprecated', removed: 'Removed', added: 'Added', changed: 'Changed' };
const RANK = { patch: 1, minor: 2, major: 3 };

function headline(result) {
  if (result.status === 'missing') return `${result.api}: ${result.reason}`;
  if (result.status === 'new') return `${result.api} ${result.revisionVersion}: new (${result.reason})`;
  const needed = result.changes.reduce((max, c) => (RANK[c.impact] > RANK[max] ? c.impact : max), 'patch');
  const versions = result.baseVersion === result.revisionVersion ? result.revisionVersion : `${result.baseVersion} -> ${result.revisionVersion}`;
  const summary = result.changes.length === 0 ? 'no change' : `${result.changes.length} change(s), needs a ${needed} bump`;
  return `${result.api} ${versions} (base ${result.baseRef}, ${result.baseWhy}): ${summary}`;
}

export function formatText(results) {
  return results
    .map((result) => [headline(result), ...(result.changes ?? []).map((c) => `  ${c.category.padEnd(10)} ${describeChange(c)}`)].join('\n'))
    .join('\n\n');
}

const quote = (operation) => operation.replace(/^(\S+ \S+)/, '`$1`');

/** "- `GET /a` (op) and 2 more, `Field.x`: message" (pointer left out). */
function markdownLine(change) {
  const where = [listOperations(change.operations, quote), change.field].filter(Boolean).join(', ');
  return `- ${where ? `${where}: ` : ''}${change.message}`;
}

/** Category subsections; documentation-only edits collapse into one line. */
function markdownBody(result, { collapseDocs }) {
  if (result.status === 'new') {
    return `First version in this changelog: ${result.operations.length} operation(s).\n\n### Added\n${result.operations.map((o) => `- ${quote(o)}`).join('\n')}\n`;
  }
  const docs = collapseDocs ? result.changes.filter((c) => c.documentation) : [];
  const blocks = [];
  for (const category of CATEGORIES) {
    const lines = result.changes.filter((c) => c.category === category && !docs.includes(c)).map(markdownLine);
    if (category === 'changed' && docs.length > 0) lines.push(`- Descriptions and examples edited in ${docs.length} place(s) (\`npm run spec:diff\` lists them).`);
    if (lines.length > 0) blocks.push(`### ${TITLES[category]}\n${lines.join('\n')}\n`);
  }
  return blocks.join('\n');
}

export function formatMarkdown(results) {
  return results
    .map((result) => {
      const body = result.changes?.length || result.status === 'new' ? markdownBody(result, { collapseDocs: false }) : '';
      return [`## ${headline(result)}`, body.trimEnd()].filter(Boolean).join('\n\n');
    })
    .join('\n\n');
}

/** One CHANGELOG.md section: API, version, date, then the changes by category. */
export function changelogSection(result, date) {
  const ref = result.baseKind === 'git' ? ` (${result.baseRef})` : '';
  const since = result.status === 'new' ? '' : `Changes since ${result.baseVersion}${ref}.\n\n`;
  return `## ${result.api} ${result.revisionVersion} (${date})\n\n${since}${markdownBody(result, { collapseDocs: true })}`;
}

/** Whether a comparison deserves a changelog section, or why not. */
export function changelogVerdict(result) {
  if (result.status === 'missing') return { write: false, error: `${result.api}: ${result.reason}` };
  if (result.status === 'new') return { write: true };
  if (result.changes.length === 0) return { write: false };
  const bump = versionBump(result.baseVersion, result.revisionVersion);
  if (bump === 'none' || bump === 'down') {
    return { write: false, error: `${result.api}: ${result.changes.length} change(s) but info.version is ${result.revisionVersion} (base ${result.baseVersion}); bump it first` };
  }
  return { write: true };
}

// Read by users of the package (it ships CHANGELOG.md): what the versions mean to their code.
const PREAMBLE = `# Changelog

Changes to the HTTP API descriptions the clients are generated from, per API
and version, newest first. Each entry point exports the version it was
generated from (\`CHANNELS_API_VERSION\`, \`STREAMS_API_VERSION\`, …).

- A new **major** version may break code written against the previous one:
  see its Breaking list.
- A new **minor** version adds endpoints, optional fields or parameters, or
  new values of response enums. New values are listed under Dangerous: code
  that handles "every" value (an exhaustive \`switch\`) stops compiling once
  regenerated, until it handles the new one.
- A **patch** changes descriptions and examples, or marks something
  deprecated.
`;

/**
 * Inserts each section on top (in the given order), or replaces the section
 * of the same API and version.
 */
export function updateChangelog(existing, sections) {
  const blocks = (existing && existing.trim() ? existing : PREAMBLE).split(/^(?=## )/m);
  const preamble = blocks[0].startsWith('## ') ? PREAMBLE : blocks.shift();
  const keyOf = (block) => /^## (\S+ \S+)/.exec(block)?.[1];
  const fresh = [];
  for (const section of sections) {
    const body = section.trimEnd() + '\n\n';
    const index = blocks.findIndex((block) => keyOf(block) === keyOf(section));
    if (index >= 0) blocks[index] = body;
    else fresh.push(body);
  }
  return (preamble.trimEnd() + '\n\n' + [...fresh, ...blocks].join('')).trimEnd() + '\n';
}
