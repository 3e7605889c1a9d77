import { describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/sandbox/probe.js';

// The sandbox against its specs, operation by operation from the generated
// tables (src/sandbox/probe.ts): every operation has a handler, and every
// documented query parameter sent to it is read. `npm run spec:bump` prints
// the same lists after a spec bump.
describe('the sandbox models every operation and parameter of its specs', () => {
  const probe = probeSandbox();

  it('has a handler for every operation of the generated tables', () => {
    expect(probe.missingHandlers).toEqual([]);
  });

  it('reads every documented query parameter it was sent, where a 2xx answer shows it', () => {
    expect(probe.unreadParameters).toEqual([]);
    // The probe must prove something: the wallet list's filters, among others, are conclusive.
    const conclusive = (operationId: string, parameter: string) =>
      !probe.inconclusive.some((where) => where.operationId === operationId && where.parameter === parameter);
    expect(conclusive('listWallets', 'name')).toBe(true);
    expect(conclusive('listWallets', 'owner')).toBe(true);
  });
});
