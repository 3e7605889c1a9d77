import { loadVerifier, type ReportVerifier } from '../../reports/verify-lazy.js';
import type { ReportTrust, ReportVerification } from '../../reports/verify-types.js';
import type { Report } from '../reports.js';
import { ReportStreamMessageError } from './errors.js';
import type { StreamStatus } from './stats.js';

/** Outcomes kept for copies arriving after a verification: copies come within moments of each other. */
const REMEMBERED = 256;
/** Longest a verification run holds the event loop, in ms, before sockets are read again. */
const RUN_BUDGET_MS = 2;

/** Runs `task` after pending I/O: `setImmediate` where there is one (Node, Bun, Deno), a zero timeout elsewhere. */
const afterIo: (task: () => void) => void =
  typeof globalThis.setImmediate === 'function' ? (task) => void globalThis.setImmediate(task) : (task) => void setTimeout(task, 0);

interface Waiting {
  report: Report;
  source: string;
  settle: (valid: boolean) => void;
}

/**
 * The stream's `verify` option: each distinct report's signatures checked
 * once (`verifyReport`) against the trust, off the path that reads the
 * sockets. A report waits in a queue that is worked through in runs of at
 * most {@link RUN_BUDGET_MS} after pending I/O, so a burst of reports does
 * not stall the connections (their pings, their other messages). A copy of
 * a report already verified or being verified is not verified again; one
 * that fails is skipped as `unverified`, with the verification's reason.
 *
 * The verifier (libsecp256k1) is imported when the stream starts with
 * `verify`, not with the SDK: reports arriving before it has loaded wait in
 * the queue like any other. When it does not load (a chunk the app's server
 * no longer serves), the reports waiting are refused as
 * `verifier_unavailable`, and the next report tries the load again.
 */
export class StreamVerification {
  /** Recent outcomes by `fullReport`: true, or the refusal. */
  private readonly outcomes = new Map<string, boolean>();
  private readonly waiting: Waiting[] = [];
  private readonly inQueue = new Set<string>();
  private scheduled = false;
  private stopped = false;
  /** `verifyReport` once its module has loaded. */
  private verifier: ReportVerifier | undefined;
  /** A load of the verifier is under way: runs wait for it. */
  private loading = false;
  /** Why the last load failed: the reports waiting for it are refused with it. */
  private loadFailure: string | undefined;

  constructor(
    private readonly trust: ReportTrust,
    private readonly status: StreamStatus,
    /** Most reports waiting for verification; more are skipped (a flood must not grow memory without bound). */
    private readonly maxWaiting: number,
  ) {
    this.load();
  }

  /** Imports the verifier unless it is loaded or loading; then works through the reports waiting. */
  private load(): void {
    if (this.verifier !== undefined || this.loading) return;
    this.loading = true;
    loadVerifier().then(
      (verifier) => {
        this.verifier = verifier;
        this.loadFailure = undefined;
      },
      (error: unknown) => (this.loadFailure = error instanceof Error ? error.message : String(error)),
    ).finally(() => {
      this.loading = false;
      this.schedule();
    });
  }

  /**
   * Whether `report` is verified: `true` or `false` when known now, else a
   * promise of it. `false` at once for a copy of a report refused or being
   * verified (counted as a duplicate: the first copy's outcome decides).
   */
  verified(report: Report, source: string): boolean | Promise<boolean> {
    const known = this.outcomes.get(report.fullReport);
    if (known === true) return true;
    if (known === false || this.inQueue.has(report.fullReport)) {
      this.status.counts.duplicates++;
      return false;
    }
    if (this.waiting.length >= this.maxWaiting) {
      this.refuse(source, `verification backlog full (${this.maxWaiting} reports waiting); a report of ${report.feedID} at ${report.observationsTimestamp} was not verified`);
      return false;
    }
    this.inQueue.add(report.fullReport);
    const verdict = new Promise<boolean>((settle) => this.waiting.push({ report, source, settle }));
    this.load(); // after a failed load, each new report tries again
    this.schedule();
    return verdict;
  }

  /** The stream ended: nothing waiting is verified or delivered. */
  stop(): void {
    this.stopped = true;
    for (const { settle } of this.waiting.splice(0)) settle(false);
    this.inQueue.clear();
  }

  private schedule(): void {
    if (this.scheduled || this.stopped || this.loading || this.waiting.length === 0) return;
    this.scheduled = true;
    afterIo(() => this.run());
  }

  /** Verifies waiting reports for at most RUN_BUDGET_MS, then yields to I/O and goes on. */
  private run(): void {
    this.scheduled = false;
    const end = performance.now() + RUN_BUDGET_MS;
    while (!this.stopped && this.waiting.length > 0 && performance.now() < end) {
      const { report, source, settle } = this.waiting.shift()!;
      this.status.counts.checked++;
      const result = this.verify(report.fullReport);
      if (result.valid) this.status.counts.verified++;
      this.remember(report.fullReport, result.valid);
      this.inQueue.delete(report.fullReport);
      if (!result.valid) this.refuse(source, `a report of ${report.feedID} at ${report.observationsTimestamp}: ${result.reason}: ${result.message}`);
      settle(result.valid);
    }
    if (this.waiting.length > 0) this.schedule();
  }

  /** The verification of one report; a refusal naming the cause when the verifier could not be loaded. */
  private verify(fullReport: string): ReportVerification {
    if (this.verifier === undefined) return { valid: false, reason: 'verifier_unavailable', message: this.loadFailure ?? 'the verifier is not loaded' };
    return this.verifier(fullReport, this.trust);
  }

  private remember(fullReport: string, valid: boolean): void {
    if (this.outcomes.size >= REMEMBERED) this.outcomes.delete(this.outcomes.keys().next().value!);
    this.outcomes.set(fullReport, valid);
  }

  private refuse(source: string, detail: string): void {
    this.status.counts.unverified++;
    this.status.skip(new ReportStreamMessageError('unverified', source, detail));
  }
}
