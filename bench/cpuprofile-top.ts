/**
 * The top frames of a `.cpuprofile` (from `node --cpu-prof`): self time and
 * inclusive time per function, and self time per file (or package).
 *
 *   node --import tsx bench/cpuprofile-top.ts <file.cpuprofile> [rows=25] [filter]
 *
 * `filter` (a substring of a function or file) lists only matching frames in
 * the inclusive table, e.g. `transport` or `openapi-fetch`.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

process.stdout.on('error', () => process.exit(0)); // e.g. piped into `head`
const [file, rowsArg, filter] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: cpuprofile-top.ts <file.cpuprofile> [rows] [filter]');
const top = Number(rowsArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const shortUrl = (url: string): string =>
  url
    .replace(/^file:\/\/.*?\/node_modules\//, '')
    .replace(/^file:\/\/\/work\/main\//, '')
    .replace(/^file:\/\//, '')
    .replace(/^node:internal\//, 'node:');
const keyOf = (f: CallFrame): string =>
  `${f.functionName || '(anonymous)'} ${f.url ? `${shortUrl(f.url)}:${f.lineNumber + 1}` : ''}`.trim();
const fileOf = (f: CallFrame): string => {
  if (!f.url) return f.functionName.startsWith('(') ? f.functionName : '(native)';
  const u = shortUrl(f.url);
  if (u.startsWith('node:')) return u.split('/').slice(0, 2).join('/');
  return u.startsWith('/') || u.startsWith('src/') || u.startsWith('bench/') ? u : (u.split('/')[0] ?? u);
};

// Self time of each node: the time deltas of its samples.
const selfUs = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i] as number;
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0));
}
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);

const selfByFn = new Map<string, number>();
const selfByFile = new Map<string, number>();
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  selfByFn.set(keyOf(node.callFrame), (selfByFn.get(keyOf(node.callFrame)) ?? 0) + us);
  selfByFile.set(fileOf(node.callFrame), (selfByFile.get(fileOf(node.callFrame)) ?? 0) + us);
}

// Inclusive time per function, counting a function once per stack (recursion).
const inclusive = new Map<string, number>();
const root = profile.nodes[0];
function walk(id: number, onStack: Set<string>): number {
  const node = byId.get(id) as ProfileNode;
  let sum = selfUs.get(id) ?? 0;
  const key = keyOf(node.callFrame);
  const fresh = !onStack.has(key);
  if (fresh) onStack.add(key);
  for (const child of node.children ?? []) sum += walk(child, onStack);
  if (fresh) {
    onStack.delete(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + sum);
  }
  return sum;
}
if (root !== undefined) walk(root.id, new Set());

const pct = (us: number): string => `${((100 * us) / totalUs).toFixed(1).padStart(5)}%`;
const print = (title: string, map: Map<string, number>, keep: (k: string) => boolean = () => true): void => {
  console.log(`\n${title}`);
  for (const [k, us] of [...map].filter(([k]) => keep(k)).sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${pct(us)}  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`);
  }
};
console.log(`${file}: ${(totalUs / 1e6).toFixed(2)} s sampled`);
print('self time by function', selfByFn);
print('self time by file / package', selfByFile);
const skip = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);
print(
  `inclusive time by function${filter ? ` (matching ${filter})` : ''}`,
  inclusive,
  (k) => !skip.has(k) && (filter === undefined || k.includes(filter)),
);
