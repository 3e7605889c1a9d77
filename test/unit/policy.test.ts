import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  collect,
  ConfigurationError,
  createPolicyClient,
  paginateCoordinator,
  paginateReporting,
  PollFailedError,
  requestEvaluation,
  waitForEvaluation,
  type EvaluationRequest,
} from '../../src/policy/index.js';
import { fakeFetch, json } from '../support/fake-fetch.js';

const KEY = 'ace_live_k3y_never_log_me';
const PERMIT = `0x${'ab'.repeat(32)}`;

function policyWith(...answers: Parameters<typeof fakeFetch>) {
  const fake = fakeFetch(...answers);
  const policy = createPolicyClient({ apiKey: KEY, fetch: fake.fetch, retry: { baseDelayMs: 0 } });
  return { fake, policy };
}

const evaluationRequest: EvaluationRequest = {
  caller_address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
  subject: '0xB8f4CC5179D1c68b54003171CD8D06587731C073',
  function_signature: 'transfer(address,uint256)',
  parameters: { to: '0xB8f4CC5179D1c68b54003171CD8D06587731C073', amount: '1' },
  chain_selector: '16015286601757825753',
  unique_evaluation_id: 'transfer-1',
};

describe('createPolicyClient', () => {
  it('derives the three base URLs from one host and sends the API key on each', async () => {
    const { fake, policy } = policyWith(json(200, { status: 'ok' }), json(200, { status: 'ok' }), json(200, { status: 'ok' }));
    await policy.coordinator.GET('/health-check');
    await policy.evaluation.GET('/health-check');
    await policy.reporting.GET('/health');
    expect(fake.sent.map((s) => s.url)).toEqual([
      'https://ace.api.chain.link/v1/health-check',
      'https://ace.api.chain.link/v1/evaluation/health-check',
      'https://ace.api.chain.link/v1/reporting/health',
    ]);
    for (const sent of fake.sent) expect(sent.headers.get('authorization')).toBe(`Apikey ${KEY}`);
  });

  it('takes per-API base URLs', async () => {
    const fake = fakeFetch(json(200, { status: 'ok' }));
    const policy = createPolicyClient({ apiKey: KEY, fetch: fake.fetch, baseUrls: { reporting: 'http://127.0.0.1:9/r' } });
    await policy.reporting.GET('/health');
    expect(fake.sent[0]!.url).toBe('http://127.0.0.1:9/r/health');
  });

  it.each([[''], ['  '], [undefined], ['has space']])('rejects the key %j naming the option', (apiKey) => {
    expect(() => createPolicyClient({ apiKey: apiKey as string })).toThrow(ConfigurationError);
    expect(() => createPolicyClient({ apiKey: apiKey as string })).toThrow(/`apiKey`/);
  });

  it('keeps the key out of JSON and inspect output', () => {
    const { policy } = policyWith();
    expect(JSON.stringify(policy)).not.toContain(KEY);
    expect(inspect(policy, { depth: 10, showHidden: true })).not.toContain(KEY);
  });
});

describe('evaluation', () => {
  it('retries POST /evaluate, which carries unique_evaluation_id, with the same body', async () => {
    const { fake, policy } = policyWith(json(503, { error: 'Internal error', message: 'x' }), json(200, { permit_id: PERMIT, status: 'evaluating' }));
    const answer = await requestEvaluation(policy, evaluationRequest);
    expect(answer).toEqual({ permit_id: PERMIT, status: 'evaluating' });
    expect(fake.sent).toHaveLength(2);
    expect(fake.sent[0]!.body).toBe(fake.sent[1]!.body);
  });

  it('does not retry a coordinator POST without a deduplication key', async () => {
    const { fake, policy } = policyWith(json(503, { error: 'Internal error', message: 'x' }));
    const { response } = await policy.coordinator.POST('/policy-engines', {
      body: { name: 'e', onchain_policy_engines: [] } as never,
    });
    expect(response.status).toBe(503);
    expect(fake.sent).toHaveLength(1);
  });

  it('waits through evaluating and approving to ready, reporting each status', async () => {
    const statuses = ['evaluating', 'approving', 'approving', 'ready'];
    const { policy } = policyWith(...statuses.map((status) => json(200, { permit_id: PERMIT, status })));
    const seen: string[] = [];
    const result = await waitForEvaluation(policy, PERMIT, { intervalMs: 1, onStatus: (s) => seen.push(s) });
    expect(result.status).toBe('ready');
    expect(seen).toEqual(['evaluating', 'approving', 'ready']);
  });

  it.each(['rejected', 'error'])('throws PollFailedError when the evaluation ends %s', async (status) => {
    const { policy } = policyWith(json(200, { permit_id: PERMIT, status: 'evaluating' }), json(200, { permit_id: PERMIT, status, reason: 'risk too high' }));
    const error = await waitForEvaluation(policy, PERMIT, { intervalMs: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(PollFailedError);
    expect(error.status).toBe(status);
    expect(error.resource.reason).toBe('risk too high');
  });

  it('a 404 while polling ends the wait with a typed ApiError', async () => {
    const { policy } = policyWith(json(404, { error: 'Not found', message: 'no such permit' }));
    const error = await waitForEvaluation(policy, PERMIT, { intervalMs: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, type: 'Not found', operation: { method: 'GET', path: '/evaluate/{permitId}' } });
    expect(error.message).not.toContain(KEY);
  });
});

describe('pagination', () => {
  it('walks coordinator pages 1..total_pages with page_size', async () => {
    const page = (n: number, ids: string[]) => json(200, { total: 5, total_pages: 3, page: n, policy_engines: ids.map((id) => ({ id })) });
    const { fake, policy } = policyWith(page(1, ['a', 'b']), page(2, ['c', 'd']), page(3, ['e']));
    const engines = await collect(paginateCoordinator(policy.coordinator, '/policy-engines', { pageSize: 2 }));
    expect(engines.map((e) => (e as { id: string }).id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(fake.sent.map((s) => new URL(s.url).search)).toEqual(['?page=1&page_size=2', '?page=2&page_size=2', '?page=3&page_size=2']);
  });

  it('follows reporting next_page_token, repeating the filters on every page', async () => {
    const { fake, policy } = policyWith(
      json(200, { transactions: [{ tx_hash: '1' }, { tx_hash: '2' }], next_page_token: 't2' }),
      json(200, { transactions: [{ tx_hash: '3' }], next_page_token: null }),
    );
    const query = { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' };
    const items = await collect(paginateReporting(policy.reporting, '/transactions', { params: { query }, pageSize: 2 }));
    expect(items).toHaveLength(3);
    const [first, second] = fake.sent.map((s) => new URL(s.url).searchParams);
    expect(first!.get('from')).toBe(query.from);
    expect(first!.has('page_token')).toBe(false);
    expect(second!.get('page_token')).toBe('t2');
    expect(second!.get('to')).toBe(query.to);
    expect(second!.get('page_size')).toBe('2');
  });

  it('stops at maxItems without fetching another page', async () => {
    const { fake, policy } = policyWith(json(200, { transactions: [{}, {}, {}], next_page_token: 'more' }));
    expect(await collect(paginateReporting(policy.reporting, '/transactions', { maxItems: 2 }))).toHaveLength(2);
    expect(fake.sent).toHaveLength(1);
  });

  it('throws the ApiError of a failed page', async () => {
    const { policy } = policyWith(json(400, { code: 'INVALID_ARGUMENT', message: 'bad from' }));
    await expect(collect(paginateReporting(policy.reporting, '/transactions'))).rejects.toMatchObject({ status: 400, type: 'INVALID_ARGUMENT' });
  });
});
