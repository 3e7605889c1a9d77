/**
 * The contract between the sandbox's core (routing, auth, clock, faults,
 * validation, listening) and the behaviour of each API. A behaviour is a
 * table of handlers, one per operationId of its spec, over its own state.
 */
import type { ReportSigning } from './streams/don.js';
import type { RequestProblem } from '../checks/apply-request-check.js';
import type { SandboxApi } from '../checks/apis.js';

export { SANDBOX_APIS, type SandboxApi } from '../checks/apis.js';


/** A request as a handler sees it: routed, authenticated, its JSON body parsed. */
export interface SandboxRequest {
  readonly api: SandboxApi;
  readonly operationId: string;
  readonly method: string;
  /** Path parameters by name, percent-decoded. */
  readonly pathParams: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** Query parameters as the spec's generated check hands them over: coerced to the declared types, absent ones given the declared defaults. */
  readonly queryParams: Readonly<Record<string, unknown>>;
  readonly headers: Headers;
  /** The parsed JSON body, or `undefined` when the request had none. */
  readonly body: unknown;
  /** True when the request carried valid credentials (streams discovery also answers anonymous callers). */
  readonly authenticated: boolean;
  /** How its reports are signed: by the sandbox's oracle network, or forged by a `reports` fault. */
  readonly reportSigning?: ReportSigning | undefined;
}

/** What a handler answers; the core turns it into a `Response`. */
export interface SandboxAnswer {
  status: number;
  /** Sent as JSON; omitted for `undefined`. */
  body?: unknown;
  headers?: Record<string, string>;
}

export type OperationHandler = (request: SandboxRequest) => SandboxAnswer;

/** The kinds of refusal the core itself produces, mapped by each API to its own error body. */
export type CoreRefusal = 'unauthorized' | 'not_found' | 'bad_request' | 'injected';

export interface ApiBehaviour {
  readonly api: SandboxApi;
  /** One handler per operationId of the API's spec. */
  readonly handlers: Readonly<Record<string, OperationHandler>>;
  /** Awaited before a handler runs: loads what the handlers need lazily (the streams API's report signer). */
  readonly ready?: () => Promise<void>;
  /**
   * Checks the credentials of a request before its handler runs: `'ok'`,
   * `'anonymous'` (no credentials, and the operation allows that), or the
   * refusal to send.
   */
  authenticate(request: AuthInput): 'ok' | 'anonymous' | SandboxAnswer;
  /** The refusal of a request that breaks its spec (generated checks, `request-check.ts`), worded as this API words it. */
  refuseRequest(problem: RequestProblem, operationId: string): SandboxHttpError;
  /** This API's error body for a refusal of the core or of a handler. */
  errorAnswer(error: SandboxHttpError): SandboxAnswer;
  /** Back to the seeded state. */
  reset(): void;
}

/** What authentication sees: the raw request target, since a signature covers it byte for byte. */
export interface AuthInput {
  readonly operationId: string;
  readonly method: string;
  /**
   * Path and query exactly as sent, the base path included (e.g.
   * `/v1/api/v1/reports?feedID=…` under the base URL `https://api.example.com/v1`):
   * a streams client signs the whole path of the URL it requests.
   */
  readonly target: string;
  readonly headers: Headers;
  /** The body's text as sent ('' when none). */
  readonly bodyText: string;
}

/**
 * Thrown by a handler (or the core) to refuse a request with the API's own
 * error body: `type` and `code` are the spec's values (e.g. `NOT_FOUND` /
 * `WALLET_NOT_FOUND`, or a coordinator `error`), `message` is for people.
 */
export class SandboxHttpError extends Error {
  override name = 'SandboxHttpError';
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}
