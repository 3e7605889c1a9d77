/**
 * 7. Generation: wall time of `npm run generate` (lint, bundle and types of
 * every API) and of `npm run lint`, median of 3 each. The generator writes
 * into a temporary folder (`-- --out <tmp>`, the same work) so the bench
 * never rewrites the committed `generated/`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median, timeRepeated } from './measure.js';
import type { Row } from './table.js';

const BENCH = '7 generation';
const RUNS = 3;
const root = resolve(import.meta.dirname, '..');

function npm(args: string[]): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('npm', args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolvePromise() : reject(new Error(`npm ${args.join(' ')} exited with ${code}\n${stderr}`))));
  });
}

export async function benchGeneration(): Promise<Row[]> {
  const out = mkdtempSync(join(tmpdir(), 'sdk-bench-generate-'));
  try {
    const generate = await timeRepeated(RUNS, () => npm(['run', 'generate', '--', '--out', out]));
    const lint = await timeRepeated(RUNS, () => npm(['run', 'lint']));
    const seconds = (ms: number[]): string => ms.map((m) => (m / 1000).toFixed(1)).join(' / ');
    return [
      {
        bench: BENCH,
        name: 'npm run generate (lint + bundle + types, 5 APIs)',
        value: median(generate) / 1000,
        unit: 's',
        note: `median of ${RUNS}: ${seconds(generate)} s; output to a temp folder`,
      },
      { bench: BENCH, name: 'npm run lint (redocly lint)', value: median(lint) / 1000, unit: 's', note: `median of ${RUNS}: ${seconds(lint)} s` },
    ];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
