// Operable in production: every call's own options are honoured or refused,
// every attempt is visible (middleware, hooks, the logger, the errors), and a
// rate limit is recognisable whatever the API calls it. Against the sandbox,
// through the public entries.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiConnectionError, ApiError, ApiTimeoutError, ConfigurationError, createChannelsClient, isChannelsError, isRateLimited, RateLimitError, unwrap, type AttemptEnd, type Logger } from '../../src/channels/index.js';
import { createPolicyClient, requestEvaluation, waitForEvaluation } from '../../src/policy/index.js';
import { transferEvaluation } from '../support/policy-requests.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createStreamsClient, getLatestReport, withResponse } from '../../src/streams/index.js';
import { readmeClaim } from '../support/readme-claim.js';
import { rejection } from '../support/rejection.js';

const ACME = 'https://acme.example/v1';
let sandbox: Sandbox | undefined;

function start(): Sandbox {
  sandbox = createSandbox();
  return sandbox;
}

afterEach(() => {
  sandbox?.close();
  sandbox = undefined;
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** A `fetch` over the sandbox's that counts the requests sent. */
function counting(of: Sandbox): { fetch: Sandbox['fetch']; sent: string[] } {
  const sent: string[] = [];
  return { sent, fetch: (input, init) => (sent.push((input as Request).url), of.fetch(input, init)) };
}

/** A logger that keeps every line with its level. */
function recordingLogger(): Logger & { lines: { level: string; message: string; fields: unknown }[] } {
  const lines: { level: string; message: string; fields: unknown }[] = [];
  const at = (level: string) => (message: string, fields?: unknown) => void lines.push({ level, message, fields });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** No retry waits: the back-off is random up to this, so keep it tiny. */
const QUICK = { baseDelayMs: 1, maxDelayMs: 1 };

describe('per-call options', () => {
  it(readmeClaim("`timeoutMs`, `deadlineMs` and `retry` can be set for one call beside openapi-fetch's own"), async () => {
    const sandbox = start();
    const counted = counting(sandbox);
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl: ACME, fetch: counted.fetch, retry: QUICK });
    sandbox.inject({ route: 'listNetworks', status: 503, times: 1 });
    const { response } = await channels.GET('/networks', { retry: false });
    expect(response.status).toBe(503);
    expect(counted.sent).toHaveLength(1);
    sandbox.inject({ route: 'listNetworks', status: 503, times: 1 });
    expect((await channels.GET('/networks')).response.status).toBe(200);
    expect(counted.sent).toHaveLength(3);
  });

  it('retry: { retries: 1 } on one call makes at most two attempts', async () => {
    const sandbox = start();
    const counted = counting(sandbox);
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl: ACME, fetch: counted.fetch, retry: QUICK });
    sandbox.inject({ route: 'listNetworks', status: 503, times: 5 });
    const error = await rejection(unwrap(channels.GET('/networks', { retry: { retries: 1, ...QUICK } })));
    expect(error).toBeInstanceOf(ApiError);
    expect(counted.sent).toHaveLength(2);
  });

  it("timeoutMs on one call ends a hung attempt at that call's limit, not the client's", async () => {
    const hung = (_request: Request, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason), { once: true }));
    const channels = createChannelsClient({ apiKey: 'k'.repeat(32), baseUrl: ACME, fetch: hung, timeoutMs: 600_000, deadlineMs: 0 });
    const error = await rejection(channels.GET('/networks', { timeoutMs: 50, retry: false }));
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 50, kind: 'attempt' });
  });

  it(readmeClaim('An option a call or a client does not know is a type error and, at run time, a `ConfigurationError` naming it (and the nearest known one)'), async () => {
    const sandbox = start();
    const counted = counting(sandbox);
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl: ACME, fetch: counted.fetch });
    // @ts-expect-error -- not an option of a call
    const error = await rejection(channels.GET('/networks', { timeoutMS: 300 }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ option: 'timeoutMS' });
    expect((error as Error).message).toContain('did you mean `timeoutMs`');
    // @ts-expect-error -- not an option of a call
    expect(await rejection(channels.GET('/networks', { bogusOption: 1 }))).toMatchObject({ name: 'ConfigurationError', option: 'bogusOption' });
    expect(counted.sent).toEqual([]);
  });

  it('a misspelt client option is a ConfigurationError naming it', () => {
    // @ts-expect-error -- not an option of the client
    expect(() => createChannelsClient({ apiKey: 'k'.repeat(32), bogusOption: 1 })).toThrow(ConfigurationError);
    // @ts-expect-error -- not an option of the client
    expect(() => createStreamsClient({ apiKey: '123e4567-e89b-12d3-a456-426614174000', apiSecret: 's', deadlineMS: 3 })).toThrow(/`deadlineMS`.*did you mean `deadlineMs`/);
    // @ts-expect-error -- not an option of the client
    expect(() => createPolicyClient({ apiKey: 'k'.repeat(32), timeout: 5 })).toThrow(/`timeout`/);
  });
});

describe('per-call options for helpers: client.withOptions', () => {
  const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';

  it(readmeClaim('give it `client.withOptions({ timeoutMs, deadlineMs, retry, headers, signal })` and each of its calls carries them'), async () => {
    const sandbox = start();
    const counted = counting(sandbox);
    const streams = createStreamsClient({ ...sandbox.credentials.streams, fetch: counted.fetch, retry: QUICK });
    sandbox.inject({ route: 'getLatestReport', status: 503, times: 1 });
    expect(await rejection(getLatestReport(streams.withOptions({ retry: false }), ETH_USD))).toMatchObject({ status: 503 });
    expect(counted.sent).toHaveLength(1);
    sandbox.inject({ route: 'getLatestReport', status: 503, times: 1 });
    expect((await getLatestReport(streams, ETH_USD)).feedID).toBe(ETH_USD);
    expect(counted.sent).toHaveLength(3);
  });

  it('headers of withOptions reach every call of the helper; a misspelt option is refused', async () => {
    const sandbox = start();
    const seen: (string | null)[] = [];
    const policy = createPolicyClient({
      apiKey: sandbox.credentials.policy.apiKey,
      fetch: (input, init) => (seen.push((input as Request).headers.get('x-correlation-id')), sandbox.fetch(input, init)),
    });
    const tagged = policy.withOptions({ headers: { 'x-correlation-id': 'job-42' } });
    const accepted = await requestEvaluation(tagged, transferEvaluation('b6f0c1e2-3d4a-4b5c-8d9e-0f1a2b3c4d5e'));
    await waitForEvaluation(tagged, accepted.permit_id, { intervalMs: 10 });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(new Set(seen)).toEqual(new Set(['job-42']));
    // @ts-expect-error -- not an option withOptions takes
    expect(() => policy.withOptions({ timeout: 5 })).toThrow(ConfigurationError);
  });
});

describe('raw answers of helpers: withResponse', () => {
  it(readmeClaim('returns its result as `data` with `response`, the last HTTP answer its calls got (status, headers, `requestId`, `operation`, `attempts`)'), async () => {
    const sandbox = start();
    const streams = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch, retry: QUICK });
    sandbox.inject({ route: 'getLatestReport', status: 503, times: 1 });
    const { data, response, responses } = await withResponse(streams, (s) => getLatestReport(s, '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782'));
    expect(data.feedID).toMatch(/^0x0003/);
    expect(responses).toHaveLength(1);
    expect(response).toMatchObject({ status: 200, operation: { method: 'GET', path: '/api/v1/reports/latest', urlPath: '/api/v1/reports/latest' } });
    expect(response!.attempts.map((a) => a.status)).toEqual([503, 200]);
    expect(response!.headers.get('content-type')).toContain('application/json');
  });

  it(readmeClaim('and `responses`, all of them in order'), async () => {
    const sandbox = start();
    const policy = createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, fetch: sandbox.fetch });
    const { data, responses } = await withResponse(policy, (p) => requestEvaluation(p, transferEvaluation('c7a1d2e3-4f5a-4b6c-9d0e-1f2a3b4c5d6e')));
    expect(typeof data.permit_id).toBe('string');
    expect(responses.map((r) => `${r.operation.method} ${r.operation.path} ${r.status}`)).toEqual([expect.stringMatching(/^POST \/evaluate 20\d$/)]);
  });
});

describe('every attempt visible', () => {
  it(readmeClaim('its `onRequest`, `onResponse` and `onError` see each retry, with `attempt` (1, 2, …) on their argument'), async () => {
    const sandbox = start();
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl: ACME, fetch: sandbox.fetch, retry: QUICK });
    const seen: string[] = [];
    channels.use({
      onRequest: ({ request, schemaPath, ...rest }) => void seen.push(`request ${(rest as { attempt?: number }).attempt} ${request.method} ${schemaPath}`),
      onResponse: ({ response, ...rest }) => void seen.push(`response ${(rest as { attempt?: number }).attempt} ${response.status}`),
    });
    sandbox.inject({ route: 'listNetworks', status: 503, times: 2 });
    await unwrap(channels.GET('/networks'));
    expect(seen).toEqual([
      'request 1 GET /networks',
      'response 1 503',
      'request 2 GET /networks',
      'response 2 503',
      'request 3 GET /networks',
      'response 3 200',
    ]);
  });

  it(readmeClaim('`hooks: { beforeAttempt, afterAttempt }` are called around every attempt, retries included'), async () => {
    const sandbox = start();
    const ends: AttemptEnd[] = [];
    const starts: number[] = [];
    const channels = createChannelsClient({
      apiKey: sandbox.credentials.channels.apiKey,
      baseUrl: ACME,
      fetch: sandbox.fetch,
      retry: QUICK,
      hooks: { beforeAttempt: (attempt) => void starts.push(attempt.attempt), afterAttempt: (attempt) => void ends.push(attempt) },
    });
    sandbox.inject({ route: 'listNetworks', status: 503, times: 2 });
    await unwrap(channels.GET('/networks'));
    expect(starts).toEqual([1, 2, 3]);
    expect(ends.map((end) => [end.attempt, end.status, end.retry.willRetry])).toEqual([
      [1, 503, true],
      [2, 503, true],
      [3, 200, false],
    ]);
    expect(ends[0]!.operation).toEqual({ method: 'GET', path: '/networks', urlPath: '/v1/networks' });
    expect(ends[0]!.retry.reason).toBe('503 is transient');
  });

  it(readmeClaim('A hook that throws does not break the call.'), async () => {
    const sandbox = start();
    const channels = createChannelsClient({
      apiKey: sandbox.credentials.channels.apiKey,
      baseUrl: ACME,
      fetch: sandbox.fetch,
      hooks: {
        afterAttempt: () => {
          throw new Error('hook bug');
        },
      },
    });
    expect((await unwrap(channels.GET('/networks'))).data.length).toBeGreaterThan(0);
  });

  it(readmeClaim('it writes one line per attempt: method, path template, attempt number, status or error class, duration'), async () => {
    const sandbox = start();
    const logger = recordingLogger();
    const apiKey = sandbox.credentials.channels.apiKey;
    const channels = createChannelsClient({ apiKey, baseUrl: ACME, fetch: sandbox.fetch, retry: QUICK, logger, logLevel: 'debug' });
    const channel = await unwrap(channels.POST('/channels', { body: { name: 'payouts' } }));
    logger.lines.length = 0;
    sandbox.inject({ route: 'getChannel', status: 503, times: 2 });
    await unwrap(channels.GET('/channels/{channel_id}', { params: { path: { channel_id: channel.channel_id } } }));
    expect(logger.lines.map((line) => line.level)).toEqual(['info', 'info', 'debug']);
    expect(logger.lines.map((line) => line.message)).toEqual([
      expect.stringMatching(/^service-sdk: GET \/channels\/\{channel_id\} attempt 1\/3: 503 in \d+ ms.*; retrying in \d+ ms: 503 is transient$/),
      expect.stringMatching(/attempt 2\/3: 503 in \d+ ms.*; retrying/),
      expect.stringMatching(/attempt 3\/3: 200 in \d+ ms.*; not retried: answered$/),
    ]);
    expect(JSON.stringify(logger.lines)).not.toContain(apiKey);
  });

  it(readmeClaim('`info` (the default with a logger) the attempts that are retried'), async () => {
    const sandbox = start();
    const logger = recordingLogger();
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl: ACME, fetch: sandbox.fetch, retry: QUICK, logger });
    sandbox.inject({ route: 'listNetworks', status: 503, times: 1 });
    await unwrap(channels.GET('/networks'));
    await unwrap(channels.GET('/networks'));
    expect(logger.lines.map((line) => `${line.level} ${line.message.replace(/ in \d+ ms.*$/, '')}`)).toEqual(['info service-sdk: GET /networks attempt 1/3: 503']);
  });

  it(readmeClaim('`warn` only calls that end without an answer or with a 429 or 5xx'), async () => {
    const sandbox = start();
    const logger = recordingLogger();
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl: ACME, fetch: sandbox.fetch, retry: QUICK, logger, logLevel: 'warn' });
    sandbox.inject({ route: 'listNetworks', status: 503, times: 4 });
    await rejection(unwrap(channels.GET('/networks')));
    await rejection(unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: '3fa85f64-5717-4562-b3fc-2c963f66afa6' } } })));
    sandbox.inject({ route: 'listNetworks', drop: true, times: 3 });
    await rejection(unwrap(channels.GET('/networks')));
    expect(logger.lines.map((line) => `${line.level} ${line.message.replace(/ in \d+ ms.*$/, '')}`)).toEqual([
      'warn service-sdk: GET /networks attempt 3/3: 503',
      'warn service-sdk: GET /networks attempt 3/3: ApiConnectionError',
    ]);
  });

  it(readmeClaim('No log line holds an API key, a secret or a signature.'), async () => {
    const sandbox = start();
    const logger = recordingLogger();
    const signatures: string[] = [];
    const spy: Sandbox['fetch'] = (input, init) => {
      signatures.push((input as Request).headers.get('X-Authorization-Signature-SHA256') ?? '');
      return sandbox.fetch(input, init);
    };
    const options = { fetch: spy, retry: QUICK, logger, logLevel: 'debug' as const };
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl: ACME, ...options });
    const streams = createStreamsClient({ ...sandbox.credentials.streams, ...options });
    const policy = createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, ...options });
    sandbox.inject({ status: 503, times: 1 });
    await unwrap(channels.GET('/networks'));
    sandbox.inject({ status: 503, times: 1 });
    await unwrap(streams.GET('/api/v1/discovery'));
    sandbox.inject({ status: 503, times: 1 });
    await unwrap(policy.coordinator.GET('/policy-engines'));
    const logged = JSON.stringify(logger.lines);
    expect(logger.lines.length).toBeGreaterThanOrEqual(6);
    const secrets = [sandbox.credentials.channels.apiKey, sandbox.credentials.streams.apiKey, sandbox.credentials.streams.apiSecret, sandbox.credentials.policy.apiKey, ...signatures.filter(Boolean)];
    expect(secrets.length).toBeGreaterThan(4);
    for (const secret of secrets) expect(logged).not.toContain(secret);
  });

  it(readmeClaim('With no logger, setting the `SERVICE_SDK_LOG` environment variable to a level logs on `console`'), async () => {
    const sandbox = start();
    vi.stubEnv('SERVICE_SDK_LOG', 'debug');
    const lines: string[] = [];
    for (const level of ['debug', 'info', 'warn'] as const) vi.spyOn(console, level).mockImplementation((message: string) => void lines.push(`${level} ${message}`));
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl: ACME, fetch: sandbox.fetch, retry: QUICK });
    sandbox.inject({ route: 'listNetworks', status: 503, times: 2 });
    await unwrap(channels.GET('/networks'));
    expect(lines.map((line) => line.replace(/ in \d+ ms.*$/, ''))).toEqual([
      'info service-sdk: GET /networks attempt 1/3: 503',
      'info service-sdk: GET /networks attempt 2/3: 503',
      'debug service-sdk: GET /networks attempt 3/3: 200',
    ]);
  });

  it('an unknown SERVICE_SDK_LOG level is a ConfigurationError naming the variable', () => {
    vi.stubEnv('SERVICE_SDK_LOG', 'verbose');
    expect(() => createChannelsClient({ apiKey: 'k'.repeat(32) })).toThrow(/SERVICE_SDK_LOG/);
  });

  it(readmeClaim('with more than one attempt their message lists them (`(3 attempts: 503, 503, 503)`)'), async () => {
    const sandbox = start();
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl: ACME, fetch: sandbox.fetch, retry: QUICK });
    sandbox.inject({ route: 'listNetworks', status: 503, times: 3 });
    const error = (await rejection(unwrap(channels.GET('/networks')))) as ApiError;
    expect(error.attempts.map((a) => a.status)).toEqual([503, 503, 503]);
    for (const attempt of error.attempts) expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
    expect(error.message).toContain('(3 attempts: 503, 503, 503)');

    sandbox.inject({ route: 'listNetworks', drop: true, times: 3 });
    const dropped = (await rejection(unwrap(channels.GET('/networks')))) as ApiConnectionError;
    expect(dropped).toBeInstanceOf(ApiConnectionError);
    expect(dropped.attempts.map((a) => a.error)).toEqual(['ApiConnectionError', 'ApiConnectionError', 'ApiConnectionError']);
  });

  it(readmeClaim('Their `operation` names the method, the path template (`path`) and the concrete path sent (`urlPath`).'), async () => {
    const sandbox = start();
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl: ACME, fetch: sandbox.fetch, retry: false });
    const wallet_id = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
    const notFound = (await rejection(unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id } } })))) as ApiError;
    sandbox.inject({ route: 'getWallet', drop: true });
    const dropped = (await rejection(unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id } } })))) as ApiConnectionError;
    const expected = { method: 'GET', path: '/wallets/{wallet_id}', urlPath: `/v1/wallets/${wallet_id}` };
    expect(notFound.operation).toEqual(expected);
    expect(dropped.operation).toEqual(expected);
  });
});

describe('rate limits', () => {
  it(readmeClaim('the channels API\'s `type` is `VALIDATION_ERROR`, the policy and streams APIs\' their own. Test `isRateLimited(error)` before testing `type`.'), async () => {
    const sandbox = start();
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl: ACME, fetch: sandbox.fetch, retry: false });
    sandbox.inject({ route: 'listNetworks', status: 429, retryAfter: 7 });
    const error = await rejection(unwrap(channels.GET('/networks')));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(isRateLimited(error)).toBe(true);
    expect((error as RateLimitError).retryAfterMs).toBe(7000);
    expect(isChannelsError(error)).toBe(true);
    sandbox.inject({ route: 'listNetworks', status: 400 });
    expect(isRateLimited(await rejection(unwrap(channels.GET('/networks'))))).toBe(false);
  });

  it('the policy and streams APIs rate limits are RateLimitErrors too', async () => {
    const sandbox = start();
    const policy = createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, fetch: sandbox.fetch, retry: false });
    const streams = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch, retry: false });
    sandbox.inject({ status: 429, times: 2 });
    expect(isRateLimited(await rejection(unwrap(policy.coordinator.GET('/policy-engines'))))).toBe(true);
    expect(isRateLimited(await rejection(unwrap(streams.GET('/api/v1/discovery'))))).toBe(true);
  });
});
