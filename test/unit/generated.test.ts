import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPORT_SCAN_WASM } from '../../generated/wasm/report-scan.js';

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
      // Binary files (.wasm) are compared byte for byte: as UTF-8 two different binaries could read the same.
      const encoding = file.endsWith('.wasm') ? 'hex' : 'utf8';
      const fresh = readFileSync(join(out, file), encoding);
      const kept = readFileSync(join(root, 'generated', file), encoding);
      expect(fresh, `${file} differs from a fresh \`npm run generate\``).toBe(kept);
    }
  }, 120_000);

  it('ships the scan module twice, the same bytes: as a .wasm file and as base64', () => {
    const wasm = readFileSync(join(root, 'generated', 'wasm', 'report-scan.wasm'));
    expect(wasm.subarray(0, 4).toString('latin1')).toBe('\0asm');
    expect(Buffer.from(REPORT_SCAN_WASM as string, 'base64').equals(wasm)).toBe(true);
    expect(readFileSync(join(root, 'generated', 'wasm', 'report-scan.workerd.js'), 'utf8')).toContain("from './report-scan.wasm'");
  });
});
