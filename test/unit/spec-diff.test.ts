// The spec gate: fixtures of channels bumps, our rules on top of
// `redocly diff`, the version rule, the base (the committed release file, or
// a git ref), the changelog, and user code compiled against regenerated types.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { writeSpecBumps } from '../../scripts/lib/spec-bumps.mjs';
import { RULES, type RedoclyChange, type SpecChange } from '../../scripts/lib/spec-diff/classify.mjs';
import { compareAll, compareFiles, type ApiComparison } from '../../scripts/lib/spec-diff/compare.mjs';
import { changelogSection, changelogVerdict, updateChangelog } from '../../scripts/lib/spec-diff/format.mjs';
import { gate, versionBump } from '../../scripts/lib/spec-diff/gate.mjs';
import { git } from '../../scripts/lib/spec-diff/git-base.mjs';
import { readRelease, releaseBody, releasePath, releaseTagProblems, releaseText } from '../../scripts/lib/spec-diff/release.mjs';

const root = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'spec-diff-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
// The committed 0.8.0 base and every bump made from it (scripts/lib/spec-bumps.mjs), with their types.
const fixtures = join(scratch, 'spec-bumps');
await writeSpecBumps(join(root, 'test', 'fixtures', 'spec-bumps', 'channels-0.8.0.yaml'), fixtures);

/** A comparison as spec:check builds it, from two files (the base standing for a release file). */
async function compared(basePath: string, revisionPath: string, api = 'channels'): Promise<ApiComparison> {
  return { api, status: 'compared', baseKind: 'release', baseRef: 'base', baseWhy: 'test', matchesBase: false, ...(await compareFiles(basePath, revisionPath)) };
}

/** A fixture compared with the 0.8.0 base, once per run. */
const fixtureResults = new Map<string, Promise<ApiComparison>>();
function fixture(name: string): Promise<ApiComparison> {
  if (!fixtureResults.has(name)) fixtureResults.set(name, compared(join(fixtures, 'channels-0.8.0.yaml'), join(fixtures, `${name}.yaml`)));
  return fixtureResults.get(name)!;
}

describe('spec bump fixtures (channels 0.8.0 -> ...)', () => {
  // Expected verdict, and what the gate's message must name (operation, field).
  const cases = {
    'channels-0.9.0-minor': { ok: true },
    'channels-0.9.0-dangerous-response-enum': { ok: true },
    'channels-1.0.0-removed-operation': { ok: true },
    'channels-0.9.0-removed-operation': { ok: false, names: ['PATCH /channels/{channel_id} (updateChannel)', 'was removed'] },
    'channels-0.9.0-new-required-request-field': { ok: false, names: ['POST /channels (createChannel)', 'CreateChannel', '`region`'] },
    'channels-0.9.0-removed-request-enum-value': { ok: false, names: ['POST /wallets (createWallet)', 'WalletType', "'protected_rsa'"] },
    'channels-0.9.0-removed-response-field': { ok: false, names: ['GET /channels/{channel_id} (getChannel)', '`Channel.description`', 'was removed'] },
    'channels-0.9.0-parameter-made-required': { ok: false, names: ['GET /channels (listChannels)', 'query parameter `status`', 'became required'] },
  } as const;
  const results: Record<string, ApiComparison> = {};

  beforeAll(async () => {
    await Promise.all(
      Object.keys(cases).map(async (name) => {
        results[name] = await fixture(name);
      }),
    );
  }, 90_000);

  for (const [name, expected] of Object.entries(cases)) {
    it(`${name}: ${expected.ok ? 'passes' : 'fails and names the change'}`, () => {
      const verdict = gate(results[name]!);
      expect(verdict.ok, [...verdict.problems, ...verdict.notes].join('\n')).toBe(expected.ok);
      if (!expected.ok) {
        expect(verdict.problems.join('\n')).toContain('need a new major version (0.8.0 -> 1.0.0), not 0.9.0');
        for (const text of expected.names) expect(verdict.problems.join('\n')).toContain(text);
      }
    });
  }

  it('the minor bump adds an optional response field and an endpoint, nothing else', () => {
    const changes = results['channels-0.9.0-minor']!.changes!;
    expect(changes.map((c) => [c.category, c.impact, c.field])).toEqual([
      ['added', 'minor', '`Channel.labels`'],
      ['added', 'minor', ''],
    ]);
    expect(changes[1]!.operations).toEqual(['GET /channels/{channel_id}/stats (getChannelStats)']);
  });

  it('a new response enum value passes a minor bump as dangerous, and the gate says so', () => {
    const result = results['channels-0.9.0-dangerous-response-enum']!;
    expect(result.changes!.map((c) => c.category)).toEqual(['dangerous']);
    expect(gate(result).notes.join('\n')).toMatch(/dangerous.*ChannelStatus.*'paused'/);
  });

  it('changes without a version move fail, naming each change', () => {
    const verdict = gate({ ...results['channels-0.9.0-minor']!, revisionVersion: '0.8.0' });
    expect(verdict.ok).toBe(false);
    expect(verdict.problems[0]).toContain('2 change(s) since base but info.version is still 0.8.0');
    expect(verdict.problems[0]).toContain('`Channel.labels`');
    expect(verdict.problems[0]).toContain('GET /channels/{channel_id}/stats (getChannelStats)');
  });

  it('a version that goes down fails', () => {
    const verdict = gate({ ...results['channels-0.9.0-minor']!, revisionVersion: '0.7.9' });
    expect(verdict.problems).toEqual(['channels: info.version went down from 0.8.0 to 0.7.9.']);
  });

  it('additions in a patch bump fail: clients pin a minor', () => {
    const verdict = gate({ ...results['channels-0.9.0-minor']!, revisionVersion: '0.8.1' });
    expect(verdict.problems.join('\n')).toContain('need at least a new minor version');
  });
});

interface Schema {
  type?: string;
  enum?: string[];
  $ref?: string;
  oneOf?: Schema[];
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean;
  deprecated?: boolean;
}

/** A small API to test one rule at a time: Kind is request-only, Status response-only. */
function tinyApi() {
  const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });
  return {
    openapi: '3.1.0',
    info: { title: 'Tiny', version: '1.0.0' },
    paths: {
      '/items': {
        get: {
          operationId: 'listItems',
          parameters: [{ name: 'kind', in: 'query', required: false, schema: { $ref: '#/components/schemas/Kind' } }] as object[],
          responses: { 200: { description: 'Items.', content: json('Item') } },
        },
        post: {
          operationId: 'createItem',
          requestBody: { required: true, content: json('NewItem') },
          responses: { 201: { description: 'Created.', content: json('Item') } },
        } as object | undefined,
      },
    },
    components: {
      schemas: {
        Kind: { type: 'string', enum: ['a', 'b'] },
        Status: { type: 'string', enum: ['on', 'off'] },
        Item: {
          type: 'object',
          required: ['id', 'status', 'note'],
          properties: {
            id: { type: 'string' },
            status: { $ref: '#/components/schemas/Status' },
            note: { type: 'string' },
            payload: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          },
        },
        NewItem: {
          type: 'object',
          additionalProperties: false,
          required: ['name'],
          properties: {
            name: { type: 'string' },
            kind: { $ref: '#/components/schemas/Kind' },
            note: { type: 'string' },
            shape: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          },
        },
      } as Record<string, Schema>,
    },
  };
}
type TinyApi = ReturnType<typeof tinyApi>;

describe('rules on top of redocly diff (each on a tiny API)', () => {
  const schema = (api: TinyApi, name: 'Kind' | 'Status' | 'Item' | 'NewItem') => api.components.schemas[name]!;
  const property = (api: TinyApi, name: 'Item' | 'NewItem', key: string) => schema(api, name).properties![key]!;
  const ops = (api: TinyApi) => api.paths['/items'];
  // Each edit, and the one change it must give.
  const cases: Record<string, [edit: (api: TinyApi) => void, expected: Partial<SpecChange>]> = {
    // Ours, where Redocly's verdict differs from what our users need:
    'response enum value added -> dangerous (Redocly: major)': [
      (api) => schema(api, 'Status').enum!.push('paused'),
      { category: 'dangerous', impact: 'minor', rule: 'response-enum-value-added', field: '`Status`' },
    ],
    'response oneOf variant added -> dangerous (Redocly: major)': [
      (api) => property(api, 'Item', 'payload').oneOf!.push({ type: 'boolean' }),
      { category: 'dangerous', impact: 'minor', rule: 'response-variant-added' },
    ],
    'operation deprecated -> deprecated (Redocly: silent patch)': [
      (api) => Object.assign(ops(api).get, { deprecated: true }),
      { category: 'deprecated', rule: 'deprecated', operations: ['GET /items (listItems)'] },
    ],
    'response field deprecated -> deprecated': [
      (api) => (property(api, 'Item', 'note').deprecated = true),
      { category: 'deprecated', rule: 'deprecated', field: '`Item.note`' },
    ],
    // Not dangerous: requests may accept more.
    'request enum value added -> not breaking, not dangerous': [(api) => schema(api, 'Kind').enum!.push('c'), { category: 'changed', impact: 'patch' }],
    'request oneOf variant added -> added': [
      (api) => property(api, 'NewItem', 'shape').oneOf!.push({ type: 'boolean' }),
      { category: 'added', impact: 'minor' },
    ],
    // Our breaking list, rated by Redocly's verdicts:
    'request enum value removed -> breaking': [(api) => (schema(api, 'Kind').enum = ['a']), { category: 'breaking', impact: 'major', rule: 'enum-values-removed' }],
    'operation removed -> breaking': [
      (api) => delete ops(api).post,
      { category: 'breaking', rule: 'operation-removed', operations: ['POST /items (createItem)'] },
    ],
    'request field made required -> breaking': [
      (api) => schema(api, 'NewItem').required!.push('note'),
      { category: 'breaking', rule: 'required-properties-added', field: '`NewItem`' },
    ],
    'new required parameter -> breaking': [
      (api) => ops(api).get.parameters.push({ name: 'region', in: 'query', required: true, schema: { type: 'string' } }),
      { category: 'breaking', rule: 'parameter-became-required', field: 'query parameter `region`' },
    ],
    'parameter made required -> breaking': [
      (api) => Object.assign(ops(api).get.parameters[0]!, { required: true }),
      { category: 'breaking', rule: 'parameter-became-required', field: 'query parameter `kind`' },
    ],
    'response field removed -> breaking': [
      (api) => delete schema(api, 'Item').properties!.payload,
      { category: 'breaking', rule: 'property-removed', field: '`Item.payload`' },
    ],
    'response field made optional -> breaking': [
      (api) => (schema(api, 'Item').required = ['id', 'status']),
      { category: 'breaking', rule: 'required-properties-removed', field: '`Item`' },
    ],
  };
  const results: Record<string, SpecChange[]> = {};

  beforeAll(async () => {
    const basePath = join(scratch, 'tiny.yaml');
    writeFileSync(basePath, stringify(tinyApi()));
    await Promise.all(
      Object.entries(cases).map(async ([name, [edit]], i) => {
        const revision = tinyApi();
        edit(revision);
        const revisionPath = join(scratch, `tiny-${i}.yaml`);
        writeFileSync(revisionPath, stringify(revision));
        results[name] = (await compareFiles(basePath, revisionPath)).changes;
      }),
    );
  }, 90_000);

  for (const [name, [, expected]] of Object.entries(cases)) {
    it(name, () => {
      expect(results[name]).toHaveLength(1);
      expect(results[name]![0]).toMatchObject(expected);
    });
  }

  it('a new required request field is breaking (two changes: the field, and it being required)', async () => {
    const revision = tinyApi();
    schema(revision, 'NewItem').properties!.size = { type: 'integer' };
    schema(revision, 'NewItem').required!.push('size');
    writeFileSync(join(scratch, 'tiny-size.yaml'), stringify(revision));
    const { changes } = await compareFiles(join(scratch, 'tiny.yaml'), join(scratch, 'tiny-size.yaml'));
    expect(changes.find((c) => c.category === 'breaking')).toMatchObject({ operations: ['POST /items (createItem)'], message: expect.stringContaining('`size`') });
  });

  it('rules leave alone what they are not about', () => {
    const summary: RedoclyChange = { path: '#/paths/~1items/get', kind: 'modified', impact: 'patch', property: 'summary', verdicts: [] };
    for (const rule of Object.values(RULES)) expect(rule(summary)).toBeUndefined();
    // A variant added where only requests use the schema: Redocly has no verdict, it is a plain addition.
    const requestVariant: RedoclyChange = { path: '#/paths/~1items/post/requestBody/content/application~1json/schema/oneOf/2', kind: 'added', impact: 'minor', verdicts: [] };
    expect(RULES['response-variant-added'](requestVariant)).toBeUndefined();
    // A whole `oneOf` added to a response schema is a type change, not a new variant: stays breaking.
    const verdicts = [{ ruleId: 'schema-combinator-changed', impact: 'major' as const, message: '`oneOf` of `x` was added.' }];
    expect(RULES['response-variant-added']({ path: '#/paths/~1items/get/responses/200/content/application~1json/schema/oneOf', kind: 'added', impact: 'major', verdicts })).toBeUndefined();
  });
});

describe('version rule', () => {
  const change = (impact: SpecChange['impact'], category: SpecChange['category']): SpecChange => ({
    category,
    impact,
    rule: undefined,
    operations: ['GET /x (getX)'],
    field: '`X.y`',
    pointer: '#/components/schemas/X/properties/y',
    message: 'Something.',
    documentation: false,
  });
  const result = (from: string, to: string, changes: SpecChange[]): ApiComparison => ({ api: 'x', status: 'compared', baseRef: 'x@' + from, baseVersion: from, revisionVersion: to, changes });

  it('measures bumps by semver, prereleases before releases', () => {
    expect(versionBump('0.8.0', '1.0.0')).toBe('major');
    expect(versionBump('0.8.0', '0.9.0')).toBe('minor');
    expect(versionBump('0.8.0', '0.8.1')).toBe('patch');
    expect(versionBump('1.0.0', '1.0.0')).toBe('none');
    expect(versionBump('1.0.0', '0.9.9')).toBe('down');
    expect(versionBump('1.0.0', '2.0.0-rc.1')).toBe('major');
    expect(versionBump('2.0.0', '2.0.0-rc.1')).toBe('down');
  });

  it('a breaking change needs a new major even below 1.0.0 (stricter than semver 0.x)', () => {
    expect(gate(result('0.1.0', '0.2.0', [change('major', 'breaking')])).ok).toBe(false);
    expect(gate(result('0.8.0', '1.0.0', [change('major', 'breaking')])).ok).toBe(true);
    expect(gate(result('1.4.2', '2.0.0', [change('major', 'breaking')])).ok).toBe(true);
    expect(gate(result('1.4.2', '1.5.0', [change('major', 'breaking')])).problems[0]).toMatch(/1\.4\.2 -> 2\.0\.0\), not 1\.5\.0:\n {4}- GET \/x \(getX\) `X\.y`: Something\./);
  });

  it('documentation edits need only a patch; dangerous changes a minor', () => {
    expect(gate(result('1.0.0', '1.0.1', [change('patch', 'changed')])).ok).toBe(true);
    expect(gate(result('1.0.0', '1.0.1', [change('minor', 'dangerous')])).ok).toBe(false);
    expect(gate(result('1.0.0', '1.1.0', [change('minor', 'dangerous')])).ok).toBe(true);
  });

  it('a git ref without the bundle passes (a new API since then); no release file or no current bundle fails', () => {
    const fresh = gate({ api: 'x', status: 'new', baseKind: 'git', baseRef: 'HEAD', revisionVersion: '1.0.0', reason: 'HEAD has no generated/openapi/x.yaml' });
    expect(fresh).toEqual({ ok: true, problems: [], notes: ['x 1.0.0: nothing to compare with (HEAD has no generated/openapi/x.yaml); passes.'] });
    const unreleased = gate({ api: 'x', status: 'new', baseKind: 'release', revisionVersion: '1.0.0', reason: 'no openapi/releases/x.yaml' });
    expect(unreleased.problems).toEqual(['x 1.0.0: no openapi/releases/x.yaml, so nothing to hold it to; write it with `npm run spec:release -- --api x`.']);
    expect(gate({ api: 'x', status: 'missing', reason: 'no generated/openapi/x.yaml' }).ok).toBe(false);
  });
});

describe('base: the committed release file, or the bundle at a git ref', () => {
  // Not a git repository: the release file is all the gate reads.
  const project = join(scratch, 'project');
  const bundle = (api: string, edit?: (doc: TinyApi) => void, version = '1.0.0') => {
    const doc = tinyApi();
    doc.info.version = version;
    edit?.(doc);
    const text = stringify(doc);
    writeFileSync(join(project, 'generated', 'openapi', `${api}.yaml`), text);
    return text;
  };
  const releaseOne = async () => (await compareAll({ cwd: project, apis: ['one'] }))[0]!;

  beforeAll(() => {
    mkdirSync(join(project, 'generated', 'openapi'), { recursive: true });
    mkdirSync(join(project, 'openapi', 'releases'), { recursive: true });
    writeFileSync(join(project, 'redocly.yaml'), stringify({ apis: { one: { root: 'one.yaml' }, two: { root: 'two.yaml' } } }));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'x', version: '0.3.0' }));
  });

  it('without a release file an API fails the gate, which says how to write one', async () => {
    bundle('one');
    const [one, two] = await compareAll({ cwd: project });
    expect(one).toMatchObject({ status: 'new', baseKind: 'release', reason: 'no openapi/releases/one.yaml' });
    expect(gate(one!).problems).toEqual(['one 1.0.0: no openapi/releases/one.yaml, so nothing to hold it to; write it with `npm run spec:release -- --api one`.']);
    expect(two).toMatchObject({ status: 'missing' });
  });

  it('a release file is a header naming API and version over the bundle, byte for byte', () => {
    const text = bundle('one');
    const release = releaseText('one', text);
    expect(release.split('\n').slice(0, 2)).toEqual([
      '# one 1.0.0 as released: the base of `npm run spec:check`, `spec:diff` and `spec:changelog`.',
      '# Written by `npm run spec:release -- --api one` from generated/openapi/one.yaml; never edited by hand.',
    ]);
    expect(releaseBody(release)).toBe(text);
    writeFileSync(join(project, releasePath('one')), release);
    expect(readRelease('one', project)).toMatchObject({ body: text, version: '1.0.0' });
  });

  it('the bundle as released passes, also when publishing, in a folder that is no git repository', async () => {
    expect(git(['rev-parse', '--git-dir'], project)).toBeUndefined();
    const one = await releaseOne();
    expect(one).toMatchObject({ status: 'compared', baseKind: 'release', baseRef: 'openapi/releases/one.yaml', matchesBase: true, baseVersion: '1.0.0', changes: [] });
    expect(gate(one, { released: true })).toEqual({ ok: true, problems: [], notes: ['one 1.0.0: no change since openapi/releases/one.yaml.'] });
  });

  it('a breaking change without a major bump fails against the release', async () => {
    bundle('one', (doc) => delete doc.paths['/items'].post, '1.1.0');
    const one = await releaseOne();
    expect(one).toMatchObject({ baseVersion: '1.0.0', revisionVersion: '1.1.0', matchesBase: false });
    const problems = gate(one).problems.join('\n');
    expect(problems).toContain('one: breaking change(s) need a new major version (1.0.0 -> 2.0.0), not 1.1.0');
    expect(problems).toContain('POST /items (createItem): Operation `POST /items` was removed.');
  });

  it('a bump not yet released passes with a note, and fails when publishing', async () => {
    bundle('one', (doc) => (doc.components.schemas.Item!.properties!.size = { type: 'integer' }), '1.1.0');
    const one = await releaseOne();
    const verdict = gate(one);
    expect(verdict.ok).toBe(true);
    expect(verdict.notes).toContain(
      'one 1.1.0: not released yet (openapi/releases/one.yaml holds 1.0.0); run `npm run spec:changelog -- --api one` then `npm run spec:release -- --api one` before you commit.',
    );
    expect(gate(one, { released: true }).problems).toEqual([
      'one 1.1.0: generated/openapi/one.yaml is not its release (openapi/releases/one.yaml holds 1.0.0); run `npm run spec:changelog -- --api one` then `npm run spec:release -- --api one` and commit.',
    ]);
  });

  it('a release tag must name a released version: <api>@<version> its release file, v<version> package.json', () => {
    const problems = (tag: string) => releaseTagProblems(tag, { apis: ['one', 'two'], cwd: project });
    expect(problems('one@1.0.0')).toEqual([]);
    expect(problems('one@1.1.0')).toEqual(['tag one@1.1.0: openapi/releases/one.yaml holds one 1.0.0, not 1.1.0.']);
    expect(problems('two@1.0.0')).toEqual(['tag two@1.0.0: there is no openapi/releases/two.yaml.']);
    expect(problems('three@1.0.0')).toEqual(['tag three@1.0.0: no API three (redocly.yaml declares one, two).']);
    expect(problems('v0.3.0')).toEqual([]);
    expect(problems('v0.4.0')).toEqual(['tag v0.4.0: package.json has version 0.3.0, not 0.4.0.']);
    expect(problems('latest')).toEqual(['tag latest: not a release tag (<api>@<version> or v<version>).']);
  });

  it('--base <git-ref> compares with the bundle committed at that ref', async () => {
    // A throwaway repository: no signing, no hooks, no GIT_* from a calling hook.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')));
    const settings = ['user.name=t', 'user.email=t@example.test', 'commit.gpgSign=false', 'core.hooksPath=/dev/null'];
    const run = (...args: string[]) => execFileSync('git', [...settings.flatMap((s) => ['-c', s]), ...args], { cwd: project, env, stdio: 'pipe' });
    run('init', '-q');
    await expect(compareAll({ cwd: project, baseRef: 'HEAD' })).rejects.toThrow('--base HEAD: not a commit');
    bundle('one');
    run('add', 'redocly.yaml', 'generated');
    run('commit', '-q', '-m', 'one');
    bundle('two');
    bundle('one', (doc) => delete doc.paths['/items'].post, '1.1.0');
    const [one, two] = await compareAll({ cwd: project, baseRef: 'HEAD' });
    expect(one).toMatchObject({ status: 'compared', baseKind: 'git', baseRef: 'HEAD', baseWhy: '--base', baseVersion: '1.0.0', revisionVersion: '1.1.0' });
    expect(gate(one!).problems.join('\n')).toContain('need a new major version (1.0.0 -> 2.0.0), not 1.1.0');
    expect(two).toMatchObject({ status: 'new', baseKind: 'git', reason: 'HEAD has no generated/openapi/two.yaml' });
    expect(gate(two!).ok).toBe(true);
    await expect(compareAll({ cwd: project, baseRef: 'no-such-ref' })).rejects.toThrow('not a commit');
  });
});

describe('changelog', () => {
  it('writes a section per API and version, one line per change naming operation and field', async () => {
    const minor = await fixture('channels-0.9.0-minor');
    expect(changelogSection(minor, '2026-01-31')).toBe(
      [
        '## channels 0.9.0 (2026-01-31)',
        '',
        'Changes since 0.8.0.',
        '',
        '### Added',
        '- `GET /channels` (listChannels), `POST /channels` (createChannel), `GET /channels/{channel_id}` (getChannel) and `PATCH /channels/{channel_id}` (updateChannel), `Channel.labels`: Property `labels` was added (optional).',
        '- `GET /channels/{channel_id}/stats` (getChannelStats): Path `/channels/{channel_id}/stats` was added.',
        '',
      ].join('\n'),
    );
    expect(changelogSection({ ...minor, baseKind: 'git', baseRef: 'origin/main' }, '2026-01-31')).toContain('Changes since 0.8.0 (origin/main).');
    const section = changelogSection(await fixture('channels-0.9.0-dangerous-response-enum'), '2026-01-31');
    expect(section).toContain("### Dangerous\n- `GET /channels` (listChannels), `POST /channels` (createChannel), `GET /channels/{channel_id}` (getChannel) and `PATCH /channels/{channel_id}` (updateChannel), `ChannelStatus`: Enum of `ChannelStatus` gained values: 'paused'.");
  });

  it('a deprecated operation gets a Deprecated line (and openapi-typescript a @deprecated tag)', async () => {
    const revision = tinyApi();
    Object.assign(revision.paths['/items'].get, { deprecated: true });
    writeFileSync(join(scratch, 'tiny-deprecated.yaml'), stringify({ ...revision, info: { ...revision.info, version: '1.1.0' } }));
    writeFileSync(join(scratch, 'tiny-base.yaml'), stringify(tinyApi()));
    const result = await compared(join(scratch, 'tiny-base.yaml'), join(scratch, 'tiny-deprecated.yaml'), 'tiny');
    expect(changelogSection(result, '2026-01-31')).toContain('### Deprecated\n- `GET /items` (listItems): Deprecated.');
    // Same generator options as scripts/generate.mjs.
    const types = astToString(await openapiTS(pathToFileURL(join(scratch, 'tiny-deprecated.yaml')), { alphabetize: false, exportType: false }));
    expect(types).toMatch(/\/\*\* @deprecated \*\/\s+get: operations\["listItems"\];/);
  });

  it('inserts new sections on top and replaces the section of the same version', () => {
    const first = updateChangelog('', ['## a 1.0.0 (2026-01-01)\n\nold\n']);
    const second = updateChangelog(first, ['## b 2.0.0 (2026-01-02)\n\nb\n', '## a 1.0.0 (2026-01-03)\n\nnew\n']);
    expect(second).toMatch(/^# Changelog\n[\s\S]*\n## b 2\.0\.0 \(2026-01-02\)\n\nb\n\n## a 1\.0\.0 \(2026-01-03\)\n\nnew\n$/);
  });

  it('refuses to write a section when the version did not move', () => {
    const unchanged: ApiComparison = { api: 'x', status: 'compared', baseRef: 'HEAD', baseVersion: '1.0.0', revisionVersion: '1.0.0', changes: [{} as SpecChange] };
    expect(changelogVerdict(unchanged).error).toContain('bump it first');
  });
});

describe('user code written against 0.8.0, compiled against regenerated types', () => {
  // test/types/spec-bump/user-code.ts imports its types from channels-api.ts;
  // here that one file is swapped for another version's types, as a user's
  // regeneration would do, and the user code is type-checked unchanged.
  const dir = join(root, 'test', 'types', 'spec-bump');
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;

  let previous: ts.Program | undefined; // reused: lib and openapi-fetch files are parsed once
  /**
   * Whole-program type checks, two or three per case: seconds on an idle
   * machine, past a minute beside two busy processes on two cores (seen in
   * npm run test:load). A limit against a hang, not a speed target.
   */
  const TYPE_CHECKS_LIMIT_MS = 240_000;

  function typeErrors(types: string): string[] {
    const apiFile = join(dir, 'channels-api.ts');
    const host = ts.createCompilerHost(config.options);
    const read = host.getSourceFile;
    host.getSourceFile = (fileName, language, ...rest) =>
      fileName === apiFile
        ? ts.createSourceFile(fileName, `export type { components, paths } from '${relative(dir, join(fixtures, 'types', types)).split(sep).join('/')}.js';\n`, language)
        : read(fileName, language, ...rest);
    previous = ts.createProgram([join(dir, 'user-code.ts')], config.options, host, previous);
    return ts.getPreEmitDiagnostics(previous).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }

  it('compiles against 0.8.0 and, unchanged, against the 0.9.0 minor bump', () => {
    expect(typeErrors('channels-0.8.0')).toEqual([]);
    expect(typeErrors('channels-0.9.0-minor')).toEqual([]);
  }, TYPE_CHECKS_LIMIT_MS);

  it('does not compile against the breaking and dangerous bumps (the check has teeth)', () => {
    expect(typeErrors('channels-0.9.0-new-required-request-field').join('\n')).toContain("Property 'region' is missing");
    expect(typeErrors('channels-0.9.0-removed-response-field').join('\n')).toContain("Property 'description' does not exist");
    expect(typeErrors('channels-0.9.0-dangerous-response-enum').join('\n')).toContain('Type \'"paused"\' is not assignable to type \'never\'');
  }, TYPE_CHECKS_LIMIT_MS);
});
