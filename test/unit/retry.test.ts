import { describe, expect, it } from 'vitest';
import { isSafeToRetry, parseRetryAfter, resolveRetryOptions, DEFAULT_RETRY } from '../../src/core/retry.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it.each([
    ['0', 0],
    ['12', 12_000],
    [' 5 ', 5_000],
    ['Thu, 01 Jan 2026 00:00:30 GMT', 30_000],
    ['Wed, 31 Dec 2025 23:59:00 GMT', 0],
    ['Thursday, 01-Jan-26 00:00:07 GMT', 7_000],
    ['Thu Jan  1 00:00:07 2026', 7_000],
  ])('reads %j', (value, ms) => expect(parseRetryAfter(value, now)).toBe(ms));
  it.each([[null], ['soon'], ['-3']])('ignores %j', (value) => expect(parseRetryAfter(value, now)).toBeUndefined());
});

describe('isSafeToRetry', () => {
  const keys = ['idempotency_key', 'wallet_operation_id', 'unique_evaluation_id'];
  it.each(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'])('%s is always safe', (method) =>
    expect(isSafeToRetry(method, undefined, keys)).toBe(true));
  it.each([
    ['{"idempotency_key":"k"}', true],
    ['{"wallet_operation_id":"12"}', true],
    ['{"unique_evaluation_id":"0xab"}', true],
    ['{"name":"w"}', false],
    ['{"idempotency_key":""}', false],
    ['not json', false],
    ['"idempotency_key"', false],
  ])('POST with %s -> %s', (body, safe) => expect(isSafeToRetry('POST', body, keys)).toBe(safe));
  it('PATCH follows the POST rule', () => expect(isSafeToRetry('PATCH', '{"status":"accepted"}', keys)).toBe(false));
});

describe('resolveRetryOptions', () => {
  it('fills defaults and disables with false', () => {
    expect(resolveRetryOptions(undefined)).toEqual(DEFAULT_RETRY);
    expect(resolveRetryOptions({ retries: 5 }).retries).toBe(5);
    expect(resolveRetryOptions(false).retries).toBe(0);
  });
  it('names a bad value', () => {
    expect(() => resolveRetryOptions({ baseDelayMs: -1 })).toThrow('baseDelayMs');
    expect(() => resolveRetryOptions({ retries: Number.NaN })).toThrow('retries:');
  });
});
