// Property: whatever a hostile server answers (any status, headers, body,
// delay, reset or redirect), every helper of the three entries settles
// within its deadline plus a little slack, throws nothing but SdkErrors, and
// never shows a key or secret in what it throws.
import fc from 'fast-check';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as channelsEntry from '../../src/channels/index.js';
import * as policyEntry from '../../src/policy/index.js';
import * as streamsEntry from '../../src/streams/index.js';
import { SdkError } from '../../src/core/errors.js';
import { startLocalServer, type LocalServer } from '../support/local-server.js';

const API_KEY = 'k_prop_5ecret_api_key_0123';
const STREAMS_KEY = '123e4567-e89b-12d3-a456-426614174000';
const SECRET = 'prop-hmac-secret-9f8e7d';
const FEED = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';

/** One scripted answer of the hostile server. */
interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: 'json' | 'html' | 'empty' | 'truncated' | 'null' | 'array';
  json: unknown;
  delayMs: number;
  reset: boolean;
  trickle: boolean;
  redirect: 'elsewhere' | 'same' | 'garbage' | undefined;
}

const answerArbitrary: fc.Arbitrary<Answer> = fc.record({
  status: fc.constantFrom(200, 201, 202, 204, 206, 301, 302, 307, 308, 400, 401, 404, 409, 429, 500, 502, 503),
  retryAfter: fc.constantFrom(undefined, '0', '1', '86400', '-3', 'soon', 'Wed, 21 Oct 2099 07:28:00 GMT'),
  body: fc.constantFrom('json', 'html', 'empty', 'truncated', 'null', 'array'),
  json: fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constant({ data: [{ id: 1 }], has_more: true }),
    fc.constant({ events: [{ headers: { offset: 1, type: 'operation.status' }, payload: { operation_id: 'o', status: 'sent' } }], has_more: true }),
    fc.constant({ operation_id: 'o', status: 'sending' }),
    fc.constant({ report: { feedID: FEED, fullReport: '0x00', validFromTimestamp: 1, observationsTimestamp: 2 } }),
    fc.constant({ reports: [], next_page_token: 'A' }),
  ),
  delayMs: fc.constantFrom(0, 0, 0, 30, 150),
  reset: fc.integer({ min: 0, max: 6 }).map((n) => n === 0),
  trickle: fc.boolean(),
  redirect: fc.constantFrom(undefined, undefined, 'elsewhere', 'same', 'garbage'),
});

let elsewhere: LocalServer;
let hostile: LocalServer;
let script: Answer[] = [];

function play(answer: Answer, response: ServerResponse, url: string): void {
  if (answer.redirect !== undefined && answer.status >= 301 && answer.status <= 308) {
    const location =
      answer.redirect === 'elsewhere' ? `${elsewhere.origin}${url}` : answer.redirect === 'same' ? `${url}${url.includes('?') ? '&' : '?'}r=1` : 'http://[bad';
    response.writeHead(answer.status, { location });
    response.end();
    return;
  }
  const text =
    answer.body === 'json'
      ? JSON.stringify(answer.json)
      : answer.body === 'html'
        ? '<html><body>Bad gateway</body></html>'
        : answer.body === 'truncated'
          ? '{"data":[{"id":'
          : answer.body === 'null'
            ? 'null'
            : answer.body === 'array'
              ? '[]'
              : '';
  const headers: Record<string, string> = { 'content-type': answer.body === 'html' ? 'text/html' : 'application/json' };
  if (answer.retryAfter !== undefined) headers['retry-after'] = answer.retryAfter;
  if (answer.status === 204) {
    response.writeHead(204, headers);
    response.end();
    return;
  }
  response.writeHead(answer.status, headers);
  response.flushHeaders();
  if (answer.reset) {
    response.write(text.slice(0, Math.floor(text.length / 2)));
    setTimeout(() => response.socket?.destroy(), 5);
    return;
  }
  if (answer.trickle && text.length > 0) {
    let index = 0;
    const timer = setInterval(() => {
      if (response.destroyed || index >= text.length) {
        clearInterval(timer);
        if (!response.destroyed) response.end();
        return;
      }
      response.write(text.slice(index, (index += 4)));
    }, 40);
    response.on('close', () => clearInterval(timer));
    return;
  }
  response.end(text);
}

beforeAll(async () => {
  elsewhere = await startLocalServer((_request, response) => response.end('{}'));
  hostile = await startLocalServer((request, response, index) => {
    const answer = script[index % Math.max(1, script.length)]!;
    setTimeout(() => play(answer, response, request.url ?? '/'), answer.delayMs);
  });
});
afterAll(async () => {
  await Promise.all([elsewhere.close(), hostile.close()]);
});

const TIMEOUT_MS = 200;
const DEADLINE_MS = 500;
const common = {
  timeoutMs: TIMEOUT_MS,
  deadlineMs: DEADLINE_MS,
  retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 100 },
};
const poll = { timeoutMs: DEADLINE_MS, intervalMs: 10 };

/** Each helper, and the time it may take: one call's deadline, or several for walks over pages. */
const helpers: Record<string, { bound: number; run: () => Promise<unknown> }> = (() => {
  const channels = () => channelsEntry.createChannelsClient({ apiKey: API_KEY, baseUrl: `${hostile.origin}/v1`, ...common });
  const streams = () => streamsEntry.createStreamsClient({ apiKey: STREAMS_KEY, apiSecret: SECRET, baseUrl: hostile.origin, ...common });
  const policy = () => policyEntry.createPolicyClient({ apiKey: API_KEY, baseUrl: hostile.origin, ...common });
  const single = DEADLINE_MS;
  const walk = DEADLINE_MS * 4;
  const wait = DEADLINE_MS * 2;
  const ref = { channel_id: 'c', operation_id: 'o' };
  return {
    unwrapGet: { bound: single, run: () => channelsEntry.unwrap(channels().GET('/wallets/{wallet_id}', { params: { path: { wallet_id: 'w' } } })) },
    paginate: { bound: walk, run: () => channelsEntry.collect(channelsEntry.paginate(channels(), '/wallets', { maxItems: 3 })) },
    createOperation: { bound: single * 2, run: () => channelsEntry.createOperation(channels(), 'c', { wallet_operation_id: 'op-1' } as never) },
    createQuery: { bound: single, run: () => channelsEntry.createQuery(channels(), 'c', {} as never) },
    waitForOperation: { bound: wait, run: () => channelsEntry.waitForOperation(channels(), ref, poll) },
    waitForOperationEvent: { bound: wait, run: () => channelsEntry.waitForOperationEvent(channels(), ref, 'confirmed', poll) },
    getLatestReport: { bound: single, run: () => streamsEntry.getLatestReport(streams(), FEED, { decode: true }) },
    getBulkReports: { bound: single, run: () => streamsEntry.getBulkReports(streams(), [FEED], 1) },
    getReportsPage: { bound: single, run: () => streamsEntry.getReportsPage(streams(), { feedID: FEED, startTimestamp: 1 }) },
    paginateReports: { bound: walk, run: () => streamsEntry.collect(streamsEntry.paginateReports(streams(), { feedID: FEED, from: 1, maxItems: 3 })) },
    listStreams: { bound: single, run: () => streamsEntry.listStreams(streams()) },
    requestEvaluation: { bound: single, run: () => policyEntry.requestEvaluation(policy(), { unique_evaluation_id: 'e-1' } as never) },
    waitForEvaluation: { bound: wait, run: () => policyEntry.waitForEvaluation(policy(), 'permit', poll) },
    paginateCoordinator: { bound: walk, run: () => policyEntry.collect(policyEntry.paginateCoordinator(policy().coordinator, '/policies', { maxItems: 3 } as never)) },
    paginateReporting: { bound: walk, run: () => policyEntry.collect(policyEntry.paginateReporting(policy().reporting, '/transactions', { maxItems: 3 } as never)) },
  };
})();

/** Every text an error shows: message, stack, JSON and its causes'. */
function textsOf(error: unknown, depth = 0): string[] {
  if (!(error instanceof Error) || depth > 3) return [String(error)];
  let json = '';
  try {
    json = JSON.stringify(error);
  } catch {
    json = '';
  }
  return [error.message, String(error.stack), json, ...textsOf((error as { cause?: unknown }).cause, depth + 1)];
}

describe('every helper against a hostile server', () => {
  it('settles within its deadline, throws only SdkErrors, and shows no secret', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(helpers)), fc.array(answerArbitrary, { minLength: 1, maxLength: 6 }), async (name, answers) => {
        script = answers;
        hostile.requests.length = 0;
        const helper = helpers[name]!;
        const started = Date.now();
        let thrown: unknown;
        await helper.run().catch((error: unknown) => {
          thrown = error;
        });
        const took = Date.now() - started;
        expect(took, `${name} took ${took} ms`).toBeLessThanOrEqual(helper.bound + 400);
        if (thrown !== undefined) {
          expect(thrown, `${name} threw ${String(thrown)}`).toBeInstanceOf(SdkError);
          for (const text of textsOf(thrown)) {
            expect(text).not.toContain(API_KEY);
            expect(text).not.toContain(SECRET);
          }
        }
        expect(elsewhere.requests, 'a request followed a redirect to another origin').toHaveLength(0);
      }),
      { numRuns: 120 },
    );
  }, 120_000);
});
