import { describe, expect, it } from 'vitest';
import { ApiError, collect, paginateCoordinator, unwrap } from '../../src/policy/index.js';
import { policyClient } from './support/clients.js';
import { describeEveryOperation } from './support/every-operation.js';

describeEveryOperation('policy-coordinator', () => policyClient().coordinator);

describe('coordinator through the typed client', () => {
  it('paginates a list end to end', async () => {
    const engines = await collect(paginateCoordinator(policyClient().coordinator, '/policy-engines', { pageSize: 10, maxItems: 50 }));
    expect(engines.length).toBeGreaterThan(0);
    for (const engine of engines) expect(engine.id).toBeTypeOf('string');
  });

  it('a missing Authorization header gives 401 as a typed ApiError', async () => {
    const error = await unwrap(
      policyClient().coordinator.GET('/policy-engines', { headers: { Authorization: null as unknown as string } }),
    ).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, type: 'Unauthorized', operation: { method: 'GET', path: '/policy-engines' } });
  });

  it('Prefer: code=404 and code=409 give the documented error bodies', async () => {
    const coordinator = policyClient().coordinator;
    const notFound = await unwrap(
      coordinator.GET('/policy-engines/{policy_engine_id}', {
        params: { path: { policy_engine_id: '3fa85f64-5717-4562-b3fc-2c963f66afa6' } },
        headers: { Prefer: 'code=404' },
      }),
    ).catch((e) => e);
    expect(notFound).toMatchObject({ status: 404, type: 'Not found' });
    const conflict = await unwrap(
      coordinator.POST('/registries', { body: { name: 'kyc', description: 'KYC registry' } as never, headers: { Prefer: 'code=409' } }),
    ).catch((e) => e);
    expect(conflict).toMatchObject({ status: 409, type: 'Already exists' });
  });
});
