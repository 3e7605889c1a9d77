/**
 * 6. Size: the packed tarball, as `npm pack` writes it (test/support/packed-package.ts
 * packs a copy of the working tree, built by `prepack`), and the files in it
 * that weigh most. Goal (issue 39): ≤ 1.5 MB, once libsecp256k1's 1.2 MB
 * stopped shipping twice.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packPackage } from '../test/support/packed-package.js';
import type { Row } from './table.js';

const BENCH = '6 size and start';
const GOAL_BYTES = 1.5 * 1000 * 1000;

export async function benchTarball(): Promise<Row[]> {
  const dir = await mkdtemp(join(tmpdir(), 'sdk-bench-pack-'));
  try {
    const packed = await packPackage(dir);
    const bytes = (await stat(packed.tarball)).size;
    const files = packed.files as { path: string; size?: number }[];
    const unpacked = files.reduce((sum, file) => sum + (file.size ?? 0), 0);
    const largest = [...files]
      .sort((a, b) => (b.size ?? 0) - (a.size ?? 0))
      .slice(0, 3)
      .map((file) => `${file.path} ${((file.size ?? 0) / 1024).toFixed(1)} kB`)
      .join(', ');
    return [
      {
        bench: BENCH,
        name: 'packed tarball (npm pack)',
        value: bytes / 1000,
        unit: 'kB',
        goal: '≤ 1500 kB',
        pass: bytes <= GOAL_BYTES,
        note: `${files.length} files, ${(unpacked / 1000).toFixed(0)} kB unpacked; largest: ${largest}`,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
