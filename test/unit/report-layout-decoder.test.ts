// One layout, one decoder: the fast decoder of each schema version is made by
// the generator (scripts/lib/report-builders.mjs, a step of `npm run
// generate`) from src/reports/layouts.ts alone. Here a copy of layouts.ts
// gains a version, the generator runs on it, and the package's decoder,
// bundled with that layout and that output instead of the committed ones,
// decodes the new version with no other edit.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { encodeAbiParameters, type AbiParameter, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLayouts, reportBuildersModule } from '../../scripts/lib/report-builders.mjs';
import type * as ReportDecoder from '../../src/reports/index.js';

const root = join(import.meta.dirname, '..', '..');
const LAYOUTS = join(root, 'src', 'reports', 'layouts.ts');
const BUILDERS = join(root, 'generated', 'reports', 'builders.ts');

/** layouts.ts with one more version, V14, whose fields cover every field type and both domains. */
function layoutsWithV14(): string {
  const source = readFileSync(LAYOUTS, 'utf8');
  const versions = source.replace("'V13',\n] as const;", "'V13',\n  'V14',\n] as const;");
  const schemas = versions.replace(
    '} as const satisfies { readonly [V in ReportVersion]',
    `  V14: [
    ...COMMON_REPORT_FIELDS,
    { name: 'level', type: 'uint8' },
    { name: 'price', type: 'int192' },
    { name: 'volume', type: 'uint64' },
    { name: 'marketStatus', type: 'uint32', domain: 'marketStatus' },
    { name: 'reserve', type: 'uint192' },
    { name: 'ripcord', type: 'uint32', domain: 'ripcord' },
  ],
} as const satisfies { readonly [V in ReportVersion]`,
  );
  expect(schemas, 'the edit of the copy of layouts.ts found its places').not.toBe(versions);
  expect(versions).not.toBe(source);
  return schemas;
}

/** Serves `contents` in place of the file at `path` when esbuild loads it. */
function replaceFile(path: string, contents: string): Plugin {
  return {
    name: `replace ${path}`,
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => (args.path === path ? { contents, loader: 'ts' } : undefined));
    },
  };
}

const hex32 = (value: bigint): Hex => `0x${value.toString(16).padStart(64, '0')}`;

describe('a version added to layouts.ts decodes once the generator has run, with no other edit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-layout-decoder-'));
  let decoder: typeof ReportDecoder;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    const layoutsSource = layoutsWithV14();
    const layoutsFile = join(dir, 'layouts.ts');
    writeFileSync(layoutsFile, layoutsSource);
    const builders = reportBuildersModule(await loadLayouts(layoutsFile));
    expect(builders).not.toBe(readFileSync(BUILDERS, 'utf8'));
    const bundle = join(dir, 'report-decoder.mjs');
    await build({
      entryPoints: [join(root, 'src', 'reports', 'index.ts')],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      outfile: bundle,
      logLevel: 'silent',
      plugins: [replaceFile(LAYOUTS, layoutsSource), replaceFile(BUILDERS, builders)],
    });
    decoder = (await import(/* @vite-ignore */ pathToFileURL(bundle).href)) as typeof ReportDecoder;
  });

  const feedId = hex32((14n << 240n) | 0xabcdefn);
  const fields = {
    feedId,
    validFromTimestamp: 1_700_000_000,
    observationsTimestamp: 1_700_000_001,
    nativeFee: 123_456_789_000_000n,
    linkFee: (1n << 150n) + 7n,
    expiresAt: 1_700_086_400,
    level: 255,
    price: -(10n ** 24n) - 1n,
    volume: (1n << 64n) - 1n,
    marketStatus: 2,
    reserve: (1n << 192n) - 1n,
    ripcord: 1,
  };

  function v14Report(values: typeof fields): Hex {
    const version = 'V14' as ReportDecoder.ReportVersion;
    const blob = encodeAbiParameters(decoder.reportBlobAbi(version) as readonly AbiParameter[], Object.values(values));
    return encodeAbiParameters(decoder.FULL_REPORT_ABI, [[hex32(1n), hex32(2n), hex32(3n)], blob, [hex32(4n)], [hex32(5n)], hex32(6n)]);
  }

  it('decodes every field of the new version, in the order of its layout', () => {
    expect(decoder.REPORT_VERSIONS).toContain('V14');
    const decoded = decoder.decodeReport(v14Report(fields), feedId) as unknown as Record<string, unknown>;
    expect(decoded).toStrictEqual({
      version: 'V14',
      ...fields,
      reportContext: [hex32(1n), hex32(2n), hex32(3n)],
      rawRs: [hex32(4n)],
      rawSs: [hex32(5n)],
      rawVs: hex32(6n),
    });
    expect(Object.keys(decoded)).toEqual(['version', ...Object.keys(fields), 'reportContext', 'rawRs', 'rawSs', 'rawVs']);
  });

  it("holds the new version's fields to their domains, as the layout says", () => {
    const attempt = (values: typeof fields) => {
      try {
        decoder.decodeReport(v14Report(values), feedId);
        return 'decoded';
      } catch (error) {
        expect(error).toBeInstanceOf(decoder.ReportDecodeError);
        return (error as ReportDecoder.ReportDecodeError).reason;
      }
    };
    expect(attempt({ ...fields, marketStatus: 3 })).toBe('invalid_market_status');
    expect(attempt({ ...fields, ripcord: 2 })).toBe('invalid_ripcord');
  });
});
