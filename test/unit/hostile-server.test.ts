// What a hostile or broken service does to the clients, each probe against a
// real server on 127.0.0.1: a call always settles within its deadline, only
// SdkErrors escape, credentials never leave their origin or reach a message,
// and no server can make the SDK loop or hang.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  ApiConnectionError,
  ApiError,
  ApiTimeoutError,
  collect,
  ConfigurationError,
  createChannelsClient,
  createOperation,
  InvalidResponseBodyError,
  paginate,
  PaginationCycleError,
  SdkError,
  UnexpectedRedirectError,
  unwrap,
  waitForOperation,
  waitForOperationEvent,
} from '../../src/channels/index.js';
import { createPolicyClient, paginateCoordinator, paginateReporting } from '../../src/policy/index.js';
import { startTimer } from '../../src/core/timer.js';
import { createStreamsClient, getBulkReports, getLatestReport, listStreams, stringToSign } from '../../src/streams/index.js';
import { decodeReport, ReportDecodeError, reportVersionOf } from '../../src/reports/index.js';
import { fakeFetch, json } from '../support/fake-fetch.js';
import { sendJson, startLocalServer, trickle, within, type LocalServer } from '../support/local-server.js';

const KEY = 'k_live_0123456789abcdef';
const STREAMS_KEY = '123e4567-e89b-12d3-a456-426614174000';
const SECRET = 'streams-secret-never-shown';
const WALLET = '/wallets/{wallet_id}' as const;
const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const VALID_REPORT = (
  parse(readFileSync(new URL('../../openapi/streams/components/examples/LatestReport.yaml', import.meta.url), 'utf8')) as {
    value: { report: { fullReport: string } };
  }
).value.report.fullReport;

const servers: LocalServer[] = [];
async function server(...args: Parameters<typeof startLocalServer>) {
  const started = await startLocalServer(...args);
  servers.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const channelsAt = (origin: string, options: Partial<Parameters<typeof createChannelsClient>[0]> = {}) =>
  createChannelsClient({ apiKey: KEY, baseUrl: `${origin}/v1`, ...options });
const getWallet = (channels: ReturnType<typeof createChannelsClient>) =>
  unwrap(channels.GET(WALLET, { params: { path: { wallet_id: 'w1' } } }));

describe('1. an answer handed back keeps its deadline over the body', () => {
  const slow429 = () =>
    server((_request, response) => {
      response.writeHead(429, { 'retry-after': '3600', 'content-type': 'application/json' });
      trickle(response, '{"type":"RATE_LIMITED","message":"slow down"}', 1_000);
    });

  it('a 429 with a Retry-After beyond maxRetryAfterMs and a trickling body ends at timeoutMs', async () => {
    const { origin } = await slow429();
    const call = getWallet(channelsAt(origin, { timeoutMs: 500 }));
    expect(await within(call, 3_000)).toBe('rejected: ApiTimeoutError');
  });

  it('the caller can abort it before its timeout', async () => {
    const { origin } = await slow429();
    const controller = new AbortController();
    const call = unwrap(channelsAt(origin, { timeoutMs: 10_000 }).GET(WALLET, { params: { path: { wallet_id: 'w1' } }, signal: controller.signal }));
    setTimeout(() => controller.abort(), 200);
    expect(await within(call, 3_000)).toMatch(/^rejected/);
  });
});

describe('2. a body that fails mid-way is an ApiConnectionError, and a GET is retried', () => {
  it('a connection reset mid-body is retried and the second answer read', async () => {
    const { origin, requests } = await server((_request, response, index) => {
      if (index === 0) {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        response.write('{"wallet_id":"w1",');
        setTimeout(() => response.socket?.destroy(), 20);
        return;
      }
      sendJson(response, 200, { wallet_id: 'w1', name: 'second try' });
    });
    const wallet = await getWallet(channelsAt(origin, { retry: { baseDelayMs: 1 } }));
    expect(wallet).toMatchObject({ name: 'second try' });
    expect(requests).toHaveLength(2);
  });

  it('a reset on every attempt ends as ApiConnectionError carrying its cause', async () => {
    const { origin, requests } = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('{"wallet_id":');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const error = await getWallet(channelsAt(origin, { retry: { retries: 1, baseDelayMs: 1 } })).catch((e) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error.cause).toBeDefined();
    expect(requests).toHaveLength(2);
  });

  it('a corrupt gzip body is an ApiConnectionError, not a TypeError', async () => {
    const { origin } = await server((_request, response) => {
      const zipped = gzipSync(JSON.stringify({ wallet_id: 'w1' }));
      zipped[zipped.length - 6]! ^= 0xff; // break the checksum
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(zipped);
    });
    const error = await getWallet(channelsAt(origin, { retry: false })).catch((e) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
  });
});

describe('3. a 2xx body of the wrong shape is an InvalidResponseBodyError naming the operation', () => {
  const streamsAnswering = (...answers: Parameters<typeof fakeFetch>) => {
    const fake = fakeFetch(...answers);
    return { streams: createStreamsClient({ apiKey: STREAMS_KEY, apiSecret: SECRET, fetch: fake.fetch }), fake };
  };
  const empty = (status: number) => new Response(status === 204 ? null : '', { status });

  it.each([
    ['an unexpected object', () => json(200, { unexpected: true })],
    ['an empty 200', () => empty(200)],
    ['a 204', () => empty(204)],
  ])('getLatestReport on %s', async (_name, answer) => {
    const { streams } = streamsAnswering(answer());
    const error = await getLatestReport(streams, ETH_USD).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResponseBodyError);
    expect(error.message).toContain('/api/v1/reports/latest');
  });

  it('getBulkReports and listStreams on an unexpected object', async () => {
    const bulk = await getBulkReports(streamsAnswering(json(200, { unexpected: true })).streams, [ETH_USD], 1).catch((e) => e);
    expect(bulk).toBeInstanceOf(InvalidResponseBodyError);
    const list = await listStreams(streamsAnswering(json(200, { unexpected: true })).streams).catch((e) => e);
    expect(list).toBeInstanceOf(InvalidResponseBodyError);
  });

  it('createOperation on null and on an object without operation_id, sending nothing more', async () => {
    for (const body of [null, { unexpected: true }]) {
      const fake = fakeFetch(json(201, body), json(200, { operation_id: 'x', status: 'accepted' }));
      const channels = createChannelsClient({ apiKey: KEY, fetch: fake.fetch });
      const error = await createOperation(channels, 'c1', { wallet_id: 'w', transactions: [] } as never).catch((e) => e);
      expect(error).toBeInstanceOf(InvalidResponseBodyError);
      expect(fake.sent).toHaveLength(1);
    }
  });

  it('unwrap on an empty 200 where the spec documents content', async () => {
    const channels = createChannelsClient({ apiKey: KEY, fetch: fakeFetch(empty(200)).fetch });
    const error = await getWallet(channels).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResponseBodyError);
    expect(error.message).toContain('GET /wallets/{wallet_id}');
  });
});

describe('4. credentials never follow a redirect to another origin', () => {
  it.each([301, 302, 307, 308])('%i to another origin: UnexpectedRedirectError, and the other host receives nothing', async (status) => {
    const elsewhere = await server((_request, response) => sendJson(response, 200, { report: {} }));
    const origin = await server((_request, response) => {
      response.writeHead(status, { location: `${elsewhere.origin}/api/v1/reports/latest?feedID=${ETH_USD}` });
      response.end();
    });
    const streams = createStreamsClient({ apiKey: STREAMS_KEY, apiSecret: SECRET, baseUrl: origin.origin, headers: { 'X-Team-Token': 'team-secret' } });
    const error = await getLatestReport(streams, ETH_USD).catch((e) => e);
    expect(error).toBeInstanceOf(UnexpectedRedirectError);
    expect(error.location).toBe(`${elsewhere.origin}/api/v1/reports/latest`);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('a POST redirected (307) elsewhere does not carry its body or idempotency key there', async () => {
    const elsewhere = await server((_request, response) => sendJson(response, 202, { query_id: 'q' }));
    const origin = await server((_request, response) => {
      response.writeHead(307, { location: `${elsewhere.origin}/v1/channels/c/queries` });
      response.end();
    });
    const error = await unwrap(
      channelsAt(origin.origin).POST('/channels/{channel_id}/queries', {
        params: { path: { channel_id: 'c' } },
        body: { idempotency_key: 'idem-1' } as never,
      }),
    ).catch((e) => e);
    expect(error).toBeInstanceOf(UnexpectedRedirectError);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('a Location that is not a URL ends the call at once: the POST is not sent again', async () => {
    const origin = await server((_request, response) => {
      response.writeHead(307, { location: 'http://[bad' });
      response.end();
    });
    const error = await unwrap(
      channelsAt(origin.origin).POST('/channels/{channel_id}/operations', {
        params: { path: { channel_id: 'c1' } },
        body: { wallet_id: 'w' } as never,
      }),
    ).catch((e) => e);
    expect(error).toBeInstanceOf(UnexpectedRedirectError);
    expect(error.message).toContain('not a URL');
    expect(origin.requests).toHaveLength(1);
  });

  it('a same-origin redirect is followed and signed again for its new path', async () => {
    const report = { feedID: ETH_USD, validFromTimestamp: 1, observationsTimestamp: 2, fullReport: VALID_REPORT };
    const target = await server((request, response) => {
      if (request.url!.startsWith('/old')) {
        response.writeHead(308, { location: `/api/v1/reports/latest?feedID=${ETH_USD}` });
        response.end();
        return;
      }
      sendJson(response, 200, { report });
    });
    const streams = createStreamsClient({ apiKey: STREAMS_KEY, apiSecret: SECRET, baseUrl: `${target.origin}/old` });
    await expect(getLatestReport(streams, ETH_USD)).resolves.toMatchObject({ feedID: ETH_USD });
    const followed = target.requests[1]!;
    expect(followed.url).toBe(`/api/v1/reports/latest?feedID=${ETH_USD}`);
    const { createHmac, createHash } = await import('node:crypto');
    const signed = stringToSign('GET', followed.url, createHash('sha256').update('').digest('hex'), STREAMS_KEY, Number(followed.headers['x-authorization-timestamp']));
    expect(followed.headers['x-authorization-signature-sha256']).toBe(createHmac('sha256', SECRET).update(signed).digest('hex'));
  });
});

describe('5. durations beyond 2^31 − 1 ms mean what they say', () => {
  it('timeoutMs: 2**31 does not time out at once', async () => {
    const { origin } = await server((_request, response) => setTimeout(() => sendJson(response, 200, { wallet_id: 'w1' }), 50));
    await expect(getWallet(channelsAt(origin, { timeoutMs: 2 ** 31 }))).resolves.toMatchObject({ wallet_id: 'w1' });
  });

  it.each([2 ** 31, 2 ** 32 + 5, Number.POSITIVE_INFINITY])('a timer of %s ms does not fire early', async (ms) => {
    let fired = 0;
    const cancel = startTimer(() => fired++, ms);
    await new Promise((resolve) => setTimeout(resolve, 60));
    cancel();
    expect(fired).toBe(0);
  });

  it('timeoutMs: 2**31 with no overall deadline does not time out at once', async () => {
    const { origin } = await server((_request, response) => setTimeout(() => sendJson(response, 200, { wallet_id: 'w1' }), 50));
    await expect(getWallet(channelsAt(origin, { timeoutMs: 2 ** 31, deadlineMs: 0 }))).resolves.toMatchObject({ wallet_id: 'w1' });
  });

  it('waitForOperation({ timeoutMs: Infinity }) waits for the operation', async () => {
    const statuses = ['accepted', 'sent', 'confirmed'];
    const { origin } = await server((_request, response, index) =>
      setTimeout(() => sendJson(response, 200, { operation_id: 'o', channel_id: 'c', status: statuses[Math.min(index, 2)] }), 20),
    );
    const done = await waitForOperation(channelsAt(origin), { channel_id: 'c', operation_id: 'o' }, { timeoutMs: Infinity, intervalMs: 5 });
    expect(done.status).toBe('confirmed');
  });

  it('retry.maxRetryAfterMs: 1e10 waits out a Retry-After of 30 days instead of retrying at once', async () => {
    const { origin, requests } = await server((_request, response) => sendJson(response, 503, {}, { 'retry-after': String(30 * 24 * 3600) }));
    const controller = new AbortController();
    const call = unwrap(
      channelsAt(origin, { retry: { maxRetryAfterMs: 1e10 }, deadlineMs: Infinity }).GET(WALLET, {
        params: { path: { wallet_id: 'w1' } },
        signal: controller.signal,
      }),
    ).catch((e) => e);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requests).toHaveLength(1);
    controller.abort();
    await call;
  });

  it.each([{ timeoutMs: -1 }, { timeoutMs: Number.NaN }, { deadlineMs: -5 }, { retry: { maxRetryAfterMs: -1 } }])(
    'a negative or NaN duration is a ConfigurationError: %o',
    (options) => {
      expect(() => createChannelsClient({ apiKey: KEY, ...options })).toThrow(ConfigurationError);
    },
  );
});

describe('6. an event wait cannot spin', () => {
  it('has_more with the same non-matching event: a wait between reads, then PaginationCycleError', async () => {
    const event = { headers: { offset: 7, type: 'operation.status', event_id: 'e', timestamp: 1 }, payload: { operation_id: 'other', status: 'accepted' } };
    const { origin, requests } = await server((_request, response) => sendJson(response, 200, { events: [event], has_more: true }));
    const started = Date.now();
    const error = await waitForOperationEvent(channelsAt(origin), { channel_id: 'c', operation_id: 'mine' }, 'confirmed', {
      intervalMs: 300,
      timeoutMs: 1_500,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(PaginationCycleError);
    expect(requests.length).toBeLessThanOrEqual(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});

describe('7. keys are checked at construction and never shown', () => {
  it.each(['k\u0000ey-secret-part', 'key with space', 'kéy-secret', 'key\r\nX-Evil: 1'])('apiKey %j is a ConfigurationError without the key', (apiKey) => {
    let error: unknown;
    try {
      createChannelsClient({ apiKey });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(String((error as Error).message)).not.toContain(apiKey.slice(0, 3) === 'key' ? apiKey : 'secret');
    expect(() => createPolicyClient({ apiKey })).toThrow(ConfigurationError);
  });

  it('a header value with a line break is a ConfigurationError that does not quote it', () => {
    const error = (() => {
      try {
        createChannelsClient({ apiKey: KEY, headers: { 'X-Token': 'tok-secret\r\nX-Evil: 1' } });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error!.message).not.toContain('tok-secret');
  });
});

describe('8. pagination refuses a lying server', () => {
  it('the same page for every offset', async () => {
    const { origin, requests } = await server((_request, response) => sendJson(response, 200, { data: [{ wallet_id: 'w1' }, { wallet_id: 'w2' }], has_more: true }));
    const error = await collect(paginate(channelsAt(origin), '/wallets')).catch((e) => e);
    expect(error).toBeInstanceOf(PaginationCycleError);
    expect(requests).toHaveLength(2);
  });

  it('pages that alternate A, B, A, B', async () => {
    const pages = [[{ wallet_id: 'a1' }, { wallet_id: 'a2' }], [{ wallet_id: 'b1' }, { wallet_id: 'b2' }]];
    const { origin, requests } = await server((_request, response, index) => sendJson(response, 200, { data: pages[index % 2], has_more: true }));
    const error = await collect(paginate(channelsAt(origin), '/wallets')).catch((e) => e);
    expect(error).toBeInstanceOf(PaginationCycleError);
    expect(requests).toHaveLength(3);
  });

  it('the same item at every offset, with a field that changes each time', async () => {
    const { origin, requests } = await server((_request, response, index) =>
      sendJson(response, 200, { data: [{ wallet_id: 'w1', updated_at: `2026-11-25T00:00:0${index % 10}Z` }], has_more: true }),
    );
    const error = await collect(paginate(channelsAt(origin), '/wallets')).catch((e) => e);
    expect(error).toBeInstanceOf(PaginationCycleError);
    expect(requests).toHaveLength(2);
  });

  it('coordinator pages that alternate, by page number', async () => {
    const { origin, requests } = await server((_request, response, index) =>
      sendJson(response, 200, { policy_engines: [{ id: `e${index % 2}`, name: `engine ${index}` }], page: index + 1, total_pages: 50, total: 50 }),
    );
    const policy = createPolicyClient({ apiKey: KEY, baseUrl: origin });
    const error = await collect(paginateCoordinator(policy.coordinator, '/policy-engines' as never, {} as never)).catch((e) => e);
    expect(error).toBeInstanceOf(PaginationCycleError);
    expect(requests).toHaveLength(3);
  });

  it('items that share only a foreign key are not a cycle', async () => {
    const { origin, requests } = await server((_request, response, index) =>
      sendJson(response, 200, { policies: [{ org_id: 'org-1', name: `policy ${index}` }], ...(index < 3 ? { next_page_token: `t${index}` } : {}) }),
    );
    const policy = createPolicyClient({ apiKey: KEY, baseUrl: origin });
    const items = await collect(paginateReporting(policy.reporting, '/policies' as never, { params: { query: {} } } as never));
    expect(items).toHaveLength(4);
    expect(requests).toHaveLength(4);
  });

  it('event positions going backwards', async () => {
    const { origin, requests } = await server((_request, response, index) => {
      const offset = 100 - index * 10;
      sendJson(response, 200, { events: [{ headers: { offset, type: 'wallet.status', event_id: `e${offset}`, timestamp: 1 }, payload: {} }], has_more: true });
    });
    const error = await collect(paginate(channelsAt(origin), '/channels/{channel_id}/events', { params: { path: { channel_id: 'c' } } })).catch((e) => e);
    expect(error).toBeInstanceOf(PaginationCycleError);
    expect(requests).toHaveLength(2);
  });

  it('pages that come back after 4,500 items are still caught (the window keeps at least 5,000)', async () => {
    // Bounded (200 pages), so a window too short fails here instead of walking forever.
    const { origin, requests } = await server((_request, response, index) =>
      sendJson(response, 200, { data: Array.from({ length: 100 }, (_, i) => ({ wallet_id: `w${(index % 45) * 100 + i}` })), has_more: index < 199 }),
    );
    const error = await collect(paginate(channelsAt(origin), '/wallets', { pageSize: 100 })).catch((e) => e);
    expect(error).toBeInstanceOf(PaginationCycleError);
    expect(requests).toHaveLength(46);
  });

  it('a long walk of distinct items (30,000) is never taken for a cycle', async () => {
    const { origin, requests } = await server((_request, response, index) =>
      sendJson(response, 200, { data: Array.from({ length: 100 }, (_, i) => ({ wallet_id: `w${index * 100 + i}` })), has_more: index < 299 }),
    );
    const items = await collect(paginate(channelsAt(origin), '/wallets', { pageSize: 100 }));
    expect(items).toHaveLength(30_000);
    expect(requests).toHaveLength(300);
  });

  it('a page-token cycle A → B → A', async () => {
    const tokens = ['A', 'B', 'A', 'B'];
    const { origin, requests } = await server((_request, response, index) =>
      sendJson(response, 200, { transactions: [{ id: `t${index}` }], next_page_token: tokens[index] }),
    );
    const policy = createPolicyClient({ apiKey: KEY, baseUrl: origin });
    const error = await collect(paginateReporting(policy.reporting, '/transactions', { params: { query: {} } } as never)).catch((e) => e);
    expect(error).toBeInstanceOf(PaginationCycleError);
    expect(requests).toHaveLength(3);
  });
});

describe('9. a call as a whole has a deadline', () => {
  it('a Retry-After beyond what is left of deadlineMs is not waited out', async () => {
    const { origin, requests } = await server((_request, response) => sendJson(response, 503, { type: 'UNAVAILABLE', message: 'later' }, { 'retry-after': '5' }));
    const call = getWallet(channelsAt(origin, { deadlineMs: 3_000 })).catch((e) => e);
    expect(await within(call, 1_500)).toBe('resolved');
    expect(await call).toBeInstanceOf(ApiError);
    expect(requests).toHaveLength(1);
  });

  it('the deadline covers the body', async () => {
    const { origin } = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      trickle(response, '{"wallet_id":"w1"}', 1_000);
    });
    const error = await getWallet(channelsAt(origin, { deadlineMs: 400 })).catch((e) => e);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(error.kind).toBe('deadline');
  });

  it('a call can set its own deadlineMs', async () => {
    const { origin } = await server((_request, response) => setTimeout(() => sendJson(response, 200, { wallet_id: 'w1' }), 2_000).unref());
    const channels = channelsAt(origin);
    const call = unwrap(channels.GET(WALLET, { params: { path: { wallet_id: 'w1' } }, deadlineMs: 300 } as never)).catch((e) => e);
    expect(await within(call, 1_500)).toBe('resolved');
    expect(await call).toMatchObject({ name: 'ApiTimeoutError', kind: 'deadline' });
  });

  it.each([0, Number.POSITIVE_INFINITY])("a call's deadlineMs: %s turns off the client's deadline for that call", async (deadlineMs) => {
    const { origin } = await server((_request, response) => setTimeout(() => sendJson(response, 200, { wallet_id: 'w1' }), 300).unref());
    const channels = channelsAt(origin, { deadlineMs: 100 });
    await expect(unwrap(channels.GET(WALLET, { params: { path: { wallet_id: 'w1' } }, deadlineMs } as never))).resolves.toMatchObject({ wallet_id: 'w1' });
  });
});

describe('10. configuration is checked at construction', () => {
  it.each(['http://[bad', 'http://exa mple.com', 'http://127.0.0.1:99999', 'ftp://example.com', 'https://example.com/v1?x=1'])('baseUrl %j', (baseUrl) => {
    expect(() => createChannelsClient({ apiKey: KEY, baseUrl })).toThrow(ConfigurationError);
  });

  it('a baseUrl with user:password@ is refused without echoing the password', () => {
    let error: Error | undefined;
    try {
      createChannelsClient({ apiKey: KEY, baseUrl: 'https://user:hunter2-password@example.com/v1' });
    } catch (e) {
      error = e as Error;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error!.message).not.toContain('hunter2');
    expect(() => createPolicyClient({ apiKey: KEY, baseUrl: 'https://user:hunter2@example.com' })).toThrow(ConfigurationError);
    expect(() => createPolicyClient({ apiKey: KEY, baseUrl: 42 as never })).toThrow(ConfigurationError);
  });

  it.each(['abc', true, null, { retrys: 0 }, { retries: 2.5 }, { retries: -1 }, [1]])('retry %j', (retry) => {
    expect(() => createChannelsClient({ apiKey: KEY, retry: retry as never })).toThrow(ConfigurationError);
  });
});

describe('11. decodeReport throws only ReportDecodeError, with short messages', () => {
  it.each([10n, 10, null, {}, Symbol('x')])('feedID argument %s', (feedID) => {
    expect(() => decodeReport(VALID_REPORT, feedID as never)).toThrow(ReportDecodeError);
    expect(() => reportVersionOf(feedID as never)).toThrow(ReportDecodeError);
  });

  it('a 10 MB feedID is not copied into the message', () => {
    const huge = `0x${'ab'.repeat(5_000_000)}`;
    for (const call of [() => decodeReport(VALID_REPORT, huge), () => reportVersionOf(huge)]) {
      let error: Error | undefined;
      try {
        call();
      } catch (e) {
        error = e as Error;
      }
      expect(error).toBeInstanceOf(ReportDecodeError);
      expect(error!.message.length).toBeLessThan(400);
    }
  });
});

describe('every failure above is an SdkError', () => {
  it('the error classes the probes expect share the base class', () => {
    for (const type of [ApiConnectionError, ApiTimeoutError, InvalidResponseBodyError, UnexpectedRedirectError, PaginationCycleError, ConfigurationError]) {
      expect(type.prototype).toBeInstanceOf(SdkError);
    }
  });

  it('a report that does not decode, read through a helper, is an SdkError', async () => {
    const { origin } = await server((_request, response) =>
      sendJson(response, 200, { report: { feedID: ETH_USD, fullReport: '0x00', validFromTimestamp: 1, observationsTimestamp: 2 } }),
    );
    const streams = createStreamsClient({ apiKey: STREAMS_KEY, apiSecret: SECRET, baseUrl: origin });
    const error = await getLatestReport(streams, ETH_USD, { decode: true }).catch((e) => e);
    expect(error).toBeInstanceOf(ReportDecodeError);
    expect(error).toBeInstanceOf(SdkError);
  });

  it.each([{ 'content-length': '16' }, {}])('a truncated JSON body through the plain client (no unwrap) is an InvalidResponseBodyError naming the operation, headers %j', async (length) => {
    const { origin } = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', ...length });
      response.end('{"wallet_id":"w1');
    });
    const error = await channelsAt(origin)
      .GET(WALLET, { params: { path: { wallet_id: 'w1' } } })
      .catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResponseBodyError);
    expect(error.message).toContain('GET /wallets/{wallet_id}');
  });
});
