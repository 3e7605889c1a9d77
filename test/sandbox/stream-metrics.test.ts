// The live stream's health as OpenTelemetry metrics: `streamReports(…, { meter })`
// on a meter of sdk-metrics (an in-memory exporter, read on demand) against a
// frozen sandbox (`pace: 0`, moved by `advance()`), in process: a forged report
// refused by `verify`, both origins dropped and restored (reconnects and a gap
// filled from REST), then dropped again while the REST reports fail (a gap
// left unfilled). Every figure is checked against the stream's own events and
// stats, and the lag against the sandbox's clock at each delivery.
import * as otel from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type HistogramMetricData,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { ConfigurationError, createStreamsClient, streamReports, type Report, type ReportStreamEvent } from '../../src/streams/index.js';
import { refuseNonLoopback, type RefusedNetwork } from '../support/refuse-network.js';
import { readmeClaim } from '../support/readme-claim.js';
import { FAST, waitFor } from '../support/report-stream.js';
import { STREAM_WAIT_MS, streamFromSandbox } from '../support/sandbox-stream.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';

let sandbox: Sandbox;
let network: RefusedNetwork;
let provider: MeterProvider;
let exporter: InMemoryMetricExporter;
let reader: PeriodicExportingMetricReader;

beforeEach(() => {
  network = refuseNonLoopback();
  sandbox = createSandbox({ pace: 0 });
  exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  provider = new MeterProvider({ readers: [reader] });
});

afterEach(async () => {
  sandbox.close();
  await provider.shutdown();
  network.restore();
  expect(network.attempts).toEqual([]);
});

/** The metrics exported now, by name. */
async function readMetrics(): Promise<Map<string, MetricData>> {
  await reader.forceFlush();
  const metrics = exporter.getMetrics().at(-1)?.scopeMetrics.flatMap((scope) => scope.metrics) ?? [];
  return new Map(metrics.map((metric) => [metric.descriptor.name, metric]));
}

/** A counter's value, for the data point whose attributes include `attributes`; 0 when it has none. */
function counted(metrics: Map<string, MetricData>, name: string, attributes: Record<string, string> = {}): number {
  const points = (metrics.get(name)?.dataPoints ?? []) as { attributes: otel.Attributes; value: number }[];
  return points.filter((point) => Object.entries(attributes).every(([key, value]) => point.attributes[key] === value)).reduce((sum, point) => sum + point.value, 0);
}

describe(readmeClaim('Given a `meter`, `streamReports` reports as metrics what `stats` and `onStatus` report'), () => {
  it('reports delivered, skipped by reason, unverified, gaps filled and unfilled, reconnects and the delivery lag as metrics', async () => {
    const client = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch, retry: false });
    const events: ReportStreamEvent[] = [];
    const count = (type: ReportStreamEvent['type']) => events.filter((event) => event.type === type).length;
    const meter = provider.getMeter('stream-metrics-test');
    const stream = streamReports(client, [ETH_USD], { verify: sandbox.reportTrust, meter, onStatus: (event) => events.push(event), ...FAST });
    const received: Report[] = [];
    /** The lag of each delivery, in s, by the sandbox's clock when the report reached the loop. */
    const lags: number[] = [];
    const done = (async () => {
      for await (const report of stream) {
        received.push(report);
        lags.push(sandbox.clock.now() / 1000 - report.observationsTimestamp);
      }
    })();
    const dropBoth = async () => {
      const lost = count('origin-lost');
      sandbox.streamOrigins.drop('001');
      sandbox.streamOrigins.drop('002');
      await waitFor(() => count('origin-lost') === lost + 2, 'both origins lost', STREAM_WAIT_MS);
      await waitFor(() => count('reconnecting') >= 2, 'reconnect attempts', STREAM_WAIT_MS);
    };
    try {
      await waitFor(() => count('connected') === 2, 'both origins to connect', STREAM_WAIT_MS);
      // A forged report: refused by verify, skipped as unverified.
      sandbox.inject({ reports: 'stranger' });
      sandbox.advance(1_000);
      await waitFor(() => stream.stats.unverified === 1, 'the forged report refused', STREAM_WAIT_MS);
      sandbox.advance(1_000);
      await waitFor(() => received.length === 1, 'a genuine report', STREAM_WAIT_MS);

      // Both origins lost while three seconds pass: reconnected, the gap filled from REST.
      await dropBoth();
      sandbox.advance(3_000);
      const connected = count('connected');
      sandbox.streamOrigins.restore('001');
      sandbox.streamOrigins.restore('002');
      await waitFor(() => count('gap-filled') > 0 && count('connected') >= connected + 2, 'the gap filled', STREAM_WAIT_MS);
      await waitFor(() => received.length >= 4, 'the backfilled reports', STREAM_WAIT_MS);

      // Lost again while the REST reports fail: the gap stays unfilled.
      await dropBoth();
      sandbox.inject({ route: 'getReportsPage', status: 500, times: Number.POSITIVE_INFINITY });
      sandbox.advance(2_000);
      sandbox.streamOrigins.restore('001');
      sandbox.streamOrigins.restore('002');
      await waitFor(() => count('gap-unfilled') > 0, 'the gap left unfilled', STREAM_WAIT_MS);
    } finally {
      await stream.close();
      await done;
    }

    const metrics = await readMetrics();
    expect(counted(metrics, 'service_sdk.stream.reports.delivered')).toBe(received.length);
    expect(counted(metrics, 'service_sdk.stream.reports.skipped', { 'service_sdk.stream.skip_reason': 'unverified' })).toBe(1);
    expect(counted(metrics, 'service_sdk.stream.reports.skipped')).toBe(stream.stats.skipped);
    expect(counted(metrics, 'service_sdk.stream.reports.unverified')).toBe(1);
    expect(counted(metrics, 'service_sdk.stream.gaps.filled')).toBe(count('gap-filled'));
    expect(counted(metrics, 'service_sdk.stream.gaps.unfilled')).toBe(count('gap-unfilled'));
    expect(count('gap-unfilled')).toBeGreaterThan(0);
    expect(counted(metrics, 'service_sdk.stream.reconnects')).toBe(count('reconnecting'));
    for (const origin of ['001', '002']) {
      const reconnecting = events.filter((event) => event.type === 'reconnecting' && event.origin === origin).length;
      expect(reconnecting).toBeGreaterThan(0);
      expect(counted(metrics, 'service_sdk.stream.reconnects', { 'service_sdk.stream.origin': origin })).toBe(reconnecting);
    }

    const lag = metrics.get('service_sdk.stream.delivery.lag') as HistogramMetricData;
    expect(lag.descriptor.unit).toBe('s');
    const [point] = lag.dataPoints;
    expect(point!.value.count).toBe(received.length);
    expect(point!.value.sum).toBeCloseTo(lags.reduce((sum, value) => sum + value, 0), 6);
    expect(point!.value.max).toBeCloseTo(Math.max(...lags), 6);
    // The backfilled reports came seconds after their observation.
    expect(Math.max(...lags)).toBeGreaterThanOrEqual(2);
  });

  it('goes on delivering when the meter throws', async () => {
    const client = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch });
    const broken = () => {
      throw new Error('the meter is broken');
    };
    const meter = { createCounter: () => ({ add: broken }), createHistogram: () => ({ record: broken }) };
    sandbox.inject({ reports: 'stranger' });
    const { received, events } = await streamFromSandbox(sandbox, client, [ETH_USD], 2, { verify: sandbox.reportTrust, meter });
    expect(received.length).toBeGreaterThanOrEqual(2);
    expect(events.filter((event) => event.type === 'message-skipped')).toHaveLength(1);
  });

  it('refuses a meter that is not one with a ConfigurationError naming it', async () => {
    const client = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch });
    let error: unknown;
    try {
      streamReports(client, [ETH_USD], { meter: { createCounter: () => ({ add() {} }) } as never });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).option).toBe('meter');
  });
});
