// How the request checks are generated (scripts/lib/request-checks.mjs),
// seen through the checks it makes: JSON Schema 2020-12 as OpenAPI 3.1 means
// it, strict (a keyword Ajv does not know fails the build), no edit of the
// code's text (string values that look like Ajv's own identifiers keep their
// meaning), and modules that need nothing at run time but their own
// runtime.ts (no ajv, no ajv-formats).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requestChecksModules } from '../../scripts/lib/request-checks.mjs';
import { applyRequestCheck } from '../../src/sandbox/request-check.js';
import { checksFolder } from '../support/regenerated-checks.js';

const folder = checksFolder();
afterAll(() => folder.remove());

/** Names Ajv gives its own functions and constants in standalone code, and the prefixes earlier generators added. */
const LOOKALIKES = ['root1', 'validate0', 'validate10', 'schema1', 'pattern0', 'formats0', 'func0', 'wrapper0', 'evaluated0', 'exports', 'require', 'p_validate1', 'b_root1'];

/** A bundle of one operation whose values collide with generated identifiers, plus a 2020-12 keyword draft-07 ignores. */
function bundle(extra: Record<string, unknown> = {}): Record<string, any> {
  return {
    openapi: '3.1.0',
    info: { title: 'collisions', version: '1' },
    paths: {
      '/things/{thing_id}': {
        post: {
          operationId: 'createThing',
          parameters: [
            { name: 'thing_id', in: 'path', required: true, schema: { type: 'string', enum: LOOKALIKES } },
            { name: 'kind', in: 'query', schema: { type: 'string', pattern: '^(validate0|root1)$', default: 'root1' } },
            { name: 'count', in: 'query', schema: { type: 'integer', minimum: 1, default: 3 } },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          responses: { '200': { description: 'done' }, '400': { description: 'refused' } },
        },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          allOf: [{ $ref: '#/components/schemas/Named' }],
          properties: { validate0: { const: 'schema1' }, root1: { type: 'string', enum: ['root1', 'formats0'] } },
          required: ['validate0'],
          unevaluatedProperties: false,
          ...extra,
        },
        Named: { type: 'object', properties: { name: { type: 'string' } } },
      },
    },
  };
}

const request = (thingId: string, query: Record<string, string>, body: unknown) => ({
  pathParams: { thing_id: thingId },
  query: new URLSearchParams(query),
  headers: new Headers(),
  body,
});

describe('the generated checks', () => {
  it('keep string values that look like generated identifiers as the spec wrote them', async () => {
    const { createThing } = (await folder.generate('collisions', bundle(), 'collisions')) as Record<string, any>;
    for (const value of LOOKALIKES) {
      expect(applyRequestCheck(createThing, request(value, {}, { validate0: 'schema1' })).problem, value).toBeUndefined();
      // The same with a prefix a rename would have added is not in the enum.
      for (const renamed of [`p_${value}`, `b_${value}`].filter((name) => !LOOKALIKES.includes(name))) {
        expect(applyRequestCheck(createThing, request(renamed, {}, { validate0: 'schema1' })).problem?.field, renamed).toBe('thing_id');
      }
    }
    for (const kind of ['validate0', 'root1']) expect(applyRequestCheck(createThing, request('root1', { kind }, { validate0: 'schema1' })).problem).toBeUndefined();
    expect(applyRequestCheck(createThing, request('root1', { kind: 'p_root1' }, { validate0: 'schema1' })).problem?.field).toBe('kind');
    expect(applyRequestCheck(createThing, request('root1', {}, { validate0: 'schema1', root1: 'formats0' })).problem).toBeUndefined();
    expect(applyRequestCheck(createThing, request('root1', {}, { validate0: 'b_schema1' })).problem).toMatchObject({ field: 'body.validate0', kind: 'invalid' });
  });

  it('hand over parameters coerced to their types and completed with their defaults', async () => {
    const { createThing } = (await folder.generate('collisions', bundle(), 'defaults')) as Record<string, any>;
    expect(applyRequestCheck(createThing, request('root1', {}, { validate0: 'schema1' })).parameters?.query).toEqual({ kind: 'root1', count: 3 });
    expect(applyRequestCheck(createThing, request('root1', { count: '10000000000' }, { validate0: 'schema1' })).parameters?.query).toEqual({ kind: 'root1', count: 10_000_000_000 });
  });

  it('apply 2020-12: unevaluatedProperties refuses a field no subschema declares', async () => {
    const { createThing } = (await folder.generate('collisions', bundle(), 'unevaluated')) as Record<string, any>;
    expect(applyRequestCheck(createThing, request('root1', {}, { validate0: 'schema1', name: 'declared by allOf' })).problem).toBeUndefined();
    expect(applyRequestCheck(createThing, request('root1', {}, { validate0: 'schema1', colour: 'red' })).problem).toMatchObject({ field: 'body.colour', key: 'colour', kind: 'unknown' });
  });

  it('are not made from a schema with a keyword Ajv does not know (strict mode)', () => {
    expect(() => requestChecksModules('collisions', bundle({ minimun: 1 }))).toThrow(/unknown keyword: "minimun"/);
  });

  it('import nothing at run time but their own runtime.ts (no ajv, no ajv-formats)', () => {
    const dir = join(import.meta.dirname, '..', '..', 'generated', 'request-checks');
    const files = readdirSync(dir).filter((file) => file.endsWith('.ts'));
    expect(files).toContain('runtime.ts');
    for (const file of files) {
      const specifiers = [...readFileSync(join(dir, file), 'utf8').matchAll(/^\s*(?:import|export)\b[^'"\n]*?from\s*['"]([^'"]+)['"]/gm)].map((match) => match[1]);
      const api = file.replace(/\.(parameters|bodies)?\.?ts$/, '');
      const expected = file === 'runtime.ts' ? [] : file === `${api}.ts` ? [`./${api}.parameters.js`, `./${api}.bodies.js`] : ['./runtime.js'];
      expect(specifiers, file).toEqual(expected);
    }
  });
});
