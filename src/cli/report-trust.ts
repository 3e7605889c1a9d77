/**
 * `--trust <json|@file|@->`: the oracle network configurations reports are
 * verified against (a `ReportTrust`, as `service-sdk sandbox --json` prints
 * it under `reportTrust`), read and checked before anything is sent. And the
 * pairing with `--verify` on `streams latest` and `streams watch`.
 */
import { ConfigurationError } from '../core/errors.js';
import type { ReportTrust } from '../reports/verify-types.js';
import { isSet, lastValue, type ParsedArgs } from './argv.js';
import { readJsonArgument } from './body.js';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';

/**
 * The trust `--trust` gives, checked whole.
 *
 * @throws {CliUsageError} naming `--trust` when it is missing, unreadable, not JSON, or not a trust.
 */
export async function readTrustFlag(args: ParsedArgs, io: CliIo): Promise<ReportTrust> {
  const spec = lastValue(args, 'trust');
  if (spec === undefined) throw new CliUsageError('missing --trust: the configurations to verify against (JSON, @file or @-; the sandbox prints its reportTrust)');
  const trust = await readJsonArgument('--trust', spec, io);
  // The trust's own checks, without the verifier: its secp256k1 loads only when a report is verified.
  const { checkReportTrust } = await import('../reports/verify-config.js');
  try {
    return checkReportTrust(trust, 'trust');
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    // Said with the part of the trust that is wrong (`[0x0006…].f`), in the flag's name.
    const part = error.option.replace(/^trust/, '');
    throw new CliUsageError(`--trust: ${part ? `${part}: ` : ''}${error.message.replace(/^Invalid option `[^`]*`: /, '')}`);
  }
}

/** With `--verify`, the trust `--trust` gives; without, undefined (and `--trust` alone is refused). */
export async function verifyOption(args: ParsedArgs, io: CliIo): Promise<ReportTrust | undefined> {
  if (!isSet(args, 'verify')) {
    if (lastValue(args, 'trust') !== undefined) throw new CliUsageError('--trust: only with --verify');
    return undefined;
  }
  if (lastValue(args, 'trust') === undefined) throw new CliUsageError('--verify: give --trust with the configurations to verify against (JSON, @file or @-)');
  return readTrustFlag(args, io);
}
