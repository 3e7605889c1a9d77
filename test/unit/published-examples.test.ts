import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBundle, operationsOf, responsesOf, type Bundle, type OperationInfo } from '../contract/support/spec.js';
import { createValidator } from '../contract/support/validate.js';

// Every response example the services publish must be accepted by our bundle's
// response schema for the same operation and status: an answer shaped like the
// service's own examples must not fail our validation, and our types must not
// promise a field the service leaves out.
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'published-examples');

/** Which of our APIs each published description corresponds to. */
const API_OF_FILE: Record<string, string> = {
  'crec.json': 'channels',
  'ace-coordinator.json': 'policy-coordinator',
  'ace-reporting.json': 'policy-reporting',
};

interface PublishedExample {
  method: string;
  path: string;
  status: string;
  name: string;
  body: unknown;
}

const files = readdirSync(FIXTURES).filter((file) => file.endsWith('.json'));

/** `/policies/{policy_id}` and `/policies/{id}` name the same route. */
const routeOf = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

function findOperation(operations: OperationInfo[], example: PublishedExample): OperationInfo | undefined {
  return operations.find((op) => op.method === example.method.toLowerCase() && routeOf(op.path) === routeOf(example.path));
}

it('every published file is mapped to one of our APIs', () => {
  expect(files.sort()).toEqual(Object.keys(API_OF_FILE).sort());
});

for (const file of files) {
  const api = API_OF_FILE[file];
  if (api === undefined) continue;
  const { examples } = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as { examples: PublishedExample[] };

  describe(`${file} against generated/openapi/${api}.yaml`, () => {
    const bundle: Bundle = loadBundle(api);
    const operations = operationsOf(bundle);
    const validate = createValidator(bundle);

    it('holds examples', () => {
      expect(examples.length).toBeGreaterThan(0);
    });

    it.each(examples.map((example) => [`${example.method.toUpperCase()} ${example.path} ${example.status} ${example.name}`, example] as const))(
      '%s',
      (_, example) => {
        const operation = findOperation(operations, example);
        expect(operation, `${api} has no ${example.method.toUpperCase()} ${example.path}`).toBeDefined();
        const response = responsesOf(bundle, operation!).find((candidate) => candidate.status === String(example.status));
        expect(response, `${api} ${operation!.operationId} documents no ${example.status}`).toBeDefined();
        expect(response!.schemaPointer, `${api} ${operation!.operationId} ${example.status} has no JSON schema`).toBeDefined();
        expect(validate(response!.schemaPointer!, example.body)).toEqual([]);
      },
    );
  });
}
