// ARCHITECTURE.md stays true: the folders it names exist, every top-level
// folder of src/ is in it, src/'s import graph has no circle (type-only
// imports included), and the "may import" rules it states hold.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const architecture = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');

/** Every `.ts` file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The static imports and re-exports of each file of src/ (relative ones, resolved), type-only ones included. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      targets.push(relative(root, resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts'))));
    }
    graph.set(relative(root, file), targets);
  }
  return graph;
}

/** The circles of `graph` (strongly connected components of more than one file, or a file importing itself). */
export function circlesOf(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) circles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

/** The room of a path: `src/<room>` or `generated`. */
const roomOf = (path: string) => (path.startsWith('src/') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]!);

/** What each room may import besides itself, as ARCHITECTURE.md states it. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  'src/core': [],
  'src/checks': ['generated'],
  'src/reports': ['src/core', 'generated'],
  'src/channels': ['src/core', 'generated'],
  'src/policy': ['src/core', 'generated'],
  'src/streams': ['src/core', 'src/reports', 'generated'],
};

describe('ARCHITECTURE.md', () => {
  it('names only folders that exist', () => {
    const named = [...architecture.matchAll(/`((?:src|generated|openapi|scripts|test|bench|examples)\/[^`\s]*\/)`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(20);
    const missing = named.filter((folder) => !existsSync(join(root, folder)) || !statSync(join(root, folder)).isDirectory());
    expect(missing).toEqual([]);
  });

  it('describes every top-level folder of src/', () => {
    const rooms = readdirSync(join(root, 'src')).filter((name) => statSync(join(root, 'src', name)).isDirectory());
    expect(rooms.filter((room) => !architecture.includes(`\`src/${room}/\``))).toEqual([]);
  });

  it('src/ has no import circle, type-only imports included', () => {
    expect(circlesOf(importGraph())).toEqual([]);
  });

  it('finds a circle when there is one (the check itself)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circlesOf(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('each room imports only what ARCHITECTURE.md says it may', () => {
    const broken: string[] = [];
    for (const [file, targets] of importGraph()) {
      const room = roomOf(file);
      const allowed = MAY_IMPORT[room];
      if (allowed === undefined) continue;
      for (const target of targets) {
        const to = roomOf(target);
        if (to !== room && !allowed.includes(to)) broken.push(`${file} imports ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the command line and the MCP server reach the sandbox only through its entry or its summary lines', () => {
    const allowed = new Set(['src/sandbox/index.ts', 'src/sandbox/summary-lines.ts']);
    const broken: string[] = [];
    for (const file of sources(join(root, 'src'))) {
      const path = relative(root, file);
      if (!path.startsWith('src/cli/') && !path.startsWith('src/mcp/')) continue;
      for (const match of readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const target = relative(root, resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts')));
        if (target.startsWith('src/sandbox/') && !allowed.has(target)) broken.push(`${path} imports ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
