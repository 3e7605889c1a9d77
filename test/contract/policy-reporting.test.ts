import { describe, expect, it } from 'vitest';
import { ApiError, collect, PaginationCycleError, paginateReporting, unwrap } from '../../src/policy/index.js';
import { policyClient } from './support/clients.js';
import { describeEveryOperation } from './support/every-operation.js';

describeEveryOperation('policy-reporting', () => policyClient().reporting);

describe('reporting through the typed client', () => {
  it('lists transactions in a time range, following the page token', async () => {
    const query = { from: '2026-01-01T00:00:00Z', to: '2026-01-31T23:59:59Z' };
    const firstPage = await collect(paginateReporting(policyClient().reporting, '/transactions', { params: { query }, maxItems: 3 }));
    expect(firstPage).toHaveLength(3);
    // The stateless mock offers the same next_page_token on every page: the paginator refuses to loop.
    const error = await collect(paginateReporting(policyClient().reporting, '/transactions', { params: { query } })).catch((e) => e);
    expect(error).toBeInstanceOf(PaginationCycleError);
  });

  it('reads policies at a point in time with as_of', async () => {
    const page = await unwrap(policyClient().reporting.GET('/policies', { params: { query: { as_of: '2026-01-15T00:00:00Z' } } }));
    expect(Array.isArray(page.policies)).toBe(true);
  });

  it('a malformed as_of is rejected by request validation', async () => {
    const error = await unwrap(policyClient().reporting.GET('/policies', { params: { query: { as_of: 'yesterday' } } })).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
  });
});
