// Every name a user can import has a doc comment, which editors show on
// hover and the shipped .d.ts files carry; and nothing shipped points a
// reader at a file the package does not ship (a maintainers' note, a test, a
// benchmark). The entries are read from package.json's `exports`, so a new
// entry or a new export is checked without touching this test.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | { default?: string }>; files: string[] };

/** `./channels` → `src/channels/index.ts`, for each entry that ships compiled source. */
function entrySources(): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [name, target] of Object.entries(pkg.exports)) {
    const built = typeof target === 'string' ? target : target.default;
    if (built === undefined || !built.startsWith('./dist/')) continue;
    entries.set(name, join(root, built.slice('./dist/'.length).replace(/\.js$/, '.ts')));
  }
  return entries;
}

/** `entry name` for each export of each entry that has no doc comment of its own. */
function undocumentedExports(entries: Map<string, string>): string[] {
  const program = ts.createProgram([...entries.values()], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const missing: string[] = [];
  for (const [entry, file] of entries) {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`${entry}: ${relative(root, file)} is not a module`);
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const doc = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
      if (doc === '') missing.push(`${entry} ${exported.name} (${relative(root, symbol.declarations?.[0]?.getSourceFile().fileName ?? file)})`);
    }
  }
  return missing;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(name) ? [path] : [];
  });
}

/** Repository paths named in a file's text (`bench/README.md`, `test/unit/x.test.ts`, `src/reports/fast.ts`). */
const PATH = /(?<![\w./@-])(?:[a-z][\w-]*\/)+[\w.-]+\.(?:md|ts|mts|js|mjs|json|yaml|wat|wasm)\b/g;

/** Whether the package ships `path` (as itself, or as the compiled output of a shipped source). */
function isShipped(path: string): boolean {
  if (!existsSync(join(root, path))) return false;
  const compiled = path.replace(/^(src|generated)\//, 'dist/$1/').replace(/\.ts$/, '.js');
  return pkg.files.some((shipped) => path === shipped || path.startsWith(`${shipped}/`) || compiled.startsWith(`${shipped}/`));
}

/**
 * The text of a shipped file that points readers somewhere: all of a
 * hand-written one; of a generated one, all but its header (the "generated
 * by …, do not edit" lines every generator writes) and the names of the
 * dependencies' files it was made from (`node_modules/…`: where bundled code
 * or a binary came from, not a file to read).
 */
function shippedText(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (!relative(root, file).startsWith('generated')) return text;
  const lines = text.split('\n');
  const header = lines.findIndex((line) => !line.startsWith('//'));
  return lines
    .slice(header === -1 ? lines.length : header)
    .join('\n')
    .replace(/node_modules\/[\w./@-]+/g, '');
}

describe('what users read in the package', () => {
  it('every export of every entry has a doc comment', () => {
    const entries = entrySources();
    expect(entries.size).toBeGreaterThanOrEqual(5);
    expect(undocumentedExports(entries)).toEqual([]);
  });

  it('no shipped file names a file the package does not ship', () => {
    const named: string[] = [];
    for (const file of [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'generated'))]) {
      for (const path of shippedText(file).match(PATH) ?? []) {
        if (!isShipped(path)) named.push(`${relative(root, file)} names ${path}`);
      }
    }
    expect(named).toEqual([]);
  });
});
