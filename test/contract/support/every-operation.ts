import type { SdkClient as Client } from '../../../src/core/typed-client.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createCallRecorder } from './recorder.js';
import { loadBundle, operationsOf, requestExamples, responsesOf, sampleParameter, type OperationInfo } from './spec.js';
import { createValidator } from './validate.js';

type LooseRequest = (method: string, path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

function paramsFor(bundle: ReturnType<typeof loadBundle>, op: OperationInfo) {
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const parameter of op.parameters) {
    if (parameter.in === 'path') path[parameter.name] = sampleParameter(bundle, parameter);
    if (parameter.in === 'query' && parameter.required) query[parameter.name] = sampleParameter(bundle, parameter);
  }
  return { path, query };
}

/**
 * Calls every operation of a bundle through the project's client, once per
 * documented answer (each named example via `Prefer: code=…, example=…`) and
 * once per named request body, and validates every answer's body against the
 * documented schema with a JSON Schema 2020-12 validator. Prism runs with
 * request validation and `--errors`, so a request that breaks the spec fails
 * too. The calls are recorded for the coverage test.
 */
export function describeEveryOperation(api: string, makeClient: () => Client<any>) {
  const bundle = loadBundle(api);
  const validate = createValidator(bundle);
  const recorder = createCallRecorder(api);
  afterAll(recorder.save);

  let client: Client<any> | undefined;
  const request = (...args: Parameters<LooseRequest>) => {
    if (!client) {
      client = makeClient();
      client.use(recorder.middleware);
    }
    return (client.request as unknown as LooseRequest)(...args);
  };

  describe(`${api}: every operation, every documented answer`, () => {
    for (const op of operationsOf(bundle)) {
      const params = paramsFor(bundle, op);
      const bodies = requestExamples(bundle, op);
      const [firstBody] = Object.values(bodies);

      for (const response of responsesOf(bundle, op)) {
        // A 1xx answer switches protocols (the report stream's `101`, a
        // WebSocket): Prism cannot serve one, and fetch cannot read one. Its
        // refusals (4xx, 5xx) are still called here; the upgrade itself and
        // its messages are tested against a local WebSocket service in
        // test/unit/report-stream.test.ts.
        if (response.status.startsWith('1')) continue;
        const exampleNames = Object.keys(response.examples);
        const cases = exampleNames.length > 0 ? exampleNames : [undefined];
        for (const example of cases) {
          it(`${op.operationId} ${response.status}${example ? ` ${example}` : ''}`, async () => {
            const prefer = example ? `code=${response.status}, example=${example}` : `code=${response.status}`;
            const result = await request(op.method.toUpperCase(), op.path, {
              params,
              ...(firstBody === undefined ? {} : { body: firstBody }),
              headers: { Prefer: prefer },
            });
            const body = result.response.ok ? result.data : result.error;
            expect(result.response.status, JSON.stringify(body)).toBe(Number(response.status));
            if (response.schemaPointer) expect(validate(response.schemaPointer, body)).toEqual([]);
            if (example) expect(body).toEqual(response.examples[example].value);
          });
        }
      }

      for (const [name, body] of Object.entries(bodies).slice(1)) {
        it(`${op.operationId} accepts the request example ${name}`, async () => {
          const result = await request(op.method.toUpperCase(), op.path, { params, body });
          expect(result.response.ok, JSON.stringify(result.error)).toBe(true);
        });
      }
    }
  });
  return { bundle, validate };
}
