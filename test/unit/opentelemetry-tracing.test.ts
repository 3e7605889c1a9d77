// Each attempt of a call is an OpenTelemetry client span, as the HTTP client
// semantic conventions describe, and its trace context goes to the service:
// the observer from `openTelemetryObserver(otel)` in a channels client's
// `observers`, against the sandbox with two injected 503s (retried by the
// client); spans are read back from sdk-trace-base's in-memory exporter.
import * as otel from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError, createChannelsClient, openTelemetryObserver } from '../../src/channels/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { readmeClaim } from '../support/readme-claim.js';

const WALLET = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;
let sandbox: Sandbox;

beforeAll(() => {
  otel.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => {
  otel.propagation.disable();
});
beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  sandbox = createSandbox({ pace: 0 });
});
afterEach(async () => {
  sandbox.close();
  await provider.shutdown();
});

/** A channels client whose attempts `openTelemetryObserver` sees, retrying at once; `sent` records the headers of each request that left. */
function tracedChannels() {
  const sent: Headers[] = [];
  const observer = openTelemetryObserver(otel, { tracerProvider: provider });
  const send = (request: Request, init?: RequestInit) => {
    sent.push(new Headers(request.headers));
    return sandbox.fetch(request, init);
  };
  const channels = createChannelsClient({
    apiKey: sandbox.credentials.channels.apiKey,
    baseUrl: 'https://acme.example:8443/v1',
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    observers: [observer],
    fetch: send,
  });
  return { channels, sent };
}

describe(readmeClaim("`openTelemetryObserver(otel)`, given your `import * as otel from '@opentelemetry/api'`, returns an attempt observer for a client's `observers`."), () => {
  it(readmeClaim("Each attempt of a call is then a client span named `{method} {url.template}` (e.g. `GET /v1/wallets/{wallet_id}`, the base path included), with the attributes of OpenTelemetry's HTTP client semantic conventions: `http.request.method`, `url.template`, `url.full`, `server.address`, `server.port`, `http.response.status_code`, and `http.request.resend_count` on a retry."), async () => {
    const { channels } = tracedChannels();
    sandbox.inject({ route: 'getWallet', status: 503, times: 2 });
    const { response } = await channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: WALLET } } });
    expect(response.status).toBe(404);

    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(['GET /v1/wallets/{wallet_id}', 'GET /v1/wallets/{wallet_id}', 'GET /v1/wallets/{wallet_id}']);
    expect(spans.map((span) => span.kind)).toEqual([otel.SpanKind.CLIENT, otel.SpanKind.CLIENT, otel.SpanKind.CLIENT]);
    const common = {
      'http.request.method': 'GET',
      'url.template': '/v1/wallets/{wallet_id}',
      'url.full': `https://acme.example:8443/v1/wallets/${WALLET}`,
      'server.address': 'acme.example',
      'server.port': 8443,
    };
    expect(spans[0]!.attributes).toEqual({ ...common, 'http.response.status_code': 503, 'error.type': '503' });
    expect(spans[1]!.attributes).toEqual({ ...common, 'http.request.resend_count': 1, 'http.response.status_code': 503, 'error.type': '503' });
    expect(spans[2]!.attributes).toEqual({ ...common, 'http.request.resend_count': 2, 'http.response.status_code': 404, 'error.type': '404' });
    expect(spans.map((span) => span.status.code)).toEqual([otel.SpanStatusCode.ERROR, otel.SpanStatusCode.ERROR, otel.SpanStatusCode.ERROR]);
  });

  it('leaves a successful attempt without error.type or error status, and names the default port of the scheme', async () => {
    const observer = openTelemetryObserver(otel, { tracerProvider: provider });
    const channels = createChannelsClient({
      apiKey: sandbox.credentials.channels.apiKey,
      observers: [observer],
      fetch: sandbox.fetch,
    });
    const { response } = await channels.GET('/networks');
    expect(response.status).toBe(200);
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('GET /v1/networks');
    expect(span!.attributes).toEqual({
      'http.request.method': 'GET',
      'url.template': '/v1/networks',
      'url.full': 'https://cre-connect.api.chain.link/v1/networks',
      'server.address': 'cre-connect.api.chain.link',
      'server.port': 443,
      'http.response.status_code': 200,
    });
    expect(span!.status.code).toBe(otel.SpanStatusCode.UNSET);
  });

  it(readmeClaim("Each attempt sends its span's trace context to the service (`traceparent`, through the propagator you registered)."), async () => {
    const { channels, sent } = tracedChannels();
    sandbox.inject({ route: 'getWallet', status: 503 });
    await channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: WALLET } } });
    const spans = exporter.getFinishedSpans();
    expect(sent).toHaveLength(2);
    expect(sent.map((headers) => headers.get('traceparent'))).toEqual(
      spans.map((span) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`),
    );
  });

  it(readmeClaim("An attempt that fails has the status ERROR and an `error.type`: the status code of a 4xx or 5xx answer, or the error's class (`ApiTimeoutError`, `ApiConnectionError`) when no answer came."), async () => {
    const channels = createChannelsClient({
      apiKey: sandbox.credentials.channels.apiKey,
      timeoutMs: 200,
      retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 2 },
      observers: [openTelemetryObserver(otel, { tracerProvider: provider })],
      fetch: sandbox.fetch,
    });
    // No answer within the attempt's time limit, then a dropped connection, then a 503 and a 404 (not retried).
    sandbox.inject({ route: 'getWallet', delayMs: 5_000 });
    sandbox.inject({ route: 'getWallet', drop: true });
    sandbox.inject({ route: 'getWallet', status: 503 });
    const { response } = await channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: WALLET } } });
    expect(response.status).toBe(404);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.attributes['error.type'])).toEqual(['ApiTimeoutError', 'ApiConnectionError', '503', '404']);
    expect(spans.map((span) => span.attributes['http.response.status_code'])).toEqual([undefined, undefined, 503, 404]);
    expect(spans.map((span) => span.status.code)).toEqual([otel.SpanStatusCode.ERROR, otel.SpanStatusCode.ERROR, otel.SpanStatusCode.ERROR, otel.SpanStatusCode.ERROR]);
  });

  it(readmeClaim('Spans go to the tracer provider registered with `@opentelemetry/api`, or to `tracerProvider` when you pass one: `openTelemetryObserver(otel, { tracerProvider })`.'), async () => {
    otel.trace.setGlobalTracerProvider(provider);
    try {
      const channels = createChannelsClient({
        apiKey: sandbox.credentials.channels.apiKey,
        observers: [openTelemetryObserver(otel)],
        fetch: sandbox.fetch,
      });
      await channels.GET('/networks');
    } finally {
      otel.trace.disable();
    }
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('GET /v1/networks');
    expect(span!.instrumentationScope.name).toBe('@ourteam/service-sdk');
  });

  it('refuses anything but the @opentelemetry/api module with a ConfigurationError', () => {
    expect(() => openTelemetryObserver(undefined as never)).toThrow(ConfigurationError);
    expect(() => openTelemetryObserver({ trace: {} } as never)).toThrow(/@opentelemetry\/api/);
  });
});
