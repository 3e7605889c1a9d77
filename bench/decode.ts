/**
 * Reports decoded per second: our fixed-layout `decodeReport` against viem's
 * generic `decodeAbiParameters`, ethers' `AbiCoder` and the vendor's
 * `decodeReport` (`@chainlink/data-streams-sdk`), for V3 (crypto) and V11,
 * the widest schema. Ours is measured twice: with its WebAssembly scan (the
 * default) and with the JavaScript scan it falls back to where WebAssembly
 * may not compile.
 *
 * Inputs: 16 distinct, deterministic reports per version with plausible
 * magnitudes (positive 18-decimal prices, 60-bit fees), each with two
 * signatures (the shape of the service's testnet answers), as flat strings
 * the way `JSON.parse` hands them over. Ours and the vendor's get the
 * `feedID` too, as in real use; the generic decoders decode the outer tuple
 * and then the blob.
 *
 * Usage: `const rows = await benchDecode()`; each row is one decoder on one
 * version. `medianNs` and `p99Ns` are per report, over batches of reports.
 */
import { decodeReport as vendorDecodeReport } from '@chainlink/data-streams-sdk';
import { AbiCoder } from 'ethers';
import { decodeAbiParameters, encodeAbiParameters, type Hex } from 'viem';

import { decodeReport } from '../src/reports/decode.js';
import { useScanEngine } from '../src/reports/scan.js';
import { FULL_REPORT_ABI, REPORT_SCHEMAS, reportBlobAbi, type ReportVersion } from '../src/reports/layouts.js';

export interface DecodeBenchResult {
  name: string;
  opsPerSec: number;
  medianNs: number;
  p99Ns: number;
}

export interface DecodeBenchOptions {
  /** Measuring time per row, after warm-up. Default 1000 ms. */
  durationMs?: number;
  /** Warm-up time per row. Default 300 ms. */
  warmupMs?: number;
}

const SAMPLES_PER_VERSION = 16;
const SIGNATURES = 2;

/** Deterministic 64-bit generator (SplitMix64), so every run decodes the same reports. */
function generator(seed: bigint): (bits: number) => bigint {
  let state = seed;
  return (bits) => {
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
}

const hex32 = (value: bigint): Hex => `0x${value.toString(16).padStart(64, '0')}`;

interface Sample {
  feedID: string;
  fullReport: string;
}

function makeSamples(version: ReportVersion): Sample[] {
  const random = generator(BigInt(version.slice(1)) * 7919n);
  const id = BigInt(version.slice(1));
  const samples: Sample[] = [];
  for (let k = 0; k < SAMPLES_PER_VERSION; k++) {
    const feedId = hex32((id << 240n) | random(240));
    const t = 1_700_000_000 + k;
    const values = REPORT_SCHEMAS[version].map((field, i): unknown => {
      if (i === 0) return feedId;
      if (field.name === 'validFromTimestamp' || field.name === 'observationsTimestamp') return t;
      if (field.name === 'expiresAt') return t + 86_400;
      if ('domain' in field) return field.domain === 'marketStatus' ? 2 : 0; // open; ripcord normal
      switch (field.type) {
        case 'uint32':
          return Number(random(31));
        case 'uint64':
          return random(63);
        case 'uint192':
          return random(60); // fees: 0.0x LINK-like magnitudes
        case 'int192':
          return random(80); // prices, volumes: positive, 18 decimals (the tests cover negative values)
        default:
          return hex32(random(256));
      }
    });
    const blob = encodeAbiParameters(reportBlobAbi(version), values);
    const words = (): Hex[] => Array.from({ length: SIGNATURES }, () => hex32(random(256)));
    const fullReport = encodeAbiParameters(FULL_REPORT_ABI, [
      [hex32(random(256)), hex32(random(256)), hex32(random(256))],
      blob,
      words(),
      words(),
      hex32(random(256)),
    ]);
    // A flat string, as JSON.parse produces (viem builds it by concatenation).
    samples.push({ feedID: feedId, fullReport: JSON.parse(JSON.stringify(fullReport)) as string });
  }
  return samples;
}

type Decoder = (sample: Sample) => unknown;

/** A row: its name, the decoder, and for ours the scan engine to use. */
function decoders(version: ReportVersion): [string, Decoder, ('wasm' | 'js')?][] {
  const blobAbi = reportBlobAbi(version);
  const outerTypes = FULL_REPORT_ABI.map((p) => p.type);
  const blobTypes = blobAbi.map((p) => p.type);
  const coder = AbiCoder.defaultAbiCoder();
  return [
    [`${version} decodeReport (ours)`, (s) => decodeReport(s.fullReport, s.feedID), 'wasm'],
    [`${version} decodeReport (ours, JavaScript scan)`, (s) => decodeReport(s.fullReport, s.feedID), 'js'],
    [
      `${version} decodeAbiParameters (viem)`,
      (s) => decodeAbiParameters(blobAbi, decodeAbiParameters(FULL_REPORT_ABI, s.fullReport as Hex)[1]),
    ],
    [
      `${version} AbiCoder (ethers)`,
      (s) => coder.decode(blobTypes, coder.decode(outerTypes, s.fullReport)[1] as string),
    ],
    [`${version} decodeReport (@chainlink/data-streams-sdk)`, (s) => vendorDecodeReport(s.fullReport, s.feedID)],
  ];
}

let sink = 0;

function measure(name: string, decode: Decoder, samples: Sample[], durationMs: number, warmupMs: number): DecodeBenchResult {
  const run = (count: number): void => {
    for (let i = 0; i < count; i++) {
      const result = decode(samples[i % SAMPLES_PER_VERSION] as Sample);
      if (result !== undefined) sink++;
    }
  };
  // Warm up, and size batches to about 50 µs each so the clock's cost does not count.
  let batch = 1;
  const warmupEnd = performance.now() + warmupMs;
  while (performance.now() < warmupEnd) {
    const t0 = process.hrtime.bigint();
    run(batch);
    const ns = Number(process.hrtime.bigint() - t0);
    if (ns < 50_000 && batch < 1 << 16) batch *= 2;
  }
  const perReport: number[] = [];
  let reports = 0;
  let spentNs = 0;
  const budgetNs = durationMs * 1e6;
  while (spentNs < budgetNs) {
    const t0 = process.hrtime.bigint();
    run(batch);
    const ns = Number(process.hrtime.bigint() - t0);
    spentNs += ns;
    reports += batch;
    perReport.push(ns / batch);
  }
  perReport.sort((a, b) => a - b);
  const quantile = (q: number): number => perReport[Math.min(perReport.length - 1, Math.floor(q * perReport.length))] as number;
  return {
    name,
    opsPerSec: Math.round((reports * 1e9) / spentNs),
    medianNs: Math.round(quantile(0.5)),
    p99Ns: Math.round(quantile(0.99)),
  };
}

/** Measure every decoder on V3 and V11 reports; one row per decoder and version. */
export async function benchDecode(options: DecodeBenchOptions = {}): Promise<DecodeBenchResult[]> {
  const durationMs = options.durationMs ?? 1000;
  const warmupMs = options.warmupMs ?? 300;
  const rows: DecodeBenchResult[] = [];
  for (const version of ['V3', 'V11'] as const) {
    const samples = makeSamples(version);
    for (const [name, decode, engine] of decoders(version)) {
      // Let timers and I/O run between rows.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (engine !== undefined && useScanEngine(engine) !== engine) throw new Error(`the ${engine} scan is not available here`);
      rows.push(measure(name, decode, samples, durationMs, warmupMs));
      if (engine === 'js') useScanEngine('wasm'); // back to the default for the rows after
    }
  }
  if (sink === 0) throw new Error('benchmark decoded nothing');
  return rows;
}
