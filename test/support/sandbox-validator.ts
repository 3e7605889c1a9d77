// Every answer the sandbox gives, checked against the bundle of its API: the
// status must be documented for the operation, and a JSON body must validate
// against that response's schema, with no property the schema does not name. Used by every sandbox test, so a sandbox
// that drifts from the specs fails loudly (SandboxViolationError + violations).
import type { AnswerValidator } from '../../src/sandbox/index.js';
import type { SandboxApi } from '../../src/sandbox/types.js';
import { ALL_HTTP_METHODS, loadBundle, operationsOf, responsesOf, type DocumentedResponse } from '../contract/support/spec.js';
import { createValidator } from '../contract/support/validate.js';
import { closedBundle } from './closed-schemas.js';

interface ApiSchemas {
  check: (pointer: string, data: unknown) => string[];
  responses: Map<string, DocumentedResponse[]>;
}

const cache = new Map<SandboxApi, ApiSchemas>();

function schemasOf(api: SandboxApi): ApiSchemas {
  let schemas = cache.get(api);
  if (schemas === undefined) {
    const bundle = loadBundle(api);
    const responses = new Map(operationsOf(bundle, ALL_HTTP_METHODS).map((op) => [op.operationId, responsesOf(bundle, op)]));
    // Closed objects: an answer may carry only the properties its schema names (closed-schemas.ts).
    schemas = { check: createValidator(closedBundle(bundle)), responses };
    cache.set(api, schemas);
  }
  return schemas;
}

/** The response the spec documents for `status`: the exact code, else its class (`4XX`), else `default`. */
function documented(responses: DocumentedResponse[], status: number): DocumentedResponse | undefined {
  return (
    responses.find((r) => r.status === String(status)) ??
    responses.find((r) => r.status.toUpperCase() === `${String(status)[0]}XX`) ??
    responses.find((r) => r.status === 'default')
  );
}

/**
 * An AnswerValidator for `createSandbox({ validate })`. Answers the router
 * gives for unknown paths (`(unrouted)`) are checked for a JSON body only.
 */
export function sandboxValidator(): AnswerValidator {
  return ({ api, operationId, status, body }) => {
    if (operationId === '(unrouted)') return;
    const { check, responses } = schemasOf(api);
    const documentedResponses = responses.get(operationId);
    if (documentedResponses === undefined) throw new Error(`${api} has no operation ${operationId}`);
    const response = documented(documentedResponses, status);
    if (response === undefined) {
      const known = documentedResponses.map((r) => r.status).join(', ');
      throw new Error(`status ${status} is not documented for ${operationId} (documented: ${known})`);
    }
    if (response.schemaPointer === undefined) {
      if (body !== undefined) throw new Error(`${operationId} ${status} documents no body, but one was sent`);
      return;
    }
    const errors = check(response.schemaPointer, body);
    if (errors.length > 0) throw new Error(`${operationId} ${status} body: ${errors.slice(0, 5).join('; ')}`);
  };
}
