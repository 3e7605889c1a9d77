// The spec-bump fixtures are one committed base (the channels bundle as
// 0.8.0, and its openapi-typescript types) and, made from it when the tests
// run, each bump: one targeted edit of the base (scripts/lib/spec-bumps.mjs).
// No bump is committed as a copy of the base.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SPEC_BUMPS, specBumpTypes, writeSpecBumps } from '../../scripts/lib/spec-bumps.mjs';

const root = join(import.meta.dirname, '..', '..');
const committed = join(root, 'test', 'fixtures', 'spec-bumps');
const BASE = 'channels-0.8.0';

/** Every JSON pointer (RFC 6901) where `a` and `b` differ (a value changed, added or removed), as deep as both are objects. */
function differences(a: unknown, b: unknown, at = ''): string[] {
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    const step = (key: string) => `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    return [...keys].flatMap((key) => differences((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], step(key)));
  }
  return Object.is(a, b) ? [] : [at];
}

describe('spec-bump fixtures: one base, each bump an edit of it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spec-bumps-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeAll(async () => {
    await writeSpecBumps(join(committed, `${BASE}.yaml`), dir);
  }, 60_000);

  it('commits the base only: its bundle and its types', () => {
    const files = readdirSync(committed, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(committed, join(entry.parentPath, entry.name)))
      .sort();
    expect(files).toEqual([`${BASE}.yaml`, join('types', `${BASE}.ts`)]);
  });

  it("commits the base's types as openapi-typescript makes them from the base", async () => {
    expect(await specBumpTypes(join(committed, `${BASE}.yaml`))).toBe(readFileSync(join(committed, 'types', `${BASE}.ts`), 'utf8'));
  }, 60_000);

  // Where each bump may differ from the base: its version, and what its edit names.
  const edited: Record<string, string[]> = {
    'channels-0.9.0-minor': ['/components/schemas/Channel/properties/labels', '/components/schemas/ChannelStats', '/paths/~1channels~1{channel_id}~1stats'],
    'channels-0.9.0-dangerous-response-enum': ['/components/schemas/ChannelStatus/enum/2'],
    'channels-0.9.0-removed-operation': ['/paths/~1channels~1{channel_id}/patch'],
    'channels-1.0.0-removed-operation': ['/paths/~1channels~1{channel_id}/patch'],
    'channels-0.9.0-new-required-request-field': ['/components/schemas/CreateChannel/properties/region', '/components/schemas/CreateChannel/required/'],
    'channels-0.9.0-removed-request-enum-value': ['/components/schemas/WalletType/enum/'],
    'channels-0.9.0-removed-response-field': ['/components/schemas/Channel/properties/description'],
    'channels-0.9.0-parameter-made-required': ['/paths/~1channels/get/parameters/'],
  };

  it('makes every bump the tests compare, each its own edit of the base and nothing else', () => {
    expect(SPEC_BUMPS.map((bump) => bump.name).sort()).toEqual(Object.keys(edited).sort());
    const base = parse(readFileSync(join(committed, `${BASE}.yaml`), 'utf8')) as { info: { version: string } };
    for (const bump of SPEC_BUMPS) {
      const document = parse(readFileSync(join(dir, `${bump.name}.yaml`), 'utf8')) as { info: { version: string } };
      expect(document.info.version, bump.name).toBe(bump.name.split('-')[1]);
      const changed = differences(base, document).filter((pointer) => pointer !== '/info/version');
      expect(changed.length, `${bump.name} changes something`).toBeGreaterThan(0);
      for (const pointer of changed) {
        expect(edited[bump.name]!.some((place) => pointer.startsWith(place)), `${bump.name} changes ${pointer}`).toBe(true);
      }
    }
  });

  it('writes the types of the bumps the type test compiles user code against', () => {
    for (const name of ['channels-0.9.0-minor', 'channels-0.9.0-new-required-request-field', 'channels-0.9.0-removed-response-field', 'channels-0.9.0-dangerous-response-enum']) {
      expect(readFileSync(join(dir, 'types', `${name}.ts`), 'utf8')).toContain('export interface paths');
    }
  });
});
