// createSandbox({ baseUrls }) and sandboxHandlers(sandbox, { baseUrls }) take
// the same base URLs, by one set of rules: what one refuses (a base path the
// service does not have, which a correct client would never send to), the
// other refuses with the same words, and what one serves the other does.
import { describe, expect, it } from 'vitest';
import { createSandbox, SandboxUsageError } from '../../src/sandbox/index.js';
import { sandboxHandlers } from '../../src/sandbox/msw/index.js';

/** The refusal of `baseUrls` by `make`, without its caller's name; undefined when accepted. */
function refusal(make: () => unknown, caller: string): string | undefined {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(SandboxUsageError);
    const message = (error as Error).message;
    expect(message.startsWith(`${caller}: `)).toBe(true);
    return message.slice(caller.length + 2);
  }
  return undefined;
}

describe('createSandbox and sandboxHandlers apply the same base-URL rules', () => {
  const sandbox = createSandbox();
  const cases: Record<string, unknown> = {
    'a policy host with /v1 (its APIs are below /v1 already)': { policy: 'https://api.example.com/v1' },
    'a channels address without its /v1': { channels: 'https://acme.example' },
    'a streams base with the API path in it': { streams: 'https://api.example.com/api/v1' },
    'a doubled /v1 for a proxied policy API': { policy: { coordinator: 'https://proxy.acme.example/v1/v1' } },
    'a path on the production policy host': { policy: { evaluation: 'https://ace.api.chain.link/policy' } },
    'a URL with a password': { channels: 'https://user:hunter2@acme.example/v1' },
    'a URL with a query': { streams: 'https://streams.example/?x=1' },
  };
  for (const [what, baseUrls] of Object.entries(cases)) {
    it(`refuse ${what}, in the same words`, () => {
      const byCreate = refusal(() => createSandbox({ baseUrls } as never).close(), 'createSandbox()');
      const byHandlers = refusal(() => sandboxHandlers(sandbox, { baseUrls } as never), 'sandboxHandlers()');
      expect(byCreate).toBeDefined();
      expect(byHandlers).toBe(byCreate);
      expect(byCreate).not.toContain('hunter2');
    });
  }

  it('accept the same good ones', () => {
    const good = { channels: 'https://acme.example/v1', streams: 'https://streams.acme.example', policy: { evaluation: 'https://proxy.acme.example/policy' } };
    expect(refusal(() => createSandbox({ baseUrls: good }).close(), 'createSandbox()')).toBeUndefined();
    expect(refusal(() => sandboxHandlers(sandbox, { baseUrls: good }), 'sandboxHandlers()')).toBeUndefined();
  });
});
