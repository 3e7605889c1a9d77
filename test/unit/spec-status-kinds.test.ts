import { describe, expect, it } from 'vitest';
import { newStatusNote, openEnumsInterface, statusEnums, statusKindsTable } from '../../scripts/lib/status-kinds.mjs';

// x-status-kinds as the generator, the changelog and spec:bump read it (scripts/lib/status-kinds.mjs).
const document = (kinds: Record<string, string>) => ({
  components: { schemas: { OperationStatus: { type: 'string', enum: ['accepted', 'confirmed', 'failed', 'replaced'], 'x-status-kinds': kinds } } },
});
const ALL = { accepted: 'in_progress', confirmed: 'succeeded', failed: 'failed', replaced: 'failed' };

describe('x-status-kinds', () => {
  it('lists the values of a status enum with no kind yet', () => {
    const { replaced: _, ...withoutReplaced } = ALL;
    expect(statusEnums(document(withoutReplaced))).toEqual([expect.objectContaining({ name: 'OperationStatus', unclassified: ['replaced'] })]);
    expect(statusEnums(document(ALL))[0]!.unclassified).toEqual([]);
  });

  it('refuses a kind outside in_progress, succeeded and failed, and a kind for a value the enum lacks', () => {
    expect(() => statusEnums(document({ ...ALL, replaced: 'final' }))).toThrow(/kind of `replaced` is `final`/);
    expect(() => statusEnums(document({ ...ALL, reverted: 'failed' }))).toThrow(/`reverted`, which is not in its enum/);
  });

  it('writes the kinds as STATUS_KINDS and each enum open beside components', () => {
    expect(statusKindsTable(document(ALL))).toContain("  OperationStatus: {\n    accepted: 'in_progress',\n    confirmed: 'succeeded',");
    expect(openEnumsInterface(document(ALL))).toContain('OperationStatus: components["schemas"]["OperationStatus"] | (string & {});');
    expect(openEnumsInterface({ components: { schemas: {} } })).toBe('');
  });

  it('says in the changelog whether a new status is final', () => {
    const change = { field: '`OperationStatus`', message: "Enum of `OperationStatus` gained values: 'replaced'." };
    expect(newStatusNote(document(ALL), change)).toBe('`replaced` is final: a wait ends there with a failure.');
    const { replaced: _, ...withoutReplaced } = ALL;
    expect(newStatusNote(document(withoutReplaced), change)).toBe('`replaced` has no kind yet (x-status-kinds).');
    expect(newStatusNote(document(ALL), { field: '`Channel.name`', message: 'Property was added.' })).toBeUndefined();
  });
});
