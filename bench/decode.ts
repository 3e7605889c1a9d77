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
 * version. `medianNs` and `p99Ns` are per report, over batches of reports;
 * the decoders of a version run in interleaved rounds, so rows compare round
 * by round (`perRound`).
 */
import { decodeReport as vendorDecodeReport } from '@chainlink/data-streams-sdk';
import { AbiCoder } from 'ethers';
import { decodeAbiParameters, encodeAbiParameters, type Hex } from 'viem';

import { decodeReport } from '../src/reports/decode.js';
import { cpuClock, quantileOf, runRounds, type Workload } from './harness.js';
import { useScanEngine } from '../src/reports/scan.js';
import { FULL_REPORT_ABI, REPORT_SCHEMAS, reportBlobAbi, type ReportVersion } from '../src/reports/layouts.js';

export interface DecodeBenchResult {
  name: string;
  opsPerSec: number;
  medianNs: number;
  p99Ns: number;
  /** Per round, the median ns per report: rows compared with each other pair these round by round. */
  perRound: number[];
}

export interface DecodeBenchOptions {
  /** Interleaved rounds per version (default 60). */
  rounds?: number;
  /** CPU time of one decoder's turn in a round, ms (default 10), in batches of ≥ 1 ms. */
  turnMs?: number;
  /** Warm-up time per decoder, ms (default 300). */
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

/** A decoder as a harness workload: `count` reports, cycling through the version's samples. */
function workload(name: string, decode: Decoder, samples: Sample[], engine: 'wasm' | 'js' | undefined): Workload {
  let next = 0;
  return {
    name,
    run: (count: number): void => {
      for (let i = 0; i < count; i++) {
        const result = decode(samples[next] as Sample);
        next = (next + 1) % SAMPLES_PER_VERSION;
        if (result !== undefined) sink++;
      }
    },
    // Ours is measured with each scan engine: the engine is selected before each of its turns.
    enter: () => {
      const want = engine ?? 'wasm';
      if (useScanEngine(want) !== want) throw new Error(`the ${want} scan is not available here`);
    },
  };
}

/**
 * Every decoder of a version in interleaved rounds (harness.ts): one process,
 * the same warm-up, a GC before each turn, the turn order alternating; one row
 * per decoder and version.
 */
export async function benchDecode(options: DecodeBenchOptions = {}): Promise<DecodeBenchResult[]> {
  const rows: DecodeBenchResult[] = [];
  for (const version of ['V3', 'V11'] as const) {
    const samples = makeSamples(version);
    const workloads = decoders(version).map(([name, decode, engine]) => workload(name, decode, samples, engine));
    const results = await runRounds(workloads, {
      rounds: options.rounds ?? 60,
      turnNs: (options.turnMs ?? 10) * 1e6,
      samplesPerRound: 5, // the slow generic decoders (~0.3 ms a report): a median of at least 5 per turn
      warmup: SAMPLES_PER_VERSION,
      warmupNs: (options.warmupMs ?? 300) * 1e6,
      // CPU time, not wall time: on a shared machine, time spent descheduled would otherwise
      // land on whichever decoder was running (the ratios swung 3× from run to run).
      now: cpuClock,
      minBatchNs: 1_000_000,
    });
    for (const r of results) {
      const sorted = [...r.samples].sort((a, b) => a - b);
      rows.push({
        name: r.name,
        opsPerSec: Math.round((r.ops * 1e9) / r.ns),
        medianNs: Math.round(quantileOf(sorted, 0.5)),
        p99Ns: Math.round(quantileOf(sorted, 0.99)),
        perRound: r.perRound,
      });
    }
  }
  useScanEngine('wasm'); // the default, for whatever runs after
  if (sink === 0) throw new Error('benchmark decoded nothing');
  return rows;
}
