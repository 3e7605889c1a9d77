/**
 * The report API's behaviour: HMAC authentication as the service checks it,
 * a catalog of streams of every report schema version, and reports for any
 * of them at any second since its start, computed on demand (nothing is
 * stored, so there is no state to reset and memory stays flat).
 */
import type { OperationId } from '../../../generated/operations/streams.js';
import type { BehaviourContext } from '../context.js';
import { SandboxHttpError, type ApiBehaviour, type AuthInput, type OperationHandler, type SandboxAnswer } from '../types.js';
import { loadDonSigner } from './don.js';
import { streamsErrorAnswer } from './error-answer.js';
import { createReportHandlers } from './handlers.js';
import { createHmacVerifier, hasHmacHeaders } from './hmac.js';
import { createLiveHandlers } from './live.js';
import { streamsRequestRefusal } from './request-refusal.js';

export { SANDBOX_STREAMS, findStream, type CatalogStream, type StreamRecord } from './catalog.js';
export { reportAt, reportsFrom, hasReportAt, firstSecond, lastSecond, type Report } from './history.js';
export { priceAt, reportFields } from './report-values.js';
export { SANDBOX_STREAM_ORIGINS } from './live.js';
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_REPORTS } from './handlers.js';
export { MAX_CLOCK_SKEW_MS } from './hmac.js';

/** Discovery answers callers without credentials; every other operation is signed. */
const ANONYMOUS_ALLOWED = new Set(['listStreams']);
/** `HEAD /` documents its refusals without a body. */
const BODILESS = new Set(['getStreamOrigins']);

export function createStreamsBehaviour(context: BehaviourContext): ApiBehaviour {
  const verify = createHmacVerifier(context.credentials.streams);

  function authenticate(input: AuthInput): 'ok' | 'anonymous' | SandboxAnswer {
    if (ANONYMOUS_ALLOWED.has(input.operationId) && !hasHmacHeaders(input.headers)) return 'anonymous';
    const verdict = verify(input);
    if (verdict.ok) return 'ok';
    if (BODILESS.has(input.operationId)) return { status: 401 };
    return streamsErrorAnswer(new SandboxHttpError(verdict.status, 'UNAUTHORIZED', verdict.message, verdict.code));
  }

  // Typed by the spec's operation table: an operation added to the spec fails the build until it has a handler.
  const handlers: Record<OperationId, OperationHandler> = { ...createReportHandlers(context.clock), ...createLiveHandlers(context.streamOrigins) };
  return {
    api: 'streams',
    handlers,
    // Reports are signed by the DON: its signer (libsecp256k1) loads with the first streams request, not with the sandbox.
    ready: loadDonSigner,
    authenticate,
    errorAnswer: streamsErrorAnswer,
    refuseRequest: streamsRequestRefusal,
    reset: () => context.streamOrigins.restoreAll(),
  };
}
