import { expect } from 'vitest';
import { ApiError } from '../../src/core/errors.js';

/** The ApiError a call rejects with; fails the test when it resolves or rejects with anything else. */
export async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(ApiError);
  return caught as ApiError;
}
