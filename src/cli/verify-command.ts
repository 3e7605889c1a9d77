/**
 * `service-sdk streams verify <fullReport|@file|@-> --trust <json|@file|@->`:
 * one report's signatures checked against the trust as the on-chain verifier
 * would, offline. The verification is printed as JSON on stdout; exit 0 when
 * valid, 1 when not (a malformed report included), 2 for bad usage.
 */
import { parseArgs, isSet } from './argv.js';
import { readArgumentText } from './body.js';
import { CliUsageError, EXIT } from './errors.js';
import { optionsHelp, streamsFlowFlagNames, streamsFlowFlags } from './flags.js';
import type { CliIo } from './io.js';
import { printResult } from './output.js';
import { readTrustFlag } from './report-trust.js';

const VERIFY_HELP = `usage: service-sdk streams verify <fullReport|@file|@-> --trust <json|@file|@->

Checks a report's signatures against the oracle network configurations of
--trust (digest → { f, signers }, as the verifier contract emitted them, or
the sandbox's reportTrust), as the on-chain verifier would. The report is its
fullReport hex, or a report as streams latest prints it (an array of one). Prints
{ valid, configDigest, signers } or { valid: false, reason, message };
exit 0 when valid, 1 when not.

${optionsHelp(streamsFlowFlagNames('verify'))}
`;

/** The fullReport in `text`: the hex itself, or the `fullReport` of a report object, alone or as the one item of `streams latest`'s array. */
function fullReportOf(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return trimmed;
  try {
    const parsed = JSON.parse(trimmed) as unknown;
    const report = (Array.isArray(parsed) && parsed.length === 1 ? parsed[0] : parsed) as { fullReport?: unknown } | null;
    if (typeof report?.fullReport === 'string') return report.fullReport;
  } catch {
    // Not JSON after all: verified as given, and refused as malformed.
  }
  return trimmed;
}

/** Runs `streams verify`; returns its exit code. */
export async function runVerify(rest: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(rest, streamsFlowFlags('verify'));
  if (isSet(args, 'help')) {
    io.stdout.write(VERIFY_HELP);
    return EXIT.ok;
  }
  if (args.positionals.length !== 1) {
    throw new CliUsageError(`streams verify: expected one report (its fullReport hex, @file or @-), got ${args.positionals.length}`, VERIFY_HELP);
  }
  if (args.positionals[0] === '@-' && args.flags.get('trust')?.at(-1) === '@-') throw new CliUsageError('streams verify: the report and --trust cannot both be read from stdin (@-)');
  const trust = await readTrustFlag(args, io);
  const { text } = await readArgumentText('report', args.positionals[0]!, io);
  const { verifyReport } = await import('../reports/verify.js');
  const verification = verifyReport(fullReportOf(text), trust);
  await printResult(io.stdout, verification, 'json');
  return verification.valid ? EXIT.ok : EXIT.apiError;
}
