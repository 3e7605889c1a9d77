import type { OtelCounter, OtelHistogram, OtelMeter } from '../../core/telemetry/otel-api.js';
import type { ReportStreamEvent } from './options.js';

/** The attribute that says why a report was skipped: the `problem` of its `message-skipped` event. */
export const SKIP_REASON = 'service_sdk.stream.skip_reason';
/** The attribute that names the origin a reconnect is for (a handful per host: `maxOrigins`). */
export const ORIGIN = 'service_sdk.stream.origin';

/** Bucket bounds of the lag histogram, in seconds: reports are dated to the second, and a healthy stream delivers within a few. */
const LAG_BUCKETS_S = [0.25, 0.5, 1, 2, 3, 5, 10, 30, 60, 300];

/**
 * The stream's health as OpenTelemetry metrics, on the `meter` the user
 * passes (`streamReports(…, { meter })`): the stream reads every count from
 * the same status events as `onStatus` and `stats`, so the three agree.
 * Only with a meter is any of this created or called.
 */
export class StreamMetrics {
  private readonly delivered: OtelCounter;
  private readonly skipped: OtelCounter;
  private readonly unverified: OtelCounter;
  private readonly gapsFilled: OtelCounter;
  private readonly gapsUnfilled: OtelCounter;
  private readonly reconnects: OtelCounter;
  private readonly lag: OtelHistogram;

  constructor(meter: OtelMeter) {
    const counter = (name: string, unit: string, description: string) => meter.createCounter(`service_sdk.stream.${name}`, { description, unit });
    this.delivered = counter('reports.delivered', '{report}', 'Reports handed to the consumer, live and backfilled.');
    this.skipped = counter('reports.skipped', '{report}', `Messages and reports not delivered, by ${SKIP_REASON}.`);
    this.unverified = counter('reports.unverified', '{report}', 'Reports refused by verify: their signatures failed, or they could not be checked.');
    this.gapsFilled = counter('gaps.filled', '{gap}', 'Gaps after a reconnect filled from the REST API, per stream.');
    this.gapsUnfilled = counter('gaps.unfilled', '{gap}', 'Gaps whose backfill failed: reports may be missing.');
    this.reconnects = counter('reconnects', '{reconnect}', `Attempts to reopen a lost connection, by ${ORIGIN}.`);
    this.lag = meter.createHistogram('service_sdk.stream.delivery.lag', {
      description: 'Time from a report\'s observation to its delivery to the consumer.',
      unit: 's',
      advice: { explicitBucketBoundaries: LAG_BUCKETS_S },
    });
  }

  /** A status event, as `onStatus` gets it. */
  event(event: ReportStreamEvent): void {
    switch (event.type) {
      case 'message-skipped':
        this.skipped.add(1, { [SKIP_REASON]: event.error.problem });
        if (event.error.problem === 'unverified') this.unverified.add(1);
        break;
      case 'gap-filled':
        this.gapsFilled.add(1);
        break;
      case 'gap-unfilled':
        this.gapsUnfilled.add(1);
        break;
      case 'reconnecting':
        this.reconnects.add(1, { [ORIGIN]: event.origin });
        break;
    }
  }

  /** A report handed to the consumer at `nowMs`, observed at `observationsTimestamp` (Unix seconds). */
  deliveredAt(observationsTimestamp: number, nowMs: number): void {
    try {
      this.delivered.add(1);
      this.lag.record(Math.max(0, nowMs / 1000 - observationsTimestamp));
    } catch {
      // A meter's failure must not break the stream.
    }
  }
}
