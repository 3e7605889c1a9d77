// A 2xx without the body the spec documents (a 204, or an empty 200, where
// the operation documents JSON) is an InvalidResponseBodyError naming the
// operation, through `unwrap` and through the helpers: it must not resolve
// `undefined` and fail later somewhere else.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createChannelsClient, getOperation, unwrap, waitForOperation } from '../../src/channels/index.js';
import { InvalidResponseBodyError } from '../../src/core/errors.js';
import { createPolicyClient, getEvaluation } from '../../src/policy/index.js';
import { createStreamsClient, getLatestReport } from '../../src/streams/index.js';
import { fakeFetch, json } from '../support/fake-fetch.js';

const WALLET = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const REF = { channel_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', operation_id: '9b2f3c4d-5e6f-4a1b-8c9d-0e1f2a3b4c5d' };
const noContent = () => new Response(null, { status: 204 });

async function invalidBody(promise: Promise<unknown>): Promise<InvalidResponseBodyError> {
  const error = await promise.then(
    (value) => expect.unreachable(`resolved with ${JSON.stringify(value)}`),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(InvalidResponseBodyError);
  return error as InvalidResponseBodyError;
}

describe('a 204 where the spec documents a 200 with JSON', () => {
  it('through unwrap, names the operation', async () => {
    const channels = createChannelsClient({ apiKey: 'key', fetch: fakeFetch(noContent()).fetch });
    const error = await invalidBody(unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: WALLET } } })));
    expect(error.operation).toBe('GET /wallets/{wallet_id}');
    expect(error.message).toContain('empty body');
  });

  it('through the helpers of each API', async () => {
    const channels = createChannelsClient({ apiKey: 'key', fetch: fakeFetch(noContent()).fetch });
    expect((await invalidBody(getOperation(channels, REF))).operation).toBe('GET /channels/{channel_id}/operations/{operation_id}');
    const policy = createPolicyClient({ apiKey: 'key', fetch: fakeFetch(noContent()).fetch });
    expect((await invalidBody(getEvaluation(policy, `0x${'ab'.repeat(32)}`))).operation).toBe('GET /evaluate/{permitId}');
    const streams = createStreamsClient({ fetch: fakeFetch(noContent()).fetch });
    expect((await invalidBody(getLatestReport(streams, `0x0003${'00'.repeat(30)}`))).operation).toBe('GET /api/v1/reports/latest');
  });

  it('a wait that reads a body without a status names the operation it read', async () => {
    const channels = createChannelsClient({ apiKey: 'key', fetch: fakeFetch(json(200, {})).fetch });
    const error = await invalidBody(waitForOperation(channels, REF));
    expect(error.operation).toBe('GET /channels/{channel_id}/operations/{operation_id}');
  });

  it('an operation documented without content still resolves on its empty answer', async () => {
    const policy = createPolicyClient({ apiKey: 'key', fetch: fakeFetch(new Response(null, { status: 200 })).fetch });
    const path = { policy_id: WALLET, protection_id: WALLET };
    await expect(unwrap(policy.coordinator.DELETE('/policies/{policy_id}/protections/{protection_id}', { params: { path } }))).resolves.toBeUndefined();
  });
});

describe('the specs', () => {
  it('document no 204 answer: the generated EMPTY_SUCCESS lists only other empty 2xx answers, so a documented 204 would need it too', () => {
    const documented204: string[] = [];
    for (const file of readdirSync('generated/openapi')) {
      const document = parse(readFileSync(`generated/openapi/${file}`, 'utf8')) as { paths: Record<string, Record<string, { responses?: object }>> };
      for (const [path, item] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          if (operation?.responses !== undefined && '204' in operation.responses) documented204.push(`${file} ${method.toUpperCase()} ${path}`);
        }
      }
    }
    expect(documented204).toEqual([]);
  });
});
