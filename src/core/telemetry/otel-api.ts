/**
 * The parts of `@opentelemetry/api` the SDK calls, described here rather than
 * imported: the package is an optional peer dependency, and a type import
 * would make our published `.d.ts` files fail to compile for a user who has
 * not installed it. The real API (any 1.x from 1.3 on) fits these shapes, so
 * `import * as otel from '@opentelemetry/api'` and `otel.metrics.getMeter(…)`
 * are accepted as they are. Methods are declared as methods (not function
 * properties) so the API's own enums and `Context` type are accepted where
 * these say `number` and `unknown`.
 */

/** An attribute value as OpenTelemetry takes it. */
export type OtelAttributeValue = string | number | boolean;
export type OtelAttributes = Record<string, OtelAttributeValue>;

export interface OtelSpan {
  setAttribute(key: string, value: OtelAttributeValue): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

export interface OtelTracer {
  startSpan(name: string, options?: { kind?: number; attributes?: OtelAttributes }, context?: unknown): OtelSpan;
}

/** A `TracerProvider` of OpenTelemetry (the SDK's, or one registered globally). */
export interface OtelTracerProvider {
  getTracer(name: string, version?: string): OtelTracer;
}

/** What the tracing observer needs of `@opentelemetry/api`: pass the module itself (`import * as otel from '@opentelemetry/api'`). */
export interface OpenTelemetryApi {
  readonly trace: {
    getTracer(name: string, version?: string): OtelTracer;
    setSpan(context: unknown, span: OtelSpan): unknown;
  };
  readonly context: { active(): unknown };
  readonly propagation: {
    inject(context: unknown, carrier: Headers, setter: { set(carrier: Headers, key: string, value: string): void }): void;
  };
  readonly SpanKind: { readonly CLIENT: number };
  readonly SpanStatusCode: { readonly ERROR: number };
}

export interface OtelCounter {
  add(value: number, attributes?: OtelAttributes): void;
}

export interface OtelHistogram {
  record(value: number, attributes?: OtelAttributes): void;
}

/** An instrument's description, unit and (for a histogram) bucket advice, as `Meter.create…` take them. */
export interface OtelInstrumentOptions {
  description?: string;
  unit?: string;
  advice?: { explicitBucketBoundaries?: number[] };
}

/** A `Meter` of `@opentelemetry/api` (`otel.metrics.getMeter('my-service')`), or anything with these two methods. */
export interface OtelMeter {
  createCounter(name: string, options?: OtelInstrumentOptions): OtelCounter;
  createHistogram(name: string, options?: OtelInstrumentOptions): OtelHistogram;
}
