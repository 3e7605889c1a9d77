import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { AUTHORING_NOTE, MAINTAINER_WORDING, NOTE_KEY, withoutMaintainerNotes } from '../../scripts/lib/maintainer-notes.mjs';

// Descriptions are published as the reference docs and state what the API
// does; why a fact was chosen is an `x-decision` beside it, for maintainers,
// which the docs build drops. `npm run lint` checks the same two things with
// Redocly rules (rule/description-for-readers, rule/x-decision-non-empty);
// this test also checks that each note is a string, which a lint rule cannot.
const root = join(import.meta.dirname, '..', '..');
const specDir = join(root, 'openapi');
const bundleDir = join(root, 'generated', 'openapi');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.yaml'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** Released bundles are frozen copies of what was published; only the living specs are held to this. */
const specFiles = yamlFiles(specDir).filter((file) => !relative(specDir, file).startsWith('releases'));
const bundleFiles = yamlFiles(bundleDir);

interface Found {
  where: string;
  value: unknown;
}

/** Every value under `key`, anywhere in a parsed document, with its path. */
function valuesOf(node: unknown, key: string, path = '#'): Found[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => valuesOf(item, key, `${path}/${index}`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([name, value]) => [
    ...(name === key ? [{ where: `${path}/${name}`, value }] : []),
    ...valuesOf(value, key, `${path}/${name}`),
  ]);
}

function withoutKey(node: unknown, key: string): unknown {
  if (Array.isArray(node)) return node.map((item) => withoutKey(item, key));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).filter(([name]) => name !== key).map(([name, value]) => [name, withoutKey(value, key)]));
}

const parseFile = (file: string): unknown => parse(readFileSync(file, 'utf8'));

/** Spec files by folder (`channels`, `common`, …), then the bundles: one test each. */
const groups: Array<[string, string[]]> = [
  ...[...new Set(specFiles.map((file) => relative(specDir, file).split('/')[0]!))].map(
    (folder): [string, string[]] => [`openapi/${folder}`, specFiles.filter((file) => relative(specDir, file).startsWith(`${folder}/`))],
  ),
  ['generated/openapi', bundleFiles],
];

/** `file#/pointer: detail` for every value under `key` that `isBad` flags, across files. */
function findings(files: string[], key: string, isBad: (value: unknown) => string | undefined): string[] {
  return files.flatMap((file) =>
    valuesOf(parseFile(file), key).flatMap(({ where, value }) => {
      const detail = isBad(value);
      return detail === undefined ? [] : [`${relative(root, file)}${where.slice(1)}: ${detail}`];
    }),
  );
}

describe('descriptions are written for readers', () => {
  it('the specs and the bundles are there to check', () => {
    expect(specFiles.length).toBeGreaterThan(100);
    expect(bundleFiles.length).toBeGreaterThanOrEqual(5);
  });

  it.each(groups)('%s: no description holds an authoring note', (_, files) => {
    const notes = findings(files, 'description', (value) =>
      typeof value === 'string' ? value.match(AUTHORING_NOTE)?.[0] : undefined,
    );
    expect(notes).toEqual([]);
  });

  it.each(groups)('%s: no description speaks of how the spec was written', (_, files) => {
    const wording = findings(files, 'description', (value) =>
      typeof value === 'string' ? value.match(MAINTAINER_WORDING)?.[0] : undefined,
    );
    expect(wording).toEqual([]);
  });

  it.each(groups)('%s: every x-decision is a non-empty string', (_, files) => {
    const bad = findings(files, NOTE_KEY, (value) =>
      typeof value === 'string' && value.trim() !== '' ? undefined : JSON.stringify(value),
    );
    expect(bad).toEqual([]);
  });

  it('the rationale is kept: the specs carry x-decision notes', () => {
    const notes = specFiles.flatMap((file) => valuesOf(parseFile(file), NOTE_KEY));
    expect(notes.length).toBeGreaterThan(50);
  });
});

describe('MAINTAINER_WORDING', () => {
  it.each([
    ['(published as "CRE Connect API" 0.8.0)'],
    ['the published description calls it ISO 8601'],
    ['a separate service with its own published body'],
    ['Values are not published.'],
    ['as the service publishes them'],
    ['Neither the product description nor'],
  ])('flags %j', (text) => {
    expect(text).toMatch(MAINTAINER_WORDING);
  });

  it.each([
    ['New reports pushed over WebSocket as they are published'],
    ['Each change is published as an `operation.status` event.'],
    ['Creates a watcher that follows one contract and publishes the chosen events'],
  ])('leaves the API\'s own use of "publish" alone: %j', (text) => {
    expect(text).not.toMatch(MAINTAINER_WORDING);
  });
});

describe('withoutMaintainerNotes (what the docs are built from)', () => {
  it('drops every x-decision, at any depth, and nothing else', () => {
    const text = [
      'info:',
      '  title: T',
      '  description: What it does.',
      '  x-decision: Why.',
      'paths:',
      '  /a:',
      '    get:',
      '      parameters:',
      '        - name: p',
      '          x-decision: |',
      '            Why, at length.',
      '      x-decisions: kept, another key',
      '',
    ].join('\n');
    expect(parse(withoutMaintainerNotes(text))).toEqual({
      info: { title: 'T', description: 'What it does.' },
      paths: { '/a': { get: { parameters: [{ name: 'p' }], 'x-decisions': 'kept, another key' } } },
    });
  });

  it('refuses text that is not YAML', () => {
    expect(() => withoutMaintainerNotes('a: [unclosed')).toThrow(/not a YAML document/);
  });

  it.each(bundleFiles.map((file) => [relative(root, file)]))('%s: the docs source is the bundle without its notes', (file) => {
    const bundle = parseFile(join(root, file));
    const docsSource = parse(withoutMaintainerNotes(readFileSync(join(root, file), 'utf8')));
    expect(valuesOf(bundle, NOTE_KEY).length, 'the bundle keeps its notes').toBeGreaterThan(0);
    expect(valuesOf(docsSource, NOTE_KEY)).toEqual([]);
    expect(docsSource).toEqual(withoutKey(bundle, NOTE_KEY));
  });
});
