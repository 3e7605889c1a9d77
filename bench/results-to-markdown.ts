/**
 * Prints bench/results.json as Markdown (the machine, then the table), for
 * bench/README.md:  node --import tsx bench/results-to-markdown.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderMarkdown, type Row } from './table.js';

interface Results {
  startedAt: string;
  finishedAt: string;
  machine: { cpuModel: string; cpuCount: number; totalMemGB: number; platform: string; node: string; v8: string; undici: string };
  load: { before: number[]; after: number[] };
  gcExposed: boolean;
  rows: Row[];
}

const results = JSON.parse(readFileSync(join(import.meta.dirname, 'results.json'), 'utf8')) as Results;
const m = results.machine;
console.log(`- Run: ${results.startedAt} → ${results.finishedAt}`);
console.log(`- CPU: ${m.cpuModel} × ${m.cpuCount}; ${m.totalMemGB} GB; ${m.platform}`);
console.log(`- Node ${m.node} (V8 ${m.v8}, undici ${m.undici}); full GC exposed: ${results.gcExposed ? 'yes' : 'no'}`);
console.log(`- Load average (1, 5, 15 min): before ${results.load.before.join(', ')}; after ${results.load.after.join(', ')}`);
console.log('');
console.log(renderMarkdown(results.rows));
