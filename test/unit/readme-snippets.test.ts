// Every TypeScript block of the README compiles as written in a user's
// project: each block is a module of its own, its `@ourteam/service-sdk/…`
// imports resolved to this repository's sources, type-checked strictly with
// the TypeScript API. A failure names the block by its README line.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typeCheckUserModules } from '../support/user-modules.js';

const root = join(import.meta.dirname, '..', '..');
const dir = join(root, 'test-results', 'readme-snippets');

interface Block {
  line: number;
  source: string;
}

function typeScriptBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== '```') end++;
    blocks.push({ line: start + 1, source: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}

describe('README TypeScript blocks', () => {
  const blocks = typeScriptBlocks(readFileSync(join(root, 'README.md'), 'utf8'));

  it('there are blocks to check', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
  });

  it('each compiles as a user module', { timeout: 120_000 }, () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = blocks.map((block) => {
      const file = join(dir, `readme-line-${block.line}.ts`);
      // `export {}` makes each block a module (top-level await, its own scope).
      writeFileSync(file, `${block.source}\nexport {};\n`);
      return file;
    });
    const problems = typeCheckUserModules(files, (file, line) => `README.md:${Number(/readme-line-(\d+)/.exec(file)![1]) + line}`);
    expect(problems).toEqual([]);
  });
});
