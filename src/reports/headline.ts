/**
 * The values a reader looks at first in a decoded report, by name and in
 * human units, whatever the schema version: a V3 report calls its value
 * `price`, a V8 `midPrice`, a V9 `navPerShare`, a V13 `bestBid`.
 */
import { SdkError } from '../core/sdk-error.js';
import { quoteInput } from './decode-error.js';
import type { DecodedReport, DecodedReportOf } from './decoded.js';
import { formatScaled } from './format.js';
import type { ReportVersion } from './layouts.js';

/** The keys of `T` whose values are bigints (the only fields that are scaled). */
type BigintField<T> = { [K in keyof T]: T[K] extends bigint ? K : never }[keyof T];

/**
 * The headline fields of each schema version, the main one first. Every one
 * is an `int192` fixed-point number; the scale is not in the report.
 *
 * | Version | Headline values | Scale |
 * | --- | --- | --- |
 * | V2 | `price` | 18 decimals unless the stream says otherwise: not fixed by the schema |
 * | V3 | `price`, `bid`, `ask` | 18 decimals: crypto prices are 18-decimal fixed point |
 * | V4 | `price` | 18 unless the stream says otherwise: not fixed by the schema |
 * | V5 | `rate` | 18 unless the stream says otherwise: not fixed by the schema |
 * | V6 | `price`, `price2`, `price3`, `price4`, `price5` | 18 unless the stream says otherwise: not fixed by the schema |
 * | V7 | `exchangeRate` | 18 unless the stream says otherwise: not fixed by the schema |
 * | V8 | `midPrice` | 18 unless the stream says otherwise: not fixed by the schema |
 * | V9 | `navPerShare`, `aum` | 18 unless the stream says otherwise: not fixed by the schema |
 * | V10 | `price`, `tokenizedPrice` | 18 unless the stream says otherwise: not fixed by the schema |
 * | V11 | `mid`, `bid`, `ask`, `lastTradedPrice` | 18 unless the stream says otherwise: not fixed by the schema |
 * | V12 | `navPerShare`, `nextNavPerShare` | 18 unless the stream says otherwise: not fixed by the schema |
 * | V13 | `bestBid`, `bestAsk`, `lastTradedPrice` | 18 unless the stream says otherwise: not fixed by the schema |
 *
 * Left out as not headline values: fees, times, `marketStatus`, `ripcord`,
 * V10's multipliers, V11's and V13's volumes.
 */
export const HEADLINE_FIELDS = {
  V2: ['price'],
  V3: ['price', 'bid', 'ask'],
  V4: ['price'],
  V5: ['rate'],
  V6: ['price', 'price2', 'price3', 'price4', 'price5'],
  V7: ['exchangeRate'],
  V8: ['midPrice'],
  V9: ['navPerShare', 'aum'],
  V10: ['price', 'tokenizedPrice'],
  V11: ['mid', 'bid', 'ask', 'lastTradedPrice'],
  V12: ['navPerShare', 'nextNavPerShare'],
  V13: ['bestBid', 'bestAsk', 'lastTradedPrice'],
} as const satisfies { readonly [V in ReportVersion]: readonly BigintField<DecodedReportOf<V>>[] };

/** The scale `headlineValues` assumes when not told another: 18 decimals. */
export const DEFAULT_HEADLINE_DECIMALS = 18;

/** A headline field's name in a report of version `V`, e.g. `'price' | 'bid' | 'ask'` for V3. */
export type HeadlineName<V extends ReportVersion> = (typeof HEADLINE_FIELDS)[V][number];

/** One headline value of a report. */
export interface HeadlineValue<N extends string = string> {
  /** The decoded report's field it comes from, e.g. `'midPrice'`. */
  readonly name: N;
  /** The value in human units as an exact decimal string: `raw / 10^decimals`, e.g. `'3000.1234'`. */
  readonly value: string;
  /** The field's integer as decoded. */
  readonly raw: bigint;
  /** The scale applied to `raw`. */
  readonly decimals: number;
}

/** The headline values of a report type: one or more, the main one first. */
export type HeadlineValues<R extends DecodedReport> = R extends DecodedReport
  ? readonly [HeadlineValue<HeadlineName<R['version']>>, ...HeadlineValue<HeadlineName<R['version']>>[]]
  : never;

/** Options of `headlineValues`. */
export interface HeadlineOptions {
  /**
   * Decimal places of the stream's values (default 18). The report does not
   * carry its scale: where a stream's documentation gives another (8 for
   * some streams), pass it here.
   */
  readonly decimals?: number;
}

/** `headlineValues` was given something it cannot read: `field` names the argument or field at fault. */
export class ReportValueError extends SdkError {
  override readonly name = 'ReportValueError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

/**
 * A decoded report's headline values, by name, scaled to human units, for
 * every schema version (see {@link HEADLINE_FIELDS} for each version's names
 * and scale). The first is the version's main value:
 *
 * ```ts
 * const [main] = headlineValues(decodeReport(report.fullReport));
 * console.log(`${main.name} ${main.value}`); // "price 3000.1234" for a V3 report
 * ```
 *
 * @throws {ReportValueError} when `report` is not a decoded report (e.g. a
 *   REST report whose `fullReport` was not decoded) or `decimals` is not a
 *   non-negative integer.
 */
export function headlineValues<R extends DecodedReport>(report: R, options: HeadlineOptions = {}): HeadlineValues<R> {
  const decimals = options.decimals ?? DEFAULT_HEADLINE_DECIMALS;
  if (!Number.isSafeInteger(decimals) || decimals < 0) {
    const shown = typeof decimals === 'number' ? String(decimals) : quoteInput(decimals);
    throw new ReportValueError('decimals', `must be a non-negative integer (the stream's decimal places), got ${shown}`);
  }
  const names = headlineNamesOf(report);
  const fields = report as unknown as Readonly<Record<string, unknown>>;
  const values = names.map((name): HeadlineValue => {
    const raw = fields[name];
    if (typeof raw !== 'bigint') {
      const found = raw === undefined ? 'it is missing' : `got ${quoteInput(raw)}`;
      throw new ReportValueError(name, `must be a bigint in a ${report.version} report, but ${found}`);
    }
    return { name, value: formatScaled(raw, decimals), raw, decimals };
  });
  return values as unknown as HeadlineValues<R>;
}

/** The version's headline names, or the error saying why `report` is not a decoded report. */
function headlineNamesOf(report: unknown): readonly string[] {
  if (typeof report !== 'object' || report === null) {
    throw new ReportValueError('report', `expected a decoded report (from decodeReport), got ${quoteInput(report)}`);
  }
  const { version } = report as { version?: unknown };
  if (typeof version === 'string' && Object.hasOwn(HEADLINE_FIELDS, version)) {
    return HEADLINE_FIELDS[version as ReportVersion];
  }
  if ('fullReport' in report) {
    throw new ReportValueError('report', 'a report as the API returns it: decode its fullReport first (decodeReport, or the decode option)');
  }
  throw new ReportValueError('report.version', `${quoteInput(version)} is not a schema version (V2 to V13)`);
}
