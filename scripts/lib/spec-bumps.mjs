// The spec bumps the gate is tested on (test/unit/spec-diff.test.ts), each
// one targeted edit of one base: the channels bundle as 0.8.0, committed as
// test/fixtures/spec-bumps/channels-0.8.0.yaml with its types
// (scripts/make-spec-bump-fixtures.mjs writes both). The bumps are made from
// the base when the tests run, so no bump is committed as a copy of it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { parseDocument } from 'yaml';

function mustHave(doc, path) {
  if (!doc.hasIn(path)) throw new Error(`the channels base has no ${path.join('.')}; update scripts/lib/spec-bumps.mjs`);
  return doc.getIn(path);
}

const removeOperation = (doc) => {
  mustHave(doc, ['paths', '/channels/{channel_id}', 'patch']);
  doc.deleteIn(['paths', '/channels/{channel_id}', 'patch']);
};

/** Each bump: its name (`channels-<version>-<what>`), the version it sets, why it exists, and its edit of the base. */
export const SPEC_BUMPS = [
  {
    name: 'channels-0.9.0-minor',
    why: 'a minor bump: an optional response field (Channel.labels) and a new endpoint (GET /channels/{channel_id}/stats).',
    edit: (doc) => {
      mustHave(doc, ['components', 'schemas', 'Channel', 'properties']).set(
        'labels',
        doc.createNode({ type: 'array', items: { type: 'string' }, description: 'Free-form labels; absent when none were set.' }),
      );
      mustHave(doc, ['components', 'schemas']).set(
        'ChannelStats',
        doc.createNode({
          type: 'object',
          description: 'Counts of what a channel holds.',
          required: ['watchers', 'operations'],
          properties: { watchers: { type: 'integer', minimum: 0 }, operations: { type: 'integer', minimum: 0 } },
        }),
      );
      mustHave(doc, ['paths']).set(
        '/channels/{channel_id}/stats',
        doc.createNode({
          parameters: [{ $ref: '#/components/parameters/channelId' }],
          get: {
            operationId: 'getChannelStats',
            summary: 'Get counts of a channel',
            tags: ['Channels'],
            responses: {
              200: { description: 'The counts.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ChannelStats' } } } },
              401: { $ref: '#/components/responses/Unauthorized' },
              404: { $ref: '#/components/responses/NotFound' },
              429: { $ref: '#/components/responses/TooManyRequests' },
              500: { $ref: '#/components/responses/InternalError' },
            },
          },
        }),
      );
    },
  },
  {
    name: 'channels-0.9.0-dangerous-response-enum',
    why: 'a value added to a response enum (ChannelStatus gains `paused`): passes with a minor bump, reported as dangerous.',
    edit: (doc) => {
      mustHave(doc, ['components', 'schemas', 'ChannelStatus', 'enum']).add('paused');
    },
  },
  {
    name: 'channels-0.9.0-removed-operation',
    why: 'breaking: PATCH /channels/{channel_id} (updateChannel) removed, with only a minor bump.',
    edit: removeOperation,
  },
  { name: 'channels-1.0.0-removed-operation', why: 'the same removal with the major bump it needs.', edit: removeOperation },
  {
    name: 'channels-0.9.0-new-required-request-field',
    why: 'breaking: POST /channels needs a new field, CreateChannel.region.',
    edit: (doc) => {
      mustHave(doc, ['components', 'schemas', 'CreateChannel', 'properties']).set('region', doc.createNode({ type: 'string', minLength: 1, description: 'Region of the channel.' }));
      mustHave(doc, ['components', 'schemas', 'CreateChannel', 'required']).add('region');
    },
  },
  {
    name: 'channels-0.9.0-removed-request-enum-value',
    why: 'breaking: WalletType no longer accepts `protected_rsa` (POST /wallets, wallet filters).',
    edit: (doc) => {
      const values = mustHave(doc, ['components', 'schemas', 'WalletType', 'enum']);
      if (!values.delete(values.items.findIndex((item) => item.value === 'protected_rsa'))) throw new Error('WalletType has no protected_rsa');
    },
  },
  {
    name: 'channels-0.9.0-removed-response-field',
    why: 'breaking: Channel.description is no longer in responses.',
    edit: (doc) => {
      mustHave(doc, ['components', 'schemas', 'Channel', 'properties', 'description']);
      doc.deleteIn(['components', 'schemas', 'Channel', 'properties', 'description']);
    },
  },
  {
    name: 'channels-0.9.0-parameter-made-required',
    why: 'breaking: the `status` query parameter of GET /channels (listChannels) becomes required.',
    edit: (doc) => {
      const parameter = mustHave(doc, ['paths', '/channels', 'get', 'parameters']).items.find((p) => p.get('name') === 'status');
      if (!parameter) throw new Error('GET /channels has no inline status parameter');
      parameter.set('required', true);
    },
  },
];

/**
 * The bumps whose types test/unit/spec-diff.test.ts compiles user code
 * against: the minor bump the user code must still compile against, and
 * bumps it must not (two breaking ones, and the dangerous one, which breaks
 * its exhaustive switch).
 */
export const TYPED_SPEC_BUMPS = [
  'channels-0.9.0-minor',
  'channels-0.9.0-new-required-request-field',
  'channels-0.9.0-removed-response-field',
  'channels-0.9.0-dangerous-response-enum',
];

/** The version a bump's name carries (`channels-0.9.0-minor` → `0.9.0`). */
const versionOf = (name) => name.split('-')[1];

/** A YAML document's text: `source` with its version set to `version`, edited, under a comment saying where it comes from and why. */
export function derivedDocument(source, version, comment, edit) {
  const doc = parseDocument(source);
  doc.setIn(['info', 'version'], version);
  edit?.(doc);
  doc.commentBefore = ` ${comment}`;
  return doc.toString({ lineWidth: 0 });
}

/** The types users would generate from a spec file (openapi-typescript with scripts/generate.mjs's options), with a header naming it. */
export async function specBumpTypes(file) {
  const ast = await openapiTS(pathToFileURL(file), { alphabetize: false, exportType: false });
  const header = `// Generated by scripts/make-spec-bump-fixtures.mjs (openapi-typescript) from ${basename(file)}. Do not edit by hand.\n\n`;
  return header + astToString(ast);
}

/** Writes every bump of `baseFile` into `outDir` (`<name>.yaml`), and the types of TYPED_SPEC_BUMPS and of the base into `outDir/types/`. */
export async function writeSpecBumps(baseFile, outDir) {
  const base = readFileSync(baseFile, 'utf8');
  mkdirSync(join(outDir, 'types'), { recursive: true });
  writeFileSync(join(outDir, basename(baseFile)), base);
  for (const { name, why, edit } of SPEC_BUMPS) {
    writeFileSync(join(outDir, `${name}.yaml`), derivedDocument(base, versionOf(name), `An edit of ${basename(baseFile)} (scripts/lib/spec-bumps.mjs): ${why}`, edit));
  }
  for (const file of [baseFile, ...TYPED_SPEC_BUMPS.map((name) => join(outDir, `${name}.yaml`))]) {
    writeFileSync(join(outDir, 'types', `${basename(file, '.yaml')}.ts`), await specBumpTypes(file));
  }
}
