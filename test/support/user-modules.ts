// Code written as a user of the package would write it (README blocks, the
// reference docs' samples), checked against this repository's sources: the
// `@ourteam/service-sdk/<entry>` imports resolve to each entry's source file.
import { join } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..', '..');

/** Where each package entry's source lives. */
export const ENTRY_SOURCES: Readonly<Record<string, string>> = {
  channels: 'src/channels/index.ts',
  streams: 'src/streams/index.ts',
  policy: 'src/policy/index.ts',
  sandbox: 'src/sandbox/index.ts',
  'sandbox/msw': 'src/sandbox/msw/index.ts',
  'report-decoder': 'src/reports/index.ts',
};

/** The absolute source file of a package entry; throws on an entry the package does not have. */
export function entrySource(entry: string): string {
  const file = ENTRY_SOURCES[entry];
  if (file === undefined) throw new Error(`the package has no entry ${entry}`);
  return join(root, file);
}

/**
 * Type-checks user modules strictly (ES2022, bundler resolution, DOM and
 * Node types) and returns each problem as `<label>: <message>`, where
 * `label(file, line)` names the place a reader should look.
 */
export function typeCheckUserModules(files: readonly string[], label: (file: string, line: number) => string): string[] {
  const paths = Object.fromEntries(Object.keys(ENTRY_SOURCES).map((entry) => [`@ourteam/service-sdk/${entry}`, [entrySource(entry)]]));
  const program = ts.createProgram([...files], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    typeRoots: [join(root, 'node_modules', '@types')],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    paths,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file !== undefined && files.includes(d.file.fileName))
    .map((d) => {
      const line = d.file!.getLineAndCharacterOfPosition(d.start ?? 0).line;
      return `${label(d.file!.fileName, line)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
}
