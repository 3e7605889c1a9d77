// Answers only as documented. Every sandbox suite validates each answer the
// sandbox gives against its bundle with objects closed (sandboxValidator,
// test/support/closed-schemas.ts): a property its schema does not name fails
// the request with SandboxViolationError. This file checks that closing
// itself: the specs' own response examples still pass (so `allOf`
// compositions, `oneOf` branches and free-form objects are closed right),
// and the same examples with one undocumented property fail; then a sandbox
// answer gets through only as documented.
import { describe, expect, it } from 'vitest';
import { createSandbox, SandboxViolationError } from '../../src/sandbox/index.js';
import { SANDBOX_APIS } from '../../src/sandbox/types.js';
import { ALL_HTTP_METHODS, loadBundle, operationsOf, responsesOf } from '../contract/support/spec.js';
import { createValidator } from '../contract/support/validate.js';
import { closedBundle } from '../support/closed-schemas.js';
import { sandboxValidator } from '../support/sandbox-validator.js';

/** `value` with `extra` added to its first object that has properties (depth first), or undefined when it has none. */
function withExtraProperty(value: unknown, extra: string): unknown {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const changed = withExtraProperty(item, extra);
      if (changed !== undefined) return value.map((other, i) => (i === index ? changed : other));
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  return { ...(value as Record<string, unknown>), [extra]: 'not documented' };
}

describe.each(SANDBOX_APIS.map((api) => [api]))('%s: closed schemas', (api) => {
  const bundle = loadBundle(api);
  const closed = createValidator(closedBundle(bundle));
  const examples = operationsOf(bundle, ALL_HTTP_METHODS).flatMap((op) =>
    responsesOf(bundle, op).flatMap((response) =>
      response.schemaPointer === undefined ? [] : Object.entries(response.examples).map(([name, example]) => ({ where: `${op.operationId} ${response.status} ${name}`, pointer: response.schemaPointer!, value: example.value })),
    ),
  );

  it('accept every documented response example', () => {
    expect(examples.length).toBeGreaterThan(0);
    const refused = examples.flatMap(({ where, pointer, value }) => closed(pointer, value).map((problem) => `${where}: ${problem}`));
    expect(refused).toEqual([]);
  });

  it('refuse each of them with one undocumented property at its top object', () => {
    const accepted = examples.flatMap(({ where, pointer, value }) => {
      const changed = withExtraProperty(value, 'registryID');
      return changed === undefined || closed(pointer, changed).length > 0 ? [] : [where];
    });
    expect(accepted).toEqual([]);
  });
});

it('a sandbox answer with a property its schema does not name fails the request', async () => {
  // The sandbox answers as documented; a validator that sees the answer with one more property stands in for a leak.
  const validate = sandboxValidator();
  const sandbox = createSandbox({
    validate: (answer) => validate(answer.status === 200 && answer.operationId === 'listNetworks' ? { ...answer, body: withExtraProperty(answer.body, 'internalId') } : answer),
  });
  try {
    const call = () => sandbox.fetch('https://cre-connect.api.chain.link/v1/networks', { headers: { Authorization: `Apikey ${sandbox.credentials.channels.apiKey}` } });
    const caught = await call().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(caught).toBeInstanceOf(SandboxViolationError);
    expect((caught as Error).message).toContain('unevaluated');
    expect(sandbox.violations).toHaveLength(1);
  } finally {
    sandbox.close();
  }
});
