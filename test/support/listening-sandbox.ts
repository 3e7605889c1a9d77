// A sandbox listening on 127.0.0.1 for each test, its answers checked
// against the specs, closed afterwards with no violation left behind.
import { afterEach, beforeEach, expect } from 'vitest';
import { createSandbox, type Sandbox, type SandboxListener, type SandboxOptions } from '../../src/sandbox/index.js';
import { sandboxValidator } from './sandbox-validator.js';

export interface ListeningSandbox {
  readonly sandbox: Sandbox;
  readonly listener: SandboxListener;
}

/** Registers the hooks; the returned object holds the current test's sandbox and listener. */
export function useListeningSandbox(options: SandboxOptions = {}): ListeningSandbox {
  let current: { sandbox: Sandbox; listener: SandboxListener } | undefined;
  beforeEach(async () => {
    const sandbox = createSandbox({ validate: sandboxValidator(), ...options });
    current = { sandbox, listener: await sandbox.listen() };
  });
  afterEach(async () => {
    const { sandbox, listener } = current!;
    const violations = [...sandbox.violations];
    await listener.close();
    sandbox.close();
    expect(violations).toEqual([]);
  });
  return {
    get sandbox() {
      return current!.sandbox;
    },
    get listener() {
      return current!.listener;
    },
  };
}
