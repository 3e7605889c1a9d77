// How fast `decodeReport` decodes in workerd, with the scan's .wasm module
// (the package's `workerd` condition) and without it (the default build:
// workerd refuses to compile the base64 module, so the JavaScript scan runs),
// next to Node in this process for scale. Prints ns per report.
//
//   npx tsx test/runtimes/workerd-decode-speed.ts [--rounds 15] [--batch 100000]
//
// workerd's clocks stand still while a request computes (a timing side-channel
// defence), so the time is taken outside: a request that decodes `batch`
// reports, minus one that decodes none, round-tripped through miniflare. The
// two Workers run at once and are asked in alternating order, round by round,
// so that a change of machine load hits both alike. Reports: V3 and V11 with
// two signatures, 16 of each, as bench/decode.ts makes them.
import { availableParallelism, cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { encodeAbiParameters, type AbiParameter, type Hex } from 'viem';
import { decodeReport } from '../../src/reports/decode.js';
import { useScanEngine } from '../../src/reports/scan.js';
import { FULL_REPORT_ABI, REPORT_SCHEMAS, reportBlobAbi, reportVersionId, type ReportVersion } from '../../src/reports/layouts.js';
import { bundle, withWorker, WORKERD_CONDITIONS, type Dispatch } from './support/runners.js';

const root = resolve(import.meta.dirname, '..', '..');
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const ROUNDS = option('--rounds', 15);
const BATCH = option('--batch', 100_000);
const VERSIONS: ReportVersion[] = ['V3', 'V11'];

interface Sample {
  feedID: string;
  fullReport: string;
}

/** 16 reports of `version` with plausible magnitudes (18-decimal prices, 60-bit fees) and two signatures. */
function samplesOf(version: ReportVersion): Sample[] {
  let state = BigInt(reportVersionId(version)) * 7919n;
  const random = (bits: number): bigint => {
    let out = 0n;
    for (let have = 0; have < bits; have += 64) {
      state = (state + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
      let z = state;
      z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
      z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
      out = (out << 64n) | (z ^ (z >> 31n));
    }
    return out & ((1n << BigInt(bits)) - 1n);
  };
  const hex32 = (value: bigint): Hex => `0x${value.toString(16).padStart(64, '0')}`;
  return Array.from({ length: 16 }, (_, k) => {
    const feedID = hex32((BigInt(reportVersionId(version)) << 240n) | random(240));
    const t = 1_700_000_000 + k;
    const values = REPORT_SCHEMAS[version].map((field, i): unknown => {
      if (i === 0) return feedID;
      if (field.type === 'uint32') return field.name === 'expiresAt' ? t + 86_400 : t;
      if ('domain' in field) return field.domain === 'marketStatus' ? 2 : 0;
      if (field.type === 'bytes32') return hex32(random(256));
      if (field.type === 'int192') return 3_000n * 10n ** 18n + random(60);
      return random(60);
    });
    const blob = encodeAbiParameters(reportBlobAbi(version) as readonly AbiParameter[], values);
    const words = (n: number) => Array.from({ length: n }, () => hex32(random(256)));
    const fullReport = encodeAbiParameters(FULL_REPORT_ABI, [words(3) as [Hex, Hex, Hex], blob, words(2), words(2), hex32(random(256))]);
    return { feedID, fullReport };
  });
}

const SAMPLES = Object.fromEntries(VERSIONS.map((version) => [version, samplesOf(version)]));

/** The Worker: POST the samples (answers the scan engine in use), then GET ?version=&n= decodes n of them. */
const WORKER = `
import { decodeReport } from './src/reports/decode.ts';
import { useScanEngine } from './src/reports/scan.ts';
let samples = {};
export default {
  async fetch(request) {
    if (request.method === 'POST') {
      samples = await request.json();
      return new Response(useScanEngine('wasm'));
    }
    const url = new URL(request.url);
    const list = samples[url.searchParams.get('version')];
    const n = Number(url.searchParams.get('n'));
    let sink = 0;
    for (let i = 0; i < n; i++) {
      const s = list[i & 15];
      sink += decodeReport(s.fullReport, s.feedID).observationsTimestamp & 1;
    }
    return new Response(String(sink));
  },
};
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(dispatch: Dispatch, version: string, n: number): Promise<number> {
  const start = process.hrtime.bigint();
  const response = await dispatch(`http://worker/?version=${version}&n=${n}`);
  await response.text();
  if (response.status !== 200) throw new Error(`workerd answered ${response.status}`);
  return Number(process.hrtime.bigint() - start);
}

/** ns per report in this Node process, for each scan engine, asked in alternating order round by round. */
function nodeNsPerReport(version: ReportVersion): Record<'wasm' | 'js', number> {
  const list = SAMPLES[version]!;
  const run = (engine: 'wasm' | 'js') => {
    if (useScanEngine(engine) !== engine) throw new Error(`the ${engine} scan is not available in Node here`);
    const start = process.hrtime.bigint();
    let sink = 0;
    for (let i = 0; i < BATCH; i++) sink += decodeReport(list[i & 15]!.fullReport, list[i & 15]!.feedID).observationsTimestamp & 1;
    if (sink < 0) throw new Error('unreachable');
    return Number(process.hrtime.bigint() - start) / BATCH;
  };
  const engines = ['wasm', 'js'] as const;
  for (let i = 0; i < 3; i++) engines.forEach(run);
  const per = { wasm: [] as number[], js: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const engine of round % 2 === 0 ? engines : [...engines].reverse()) per[engine].push(run(engine));
  }
  useScanEngine('wasm');
  return { wasm: median(per.wasm), js: median(per.js) };
}

async function main() {
  const entry = { contents: WORKER, resolveDir: root };
  const withModule = await bundle(entry, WORKERD_CONDITIONS, 'esm');
  const withoutModule = await bundle(entry, ['worker', 'browser'], 'esm');
  const rows: { where: string; version: string; ns: number }[] = [];

  await withWorker(withModule, (wasmDispatch) =>
    withWorker(withoutModule, async (jsDispatch) => {
      const workers = [
        { where: 'workerd, .wasm module (`workerd` condition)', dispatch: wasmDispatch, engine: 'wasm' },
        { where: 'workerd, default build (JavaScript scan)', dispatch: jsDispatch, engine: 'js' },
      ];
      for (const worker of workers) {
        const answer = await worker.dispatch('http://worker/', { method: 'POST', body: JSON.stringify(SAMPLES) });
        const engine = await answer.text();
        if (engine !== worker.engine) throw new Error(`${worker.where}: expected the ${worker.engine} scan, workerd used ${engine}`);
      }
      for (const version of VERSIONS) {
        for (const worker of workers) for (let i = 0; i < 3; i++) await timed(worker.dispatch, version, BATCH);
        const per: number[][] = workers.map(() => []);
        for (let round = 0; round < ROUNDS; round++) {
          const order = round % 2 === 0 ? [0, 1] : [1, 0];
          for (const w of order) {
            const empty = await timed(workers[w]!.dispatch, version, 0);
            const full = await timed(workers[w]!.dispatch, version, BATCH);
            per[w]!.push((full - empty) / BATCH);
          }
        }
        workers.forEach((worker, w) => rows.push({ where: worker.where, version, ns: median(per[w]!) }));
      }
    }),
  );
  for (const version of VERSIONS) {
    const node = nodeNsPerReport(version);
    rows.push({ where: `Node ${process.versions.node}, WebAssembly scan`, version, ns: node.wasm });
    rows.push({ where: `Node ${process.versions.node}, JavaScript scan`, version, ns: node.js });
  }

  console.log(`decodeReport, ns per report (median of ${ROUNDS} rounds of ${BATCH.toLocaleString('en')} reports)`);
  console.log(`${cpus()[0]?.model} × ${availableParallelism()}; load average ${loadavg().map((l) => l.toFixed(2)).join(', ')}\n`);
  for (const version of VERSIONS) {
    for (const row of rows.filter((r) => r.version === version)) console.log(`${version}  ${row.ns.toFixed(0).padStart(6)} ns  ${row.where}`);
    console.log('');
  }
}

await main();
