// The draft flow recovers: executeWithDraft retries a transient finalize
// failure only after reading the operation back (one already `accepted` is
// the result, never finalized twice), every error from it names the channel
// and the operation, and calling it again with the same body resumes the same
// operation. Against the in-process sandbox, faults injected by helper name.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createChannelsClient,
  DraftOperationError,
  executeWithDraft,
  finalizeOperation,
  createOperation,
  isChannelsError,
  unwrap,
  type ChannelsClient,
  type CreateOperationBody,
  type Operation,
} from '../../src/channels/index.js';
import { ApiError } from '../../src/core/errors.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { sandboxValidator } from '../support/sandbox-validator.js';

const SEPOLIA = '16015286601757825753';
const SIGNED = { signature: `0x${'11'.repeat(65)}`, digest: `0x${'22'.repeat(32)}` };

let sandbox: Sandbox;
let sent: string[];
let channelId: string;
let walletAddress: string;

function client(options: { timeoutMs?: number } = {}): ChannelsClient {
  return createChannelsClient({
    apiKey: sandbox.credentials.channels.apiKey,
    ...options,
    fetch: (request, init) => {
      sent.push(`${request.method} ${new URL(request.url).pathname.replace(/^\/v1/, '').replace(/[0-9a-f-]{36}/g, '{id}')}`);
      return sandbox.fetch(request, init);
    },
  });
}

function body(walletOperationId: string): Omit<CreateOperationBody, 'signature'> {
  return {
    chain_selector: SEPOLIA,
    address: walletAddress,
    wallet_operation_id: walletOperationId,
    deadline: 0,
    transactions: [{ to: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', value: '0', data: '0x' }],
  };
}

beforeEach(async () => {
  sandbox = createSandbox({ pace: 0, validate: sandboxValidator() });
  sent = [];
  const setup = client();
  channelId = (await unwrap(setup.POST('/channels', { body: { name: 'drafts' } }))).channel_id;
  walletAddress = (
    await unwrap(
      setup.POST('/wallets', {
        body: { name: 'treasury', wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: SEPOLIA, wallet_type: 'ecdsa' },
      }),
    )
  ).address;
  sent = [];
});

afterEach(() => {
  const violations = [...sandbox.violations];
  sandbox.close();
  expect(violations).toEqual([]);
});

async function draftFailure(promise: Promise<unknown>): Promise<DraftOperationError> {
  const error = await promise.then(
    () => expect.unreachable('executeWithDraft resolved'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DraftOperationError);
  return error as DraftOperationError;
}

const FINALIZE = 'PATCH /channels/{id}/operations/{id}';
const READ = 'GET /channels/{id}/operations/{id}';
const CREATE = 'POST /channels/{id}/operations';

describe('a transient finalize failure', () => {
  it('a 503 is retried after reading the operation back, still a draft', async () => {
    sandbox.inject({ route: 'finalizeOperation', status: 503 });
    const accepted = await executeWithDraft(client(), channelId, body('1'), () => SIGNED);
    expect(accepted).toMatchObject({ status: 'accepted', signature: SIGNED.signature, digest: SIGNED.digest });
    expect(sent).toEqual([CREATE, FINALIZE, READ, FINALIZE]);
  });

  it('a finalize that went through but whose answer was lost is not sent again: the read-back finds it accepted', async () => {
    // The sandbox finalizes, then holds the body back past the client's attempt timeout. The timeout covers
    // every request of this client: 1 s, not 100 ms, so that a loaded machine's create and read-back fit in it.
    sandbox.inject({ route: 'finalizeOperation', bodyDelayMs: 60_000 });
    const accepted = await executeWithDraft(client({ timeoutMs: 1_000 }), channelId, body('2'), () => SIGNED);
    expect(accepted.status).toBe('accepted');
    // A second finalize would have met 409 OPERATION_NOT_FINALIZABLE.
    expect(sent).toEqual([CREATE, FINALIZE, READ]);
  });
});

describe('when it gives up', () => {
  it('the error names the channel, the operation and its wallet_operation_id, says how to resume, and resuming works', async () => {
    sandbox.inject({ route: 'finalizeOperation', status: 503, times: 3 });
    const drafts: Operation[] = [];
    const sign = (draft: Operation) => {
      drafts.push(draft);
      return SIGNED;
    };
    const error = await draftFailure(executeWithDraft(client(), channelId, body('3'), sign));
    const operationId = drafts[0]!.operation_id;
    expect(error).toMatchObject({ channel_id: channelId, operation_id: operationId, wallet_operation_id: '3', step: 'finalize', resumable: true });
    expect(error.message).toContain(channelId);
    expect(error.message).toContain(operationId);
    expect(error.message).toContain('Call executeWithDraft again with the same body');
    expect((error.cause as ApiError).status).toBe(503);
    expect(sent.filter((request) => request === FINALIZE)).toHaveLength(3);

    // The recovery: the same call again. The create answers the same draft, which is signed and finalized.
    const resumed = await executeWithDraft(client(), channelId, body('3'), sign);
    expect(resumed).toMatchObject({ operation_id: operationId, status: 'accepted' });
    expect(drafts.map((draft) => draft.operation_id)).toEqual([operationId, operationId]);
  });

  it('called again after it succeeded, returns the accepted operation without signing or finalizing again', async () => {
    const first = await executeWithDraft(client(), channelId, body('4'), () => SIGNED);
    sent = [];
    const again = await executeWithDraft(client(), channelId, body('4'), () => expect.unreachable('signed twice'));
    expect(again.operation_id).toBe(first.operation_id);
    expect(sent).toEqual([CREATE]);
  });

  it('a refusal is not retried and not resumable; the ApiError is its cause', async () => {
    const late = { ...body('5'), deadline: Math.floor(sandbox.clock.now() / 1000) + 1 };
    const error = await draftFailure(
      executeWithDraft(client(), channelId, late, () => {
        sandbox.advance(2_000);
        return SIGNED;
      }),
    );
    expect(error).toMatchObject({ step: 'finalize', resumable: false, channel_id: channelId });
    expect(isChannelsError(error.cause, 'CONFLICT', 'OPERATION_DEADLINE_ELAPSED')).toBe(true);
    expect(error.message).not.toContain('again');
    expect(sent.filter((request) => request === FINALIZE)).toHaveLength(1);
  });
});

describe('every step names where it failed', () => {
  it('create: the channel and wallet_operation_id (there is no operation yet)', async () => {
    const missing = '0b5e8f1a-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
    const error = await draftFailure(executeWithDraft(client(), missing, body('6'), () => SIGNED));
    expect(error).toMatchObject({ step: 'create', channel_id: missing, operation_id: undefined });
    expect(error.message).toContain(missing);
    expect(error.message).toContain('wallet_operation_id 6');
    expect((error.cause as ApiError).status).toBe(404);
  });

  it("sign: your signer's error, with the operation to resume", async () => {
    const error = await draftFailure(
      executeWithDraft(client(), channelId, body('7'), () => {
        throw new Error('the signing service is down');
      }),
    );
    expect(error).toMatchObject({ step: 'sign', channel_id: channelId, resumable: true });
    expect(error.operation_id).toEqual(expect.any(String));
    expect(error.message).toContain('the signing service is down');
  });

  it('sign: a malformed signature is refused before anything is sent', async () => {
    const error = await draftFailure(executeWithDraft(client(), channelId, body('8'), () => ({ signature: `0x${'11'.repeat(64)}`, digest: SIGNED.digest })));
    expect(error.step).toBe('sign');
    expect(error.message).toContain('65 bytes (ECDSA) or 256 bytes (RSA-2048)');
    expect(sent).toEqual([CREATE]);
  });

  it('your own abort rejects with its reason, as fetch does', async () => {
    const controller = new AbortController();
    const reason = new Error('stopped by the caller');
    const outcome = executeWithDraft(
      client(),
      channelId,
      body('9'),
      () => {
        controller.abort(reason);
        return SIGNED;
      },
      controller.signal,
    );
    await expect(outcome).rejects.toBe(reason);
  });
});

describe('what the sandbox checks of a signature', () => {
  it('accepts any well-formed signature and digest (it verifies no cryptography), and refuses a malformed one as the spec does', async () => {
    const draft = await createOperation(client(), channelId, body('10'));
    const ref = { channel_id: channelId, operation_id: draft.operation_id };
    const refused = await finalizeOperation(client(), ref, { signature: '0x1234', digest: SIGNED.digest }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(400);
    const rsaSized = { signature: `0x${'ab'.repeat(256)}`, digest: `0x${'00'.repeat(32)}` };
    expect((await finalizeOperation(client(), ref, rsaSized)).status).toBe('accepted');
  });
});
