import { SDK_USER_AGENT } from '../client.js';
import { ConfigurationError } from '../errors.js';
import type { AttemptEnd, AttemptObserver, AttemptStart, CallOperation } from '../observe.js';
import type { OpenTelemetryApi, OtelAttributes, OtelTracerProvider } from './otel-api.js';

/** The options of `openTelemetryObserver`. */
export interface OpenTelemetryObserverOptions {
  /** Where spans go. Default: the provider registered globally with `@opentelemetry/api` (`trace.getTracer`). */
  tracerProvider?: OtelTracerProvider;
}

const TRACER_NAME = '@ourteam/service-sdk';
const TRACER_VERSION = SDK_USER_AGENT.slice(SDK_USER_AGENT.indexOf('/') + 1);

/** Writes a propagator's fields (`traceparent`, `tracestate`, …) into the attempt's `Headers`. */
const headerSetter = { set: (headers: Headers, key: string, value: string) => headers.set(key, value) };

/**
 * An attempt observer that makes each attempt of a call an OpenTelemetry
 * client span, as the HTTP client semantic conventions describe
 * (`{method} {url.template}`, kind CLIENT, `http.request.resend_count` on a
 * retry, `error.type` and status ERROR on failure), and sends the trace
 * context (`traceparent`) to the service with the attempt.
 *
 * The user hands us their own `@opentelemetry/api` module rather than the
 * SDK importing it: the package is an optional peer dependency, and a static
 * import would break every client where it is not installed, while a dynamic
 * one would make bundlers (browsers, edge runtimes) chase or choke on a
 * module that may not be there, and would make the first call wait for it.
 * Passing the module costs the user one import they already have when they
 * use OpenTelemetry, and without it the SDK loads and runs nothing of it.
 */
export function openTelemetryObserver(api: OpenTelemetryApi, options: OpenTelemetryObserverOptions = {}): AttemptObserver {
  if (typeof api?.trace?.getTracer !== 'function' || typeof api.propagation?.inject !== 'function' || typeof api.context?.active !== 'function') {
    throw new ConfigurationError('openTelemetryObserver', 'expected the @opentelemetry/api module object (its namespace import)');
  }
  if (options.tracerProvider !== undefined && typeof options.tracerProvider?.getTracer !== 'function') {
    throw new ConfigurationError('tracerProvider', 'expected an OpenTelemetry TracerProvider');
  }
  const tracer = (options.tracerProvider ?? api.trace).getTracer(TRACER_NAME, TRACER_VERSION);
  return (start) => {
    const template = urlTemplate(start.operation);
    const parent = api.context.active();
    const span = tracer.startSpan(`${start.operation.method} ${template}`, { kind: api.SpanKind.CLIENT, attributes: requestAttributes(start, template) }, parent);
    api.propagation.inject(api.trace.setSpan(parent, span), start.headers, headerSetter);
    return (end) => {
      const errorType = attemptErrorType(end);
      if (end.status !== undefined) span.setAttribute('http.response.status_code', end.status);
      if (end.requestId !== undefined) span.setAttribute('service_sdk.request_id', end.requestId);
      if (errorType !== undefined) {
        span.setAttribute('error.type', errorType);
        // No description: error.type says what failed, and an error's message is not ours to export.
        span.setStatus({ code: api.SpanStatusCode.ERROR });
      }
      span.end();
    };
  };
}

/**
 * The path template as an absolute path, base path included: the operation's
 * template names the path below the API's base (`/wallets/{wallet_id}`), and
 * the semantic conventions want the whole path (`/v1/wallets/{wallet_id}`),
 * as a server's `http.route` would read it. The base is the concrete path's
 * leading segments beyond the template's (a path parameter is one segment:
 * a `/` in it is sent encoded).
 */
export function urlTemplate(operation: CallOperation): string {
  const template = operation.path.split('/').filter((segment) => segment !== '');
  const concrete = operation.urlPath.split('/').filter((segment) => segment !== '');
  if (concrete.length < template.length) return operation.path;
  const base = concrete.slice(0, concrete.length - template.length);
  return `/${[...base, ...template].join('/')}`;
}

function requestAttributes(start: AttemptStart, template: string): OtelAttributes {
  const url = new URL(start.url);
  url.username = url.password = '';
  const attributes: OtelAttributes = {
    'http.request.method': start.operation.method,
    'url.template': template,
    'url.full': url.href,
    'server.address': url.hostname,
    'server.port': url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port),
  };
  if (start.attempt > 1) attributes['http.request.resend_count'] = start.attempt - 1;
  return attributes;
}

/** The conventions' `error.type`: the status code of a 4xx/5xx answer, the error's class name when none came, else nothing. */
function attemptErrorType(end: AttemptEnd): string | undefined {
  if (end.status !== undefined) return end.status >= 400 ? String(end.status) : undefined;
  return end.errorType ?? end.error?.name;
}
