/**
 * A decoded report in human units, for `streams latest --decode` and
 * `streams watch`: prices and fees as exact decimal strings (18 decimals, the
 * crypto streams' scale), times as ISO 8601, signatures left out.
 */
import { formatScaled } from '../streams/index.js';
import { epochToIso, isTimeField } from './times.js';

const LEFT_OUT = new Set(['feedId', 'version', 'reportContext', 'rawRs', 'rawSs', 'rawVs']);

export function inHumanUnits(report: { feedID: string; decoded: object }): Record<string, unknown> {
  const decoded = report.decoded as Record<string, unknown>;
  const out: Record<string, unknown> = { feedID: report.feedID, version: decoded.version };
  for (const [key, value] of Object.entries(decoded)) {
    if (LEFT_OUT.has(key)) continue;
    if (typeof value === 'bigint') out[key] = formatScaled(value, 18);
    else if (isTimeField(key) && epochToIso(value) !== undefined) out[key] = epochToIso(value);
    else out[key] = value;
  }
  return out;
}
