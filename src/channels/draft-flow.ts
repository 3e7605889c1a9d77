/**
 * The draft flow in one call, and its recovery. `executeWithDraft` creates
 * the operation without a signature (a draft in `pending_signature`), lets
 * the caller sign it, and finalizes it. The finalize PATCH carries no
 * deduplication key, so the transport never re-sends it on its own; a
 * finalize that failed in transit may still have gone through. So before
 * finalizing again, the operation is read back: `accepted` or beyond means
 * it did. And since the create is deduplicated on `wallet_operation_id`,
 * calling `executeWithDraft` again with the same body resumes the same
 * operation, wherever the first call stopped.
 */
import { ApiConnectionError, ApiError, ApiTimeoutError, SdkError } from '../core/errors.js';
import { abortableSleep, backoffDelay, DEFAULT_RETRY, isRetryableStatus, parseRetryAfter } from '../core/retry.js';
import type { ChannelsClient } from './client.js';
import {
  createOperation,
  finalizeOperation,
  getOperation,
  hasReachedStage,
  type CreateOperationBody,
  type Operation,
  type OperationRef,
} from './operations.js';

/**
 * Signs a draft. The service's draft carries no digest until it is signed
 * (`digest` is `null`), so the signer computes the wallet operation's signing
 * digest (from the draft's fields, as the wallet defines it), signs it, and
 * returns both; when a draft does carry a digest, it is passed in `draft`.
 */
export type DraftSigner = (draft: Operation) => SignedDigest | Promise<SignedDigest>;

/** What a `DraftSigner` returns: the operation's signing digest and the wallet signer's signature over it. */
export interface SignedDigest {
  /** `0x` hex: 65 bytes from an ECDSA signer (`ecdsa`, `protected_ecdsa` wallets), 256 bytes from an RSA-2048 one (`rsa`, `protected_rsa`). */
  signature: string;
  /** The signed digest, 32 bytes `0x` hex. */
  digest: string;
}

/** Finalize attempts after the first, when one fails in a way another may not (429, 5xx, no answer, a timeout). */
export const FINALIZE_RETRIES = 2;

/** A draft flow step: creating the draft, signing it (your signer), finalizing it. */
export type DraftStep = 'create' | 'sign' | 'finalize';

/**
 * `executeWithDraft` failed. Names the channel, the operation (once the
 * draft exists) and its `wallet_operation_id`; `cause` is the error of the
 * step that failed (an `ApiError` to narrow with `isChannelsError(e.cause, …)`,
 * a connection error, or your signer's error). `resumable` is true when
 * calling `executeWithDraft` again with the same body may finish it.
 */
export class DraftOperationError extends SdkError {
  override name = 'DraftOperationError';
  readonly channel_id: string;
  /** `undefined` only when the draft was never created. */
  readonly operation_id: string | undefined;
  readonly wallet_operation_id: string;
  readonly step: DraftStep;
  readonly resumable: boolean;
  constructor(init: { channel_id: string; operation_id: string | undefined; wallet_operation_id: string; step: DraftStep; cause: unknown; problem?: string }) {
    const operation = init.operation_id === undefined ? 'operation (not created)' : `operation ${init.operation_id}`;
    const problem = init.problem ?? (init.cause instanceof Error ? init.cause.message : String(init.cause));
    const resumable = init.problem === undefined && isResumable(init.cause);
    const hint = resumable
      ? ` Call executeWithDraft again with the same body (wallet_operation_id ${init.wallet_operation_id}): it resumes this operation.`
      : '';
    super(
      `executeWithDraft: ${init.step} of ${operation} (wallet_operation_id ${init.wallet_operation_id}) in channel ${init.channel_id} failed: ${problem}.${hint}`,
      { cause: init.cause },
    );
    this.channel_id = init.channel_id;
    this.operation_id = init.operation_id;
    this.wallet_operation_id = init.wallet_operation_id;
    this.step = init.step;
    this.resumable = resumable;
  }
}

/**
 * Creating the draft gave an operation that can no longer be finalized
 * (`cancelled`, `expired`, `failed`): an earlier call with the same
 * `wallet_operation_id` got that far. Use a new `wallet_operation_id`. A
 * `DraftOperationError` of the `create` step, never resumable, so one
 * `catch` covers every failure of the flow.
 */
export class NotADraftError extends DraftOperationError {
  override name = 'NotADraftError';
  /** The operation as the service returned it, in the status it ended in. */
  readonly operation: Operation;
  constructor(channelId: string, operation: Operation) {
    super({
      channel_id: channelId,
      operation_id: operation.operation_id,
      wallet_operation_id: operation.wallet_operation_id,
      step: 'create',
      cause: undefined,
      problem: `the operation is \`${operation.status}\`, not a draft to finalize: use a new wallet_operation_id`,
    });
    this.operation = operation;
  }
}

/**
 * The whole draft flow: create the operation without a signature (a draft in
 * `pending_signature`), let the caller sign it, finalize it with
 * `{status: 'accepted', signature, digest}`. Resolves with the accepted
 * operation; pass it to `waitForOperation` to wait for confirmation.
 *
 * A finalize that fails in a way another attempt may not (429, 5xx, no
 * answer, a timeout) is tried again, up to `FINALIZE_RETRIES` times, after
 * reading the operation back: one already `accepted` or beyond was finalized,
 * and is the result. Calling `executeWithDraft` again with the same body
 * resumes the same operation: a draft is signed and finalized, an operation
 * already accepted is returned as it is.
 *
 * Every failure is a DraftOperationError naming the channel and the
 * operation, its `cause` the step's own error: a deadline that elapsed is
 * `isChannelsError(e.cause, 'CONFLICT', 'OPERATION_DEADLINE_ELAPSED')`. Only
 * your own `signal` aborting rejects with its reason, as `fetch` does.
 */
export async function executeWithDraft(
  channels: ChannelsClient,
  channelId: string,
  body: Omit<CreateOperationBody, 'signature'>,
  sign: DraftSigner,
  signal?: AbortSignal,
): Promise<Operation> {
  const failed = (step: DraftStep, operationId: string | undefined, cause: unknown, problem?: string) => {
    if (signal?.aborted) return signal.reason as unknown;
    return new DraftOperationError({ channel_id: channelId, operation_id: operationId, wallet_operation_id: String(body.wallet_operation_id), step, cause, ...(problem === undefined ? {} : { problem }) });
  };

  let draft: Operation;
  try {
    draft = await createOperation(channels, channelId, body, signal);
  } catch (error) {
    throw failed('create', undefined, error);
  }
  // An earlier call with this wallet_operation_id finalized it already: that is the result.
  if (hasReachedStage(draft.status, 'accepted')) return draft;
  if (draft.status !== 'pending_signature') throw new NotADraftError(channelId, draft);
  const ref: OperationRef = { channel_id: channelId, operation_id: draft.operation_id };

  let signed: SignedDigest;
  try {
    signed = await sign(draft);
    signal?.throwIfAborted();
  } catch (error) {
    throw failed('sign', draft.operation_id, error);
  }
  const malformed = signedDigestProblem(signed);
  if (malformed !== undefined) throw failed('sign', draft.operation_id, undefined, `the signer returned ${malformed}`);

  try {
    return await finalizeSafely(channels, ref, signed, signal);
  } catch (error) {
    throw failed('finalize', draft.operation_id, error);
  }
}

/** Finalizes, retrying a transient failure only after reading the operation back: `accepted` or beyond is success. */
async function finalizeSafely(channels: ChannelsClient, ref: OperationRef, signed: SignedDigest, signal: AbortSignal | undefined): Promise<Operation> {
  for (let attempt = 0; ; attempt++) {
    let failure: unknown;
    try {
      return await finalizeOperation(channels, ref, signed, signal);
    } catch (error) {
      if (signal?.aborted || !isTransient(error) || attempt >= FINALIZE_RETRIES) throw error;
      failure = error;
    }
    const retryAfter = failure instanceof ApiError ? parseRetryAfter(failure.headers.get('retry-after'), Date.now()) : undefined;
    if (retryAfter !== undefined && retryAfter > DEFAULT_RETRY.maxRetryAfterMs) throw failure;
    await abortableSleep(retryAfter ?? backoffDelay(attempt, DEFAULT_RETRY, Math.random), signal);
    const current = await getOperation(channels, ref, signal);
    if (hasReachedStage(current.status, 'accepted')) return current;
    // Still a draft: finalize again. Anything else, the service's answer to the finalize says why.
  }
}

/** A failure another attempt may not meet. */
function isTransient(error: unknown): boolean {
  return error instanceof ApiConnectionError || error instanceof ApiTimeoutError || (error instanceof ApiError && isRetryableStatus(error.status));
}

/** Whether calling again with the same body may finish the flow: not after a refusal (4xx) or a malformed answer. */
function isResumable(cause: unknown): boolean {
  if (cause instanceof ApiError) return isRetryableStatus(cause.status);
  return cause instanceof ApiConnectionError || cause instanceof ApiTimeoutError || !(cause instanceof SdkError);
}

const SIGNATURE = /^0x([0-9a-fA-F]{130}|[0-9a-fA-F]{512})$/;
const DIGEST = /^0x[0-9a-fA-F]{64}$/;

/** What is wrong with a signer's result, in the spec's terms; `undefined` when it is well-formed. */
function signedDigestProblem(signed: unknown): string | undefined {
  if (signed === null || typeof signed !== 'object') return `${signed === null ? 'null' : typeof signed} instead of { signature, digest }`;
  const { signature, digest } = signed as Record<string, unknown>;
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) {
    return 'a signature that is not 0x hex of 65 bytes (ECDSA) or 256 bytes (RSA-2048)';
  }
  if (typeof digest !== 'string' || !DIGEST.test(digest)) return 'a digest that is not 0x hex of 32 bytes';
  return undefined;
}
