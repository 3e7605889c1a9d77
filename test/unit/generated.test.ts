import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe('generated/ is reproducible', () => {
  const out = mkdtempSync(join(tmpdir(), 'sdk-generate-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('regenerating from the committed specs gives exactly the committed files', () => {
    // Lint runs on its own in `npm test`; here only bundle + types are redone.
    execFileSync(process.execPath, ['scripts/generate.mjs', '--skip-lint', '--out', out], { cwd: root, stdio: 'pipe' });
    const committed = listFiles(join(root, 'generated'));
    expect(listFiles(out)).toEqual(committed);
    for (const file of committed) {
      const fresh = readFileSync(join(out, file), 'utf8');
      const kept = readFileSync(join(root, 'generated', file), 'utf8');
      expect(fresh, `${file} differs from a fresh \`npm run generate\``).toBe(kept);
    }
  }, 120_000);
});
