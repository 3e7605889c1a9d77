// `npm ci` for the quick start installs what the SDK's own build, tests and
// docs need, and nothing that warns on the oldest Node the package supports:
// the other runtimes of the matrix come from test/runtimes/js-runtimes, a
// project of its own installed by the matrix when it runs. Read from the
// lockfiles, so the answer does not depend on what happens to be installed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const readJson = <T>(...path: string[]): T => JSON.parse(readFileSync(join(root, ...path), 'utf8')) as T;

interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
  os?: string[];
  cpu?: string[];
  optional?: boolean;
}
interface Manifest {
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const manifest = readJson<Manifest>('package.json');
const lock = readJson<{ packages: Record<string, LockEntry> }>('package-lock.json');
const matrix = readJson<Manifest>('test', 'runtimes', 'js-runtimes', 'package.json');

/** The package name of a lockfile key (`node_modules/a/node_modules/@b/c` → `@b/c`). */
const nameOf = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

// --- a version against an `engines.node` range ------------------------------
// The forms npm packages use: `||` of space-separated comparators, each one of
// >=, >, <=, <, =, ^, ~ or none, before a version that may be partial or end in x / *.

type Version = [number, number, number];
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** A partial version's lowest version and how many parts it gave (`20` → [20,0,0], 1; `10.x` → 1; `*` → 0). */
function partial(text: string): { low: Version; given: number } {
  const parts = text.replace(/^v/, '').split('.');
  const numbers: number[] = [];
  for (const part of parts) {
    if (part === 'x' || part === 'X' || part === '*' || part === '') break;
    const n = Number(part);
    if (!Number.isInteger(n)) throw new Error(`unreadable version "${text}"`);
    numbers.push(n);
  }
  return { low: [numbers[0] ?? 0, numbers[1] ?? 0, numbers[2] ?? 0], given: numbers.length };
}

/** The first version above a partial version's range (`20` → 21.0.0; `20.19` → 20.20.0). */
function above({ low, given }: { low: Version; given: number }): Version {
  if (given === 1) return [low[0] + 1, 0, 0];
  if (given === 2) return [low[0], low[1] + 1, 0];
  return [low[0], low[1], low[2] + 1];
}

function satisfiesComparator(version: Version, comparator: string): boolean {
  const [, op = '', text = ''] = /^(>=|<=|>|<|=|\^|~)?\s*(.*)$/.exec(comparator)!;
  const p = partial(text);
  if (p.given === 0) return op === '' || op === '=' || op === '>=' || op === '<=';
  switch (op) {
    case '>=':
      return compare(version, p.low) >= 0;
    case '>':
      return compare(version, above(p)) >= 0;
    case '<':
      return compare(version, p.low) < 0;
    case '<=':
      return compare(version, above(p)) < 0;
    case '^': {
      const ceiling: Version = p.low[0] > 0 ? [p.low[0] + 1, 0, 0] : p.low[1] > 0 ? [0, p.low[1] + 1, 0] : above(p);
      return compare(version, p.low) >= 0 && compare(version, ceiling) < 0;
    }
    case '~':
      return compare(version, p.low) >= 0 && compare(version, above({ low: p.low, given: Math.min(p.given, 2) })) < 0;
    default:
      return compare(version, p.low) >= 0 && compare(version, above(p)) < 0;
  }
}

function satisfiesRange(version: string, range: string): boolean {
  const v = partial(version).low;
  return range.split('||').some((set) => {
    const comparators = set.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter(Boolean);
    return comparators.length === 0 || comparators.every((comparator) => satisfiesComparator(v, comparator));
  });
}

/** Whether npm installs this entry here (an optional package for another OS or CPU is skipped, without a warning). */
const installedHere = (entry: LockEntry) =>
  (entry.os === undefined || entry.os.includes(process.platform)) && (entry.cpu === undefined || entry.cpu.includes(process.arch));

describe('the quick start install', () => {
  const oldestNode = partial(manifest.engines!.node!.replace(/^>=\s*/, '')).low.join('.');

  it('the range check reads the forms the lockfile uses', () => {
    expect(satisfiesRange('20.19.0', '>=22.0.0')).toBe(false);
    expect(satisfiesRange('20.19.0', '>=22.12.0 || >=20.19.0 <21.0.0')).toBe(true);
    expect(satisfiesRange('20.19.0', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfiesRange('20.18.0', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfiesRange('20.19.0', '20 || >=22')).toBe(true);
    expect(satisfiesRange('21.0.0', '20 || >=22')).toBe(false);
    expect(satisfiesRange('20.19.0', '10.* || >= 12.*')).toBe(true);
    expect(satisfiesRange('20.19.0', '^20.0.0 || ^22.0.0 || >=24.0.0')).toBe(true);
    expect(satisfiesRange('20.19.0', '>=20.18.1')).toBe(true);
    expect(satisfiesRange('20.19.0', '>= 20.19.0')).toBe(true);
    expect(satisfiesRange('20.19.0', '~20.18.0')).toBe(false);
    expect(satisfiesRange('20.19.0', '*')).toBe(true);
  });

  it(`every package npm ci installs takes the oldest Node the package supports (no EBADENGINE)`, () => {
    const refusing = Object.entries(lock.packages)
      .filter(([key, entry]) => key !== '' && installedHere(entry))
      .flatMap(([key, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range === undefined || satisfiesRange(oldestNode, range) ? [] : [`${nameOf(key)}@${entry.version} wants node ${range}`];
      });
    expect(refusing, `on Node ${oldestNode}`).toEqual([]);
  });

  it("the runtime matrix's runtimes are not in the root project, but in a project of their own", () => {
    const runtimes = Object.keys(matrix.devDependencies ?? {});
    expect(runtimes).toEqual(expect.arrayContaining(['bun', 'deno', 'miniflare', 'edge-runtime']));
    const rootDeclares = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    expect(rootDeclares.filter((name) => runtimes.includes(name))).toEqual([]);
    // Nor pulled in by something else: workerd comes with miniflare, @oven/bun-* and @deno/* with their runtimes.
    const locked = Object.keys(lock.packages).filter((key) => key !== '').map(nameOf);
    expect(locked.filter((name) => [...runtimes, 'workerd'].includes(name) || /^@(oven|deno|cloudflare|edge-runtime)\//.test(name))).toEqual([]);
  });
});
