import { describe, expect, it } from 'vitest';
import { apiErrorFromBody } from '../../src/core/error-body.js';
import { ApiError, isApiError } from '../../src/core/errors.js';

const op = { method: 'POST', path: '/channels/{channel_id}/queries', urlPath: '/v1/channels/c1/queries' };
const response = (status: number, headers: Record<string, string> = {}) =>
  new Response(null, { status, statusText: 'Status Text', headers });

describe('apiErrorFromBody', () => {
  it('reads the {type, code, message} body', () => {
    const error = apiErrorFromBody(
      response(409, { 'x-request-id': 'req-1' }),
      { type: 'CONFLICT', code: 'IDEMPOTENCY_KEY_MISMATCH', message: 'key reused' },
      op,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, type: 'CONFLICT', code: 'IDEMPOTENCY_KEY_MISMATCH', requestId: 'req-1' });
    expect(error.message).toBe(
      'POST /channels/{channel_id}/queries failed with 409 CONFLICT/IDEMPOTENCY_KEY_MISMATCH: key reused',
    );
    expect(error.headers.get('x-request-id')).toBe('req-1');
    expect(error.operation).toEqual(op);
  });

  it('reads the {error, message} body of the coordinator and evaluation', () => {
    const error = apiErrorFromBody(response(404), { error: 'Not found', message: 'no such policy' }, op);
    expect(error).toMatchObject({ status: 404, type: 'Not found', code: undefined, message: expect.stringContaining('no such policy') });
  });

  it('reads the {code, message, request_id} body of reporting', () => {
    const error = apiErrorFromBody(response(400), { code: 'INVALID_ARGUMENT', message: 'bad as_of', request_id: 'r-9' }, op);
    expect(error).toMatchObject({ type: 'INVALID_ARGUMENT', requestId: 'r-9' });
  });

  it.each([
    ['an HTML page', '<html><body><h1>502 Bad Gateway</h1></body></html>', 'unexpected body: <html><body><h1>502 Bad Gateway</h1></body></html>'],
    ['an empty body', undefined, 'empty body'],
    ['an empty string', '', 'empty body'],
    ['a JSON array', [1, 2], 'unexpected error body shape'],
    ['JSON null', null, 'unexpected error body shape'],
  ])('still gives an ApiError with the status for %s', (_what, body, fragment) => {
    const error = apiErrorFromBody(response(502), body, op);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(502);
    expect(error.type).toBe('HTTP_502');
    expect(error.message).toContain(fragment);
    expect(error.body).toBe(body);
  });

  it('quotes at most 200 characters of a long text body', () => {
    const error = apiErrorFromBody(response(500), 'x'.repeat(10_000), op);
    expect(error.message.length).toBeLessThan(400);
  });
});

describe('isApiError', () => {
  const error = apiErrorFromBody(response(409), { type: 'CONFLICT', code: 'WALLET_ALREADY_EXISTS', message: 'm' }, op);
  it('narrows by type and code', () => {
    expect(isApiError(error)).toBe(true);
    expect(isApiError(error, 'CONFLICT')).toBe(true);
    expect(isApiError(error, 'CONFLICT', 'WALLET_ALREADY_EXISTS')).toBe(true);
    expect(isApiError(error, 'CONFLICT', 'CHANNEL_ALREADY_EXISTS')).toBe(false);
    expect(isApiError(error, 'NOT_FOUND')).toBe(false);
    expect(isApiError(new Error('x'))).toBe(false);
    expect(isApiError('CONFLICT')).toBe(false);
  });
});

describe('problem details from a gateway', () => {
  it('reads title and detail of an RFC 9457 body', () => {
    const error = apiErrorFromBody(
      new Response(null, { status: 404 }),
      { type: 'https://gateway.example/errors#NOT_FOUND', title: 'Not Found', detail: 'route /v2/x does not exist', status: 404 },
      { method: 'GET', path: '/x', urlPath: '/x' },
    );
    expect(error.type).toBe('https://gateway.example/errors#NOT_FOUND');
    expect(error.message).toContain('route /v2/x does not exist');
  });
});

describe('unwrap', () => {
  it('turns a 2xx body that is not JSON into InvalidResponseBodyError, not a bare SyntaxError', async () => {
    const { createChannelsClient } = await import('../../src/channels/index.js');
    const { unwrap, InvalidResponseBodyError } = await import('../../src/core/unwrap.js');
    const channels = createChannelsClient({
      apiKey: 'k',
      fetch: async () => new Response('<html>maintenance</html>', { status: 200, headers: { 'content-type': 'text/html' } }),
    });
    const error = await unwrap(channels.GET('/networks')).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResponseBodyError);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });
});
