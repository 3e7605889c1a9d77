import { InvalidResponseBodyError } from './errors.js';

/**
 * Cheap shape checks of 2xx bodies in the helpers, so a body that is not
 * what the spec documents fails at once with an InvalidResponseBodyError
 * naming the operation, instead of resolving `undefined` or failing later
 * with a TypeError. Not full validation: only what each helper relies on.
 */
export function expectBody<T>(value: unknown, operation: string, expected: string, isValid: (value: Record<string, unknown>) => boolean): T {
  if (!isRecord(value) || !isValid(value)) throw new InvalidResponseBodyError(operation, `a body that is not ${expected}`);
  return value as T;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** An array whose every element passes `isItem`. */
export function isArrayOf(value: unknown, isItem: (item: Record<string, unknown>) => boolean): boolean {
  return Array.isArray(value) && value.every((item) => isRecord(item) && isItem(item));
}
