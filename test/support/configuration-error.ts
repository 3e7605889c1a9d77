import { expect } from 'vitest';
import { ConfigurationError } from '../../src/core/errors.js';

/** The option a ConfigurationError thrown by `fn` names; 'nothing thrown' when `fn` returns, and a failed test when it throws anything else. */
export function thrownOption(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as ConfigurationError).option;
  }
  return 'nothing thrown';
}
