import type { Spread } from './harness.js';

/** One line of the results: a timing (per operation), or a single value (bytes, seconds, MB). */
export interface Row {
  /** The bench it belongs to, e.g. `1 client overhead`. */
  bench: string;
  name: string;
  /** Timing rows: per operation, ns. */
  medianNs?: number;
  p99Ns?: number;
  opsPerSec?: number;
  /** Unit of `opsPerSec` when not operations (e.g. `items/s`, `sig/s`). */
  opsUnit?: string;
  /** Value rows: the figure and its unit (`B`, `kB`, `MB`, `ms`, `s`, `req`). */
  value?: number;
  unit?: string;
  /** Name of the row this one is compared with, and the median of the per-round `time / baseline time`. */
  baseline?: string;
  ratio?: number;
  /** The per-round ratios behind `ratio`: quartiles, range, rounds. */
  ratioSpread?: Spread;
  /** The goal, as text, and whether it was met (`undefined`: informational; `'undecided'`: the spread straddles it). */
  goal?: string;
  pass?: boolean | 'undecided';
  /** The result cell when `pass` alone does not say it (e.g. "undecided: spread 21–67×"). */
  result?: string;
  /** Short remark: the measured delta, a speed-up, the request count. */
  note?: string;
}

export function formatNs(ns: number | undefined): string {
  if (ns === undefined || !Number.isFinite(ns)) return '';
  if (ns < 1_000) return `${ns.toFixed(0)} ns`;
  if (ns < 1_000_000) return `${(ns / 1_000).toFixed(ns < 10_000 ? 2 : 1)} µs`;
  if (ns < 1_000_000_000) return `${(ns / 1_000_000).toFixed(ns < 10_000_000 ? 2 : 1)} ms`;
  return `${(ns / 1_000_000_000).toFixed(2)} s`;
}

export function formatCount(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '';
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)} k`;
  return n >= 100 ? n.toFixed(0) : n.toPrecision(3);
}

function formatValue(row: Row): string {
  if (row.value === undefined) return '';
  const v = row.value;
  const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return `${v.toFixed(digits)} ${row.unit ?? ''}`.trim();
}

export function formatRatio(ratio: number | undefined): string {
  if (ratio === undefined || !Number.isFinite(ratio)) return '';
  return ratio < 0.1 ? `${ratio.toFixed(4)}` : ratio.toFixed(3);
}

/** A ratio's spread: interquartile range, then min–max, then rounds. */
export function formatSpread(s: Spread | undefined): string {
  if (s === undefined) return '';
  const r = (x: number): string => formatRatio(x);
  return `${r(s.q1)}–${r(s.q3)} (${r(s.min)}–${r(s.max)}), ${s.rounds}`;
}

export const COLUMNS = ['bench', 'name', 'median', 'p99', 'ops/s', 'ratio', 'ratio IQR (min–max), rounds', 'goal', 'result', 'note'] as const;

export function cells(row: Row): string[] {
  const ops = row.opsPerSec === undefined ? '' : `${formatCount(row.opsPerSec)}${row.opsUnit ? ` ${row.opsUnit}` : ''}`;
  return [
    row.bench,
    row.name,
    row.value !== undefined ? formatValue(row) : formatNs(row.medianNs),
    formatNs(row.p99Ns),
    ops,
    formatRatio(row.ratio),
    formatSpread(row.ratioSpread),
    row.goal ?? '',
    row.result ?? (row.pass === undefined ? '' : row.pass === true ? 'pass' : row.pass === false ? 'MISS' : 'undecided'),
    row.note ?? '',
  ];
}

/** A plain-text table for the terminal. */
export function renderTable(rows: readonly Row[]): string {
  const body = rows.map(cells);
  const header: string[] = [...COLUMNS];
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const numeric = new Set([2, 3, 4, 5]);
  const line = (r: readonly string[]): string =>
    r.map((c, i) => (numeric.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  ')];
  let previous: string | undefined;
  for (let i = 0; i < body.length; i++) {
    const bench = rows[i]?.bench;
    if (previous !== undefined && bench !== previous) out.push('');
    previous = bench;
    out.push(line(body[i] as string[]));
  }
  return out.join('\n');
}

/** The same table as Markdown (for bench/README.md). */
export function renderMarkdown(rows: readonly Row[]): string {
  const escape = (s: string): string => s.replace(/\|/g, '\\|');
  const out = [`| ${COLUMNS.join(' | ')} |`, `|${COLUMNS.map((_, i) => (i >= 2 && i <= 5 ? '---:' : '---')).join('|')}|`];
  for (const row of rows) out.push(`| ${cells(row).map(escape).join(' | ')} |`);
  return out.join('\n');
}

export function printTable(rows: readonly Row[]): void {
  console.log(renderTable(rows));
}
