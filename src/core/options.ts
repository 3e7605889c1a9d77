import { ConfigurationError } from './errors.js';

/**
 * Checks of client and call options, made once at construction so a bad
 * setting fails at once, with a ConfigurationError naming the option, and
 * never later as a raw TypeError. Messages never echo a value that could be
 * a credential (a URL with a password, a header value).
 */

/** A duration in ms: a number >= 0; `Infinity` means no limit. */
export function durationOption(option: string, value: unknown): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new ConfigurationError(option, `expected a number of milliseconds >= 0 (or Infinity for no limit), got ${describe(value)}`);
  }
  return value;
}

/** An absolute http(s) URL without credentials, query or fragment. */
export function baseUrlOption(value: unknown): string {
  if (typeof value !== 'string') throw new ConfigurationError('baseUrl', `expected an absolute http(s) URL string, got ${describe(value)}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // The text may hold a password; it is not quoted.
    throw new ConfigurationError('baseUrl', 'is not a valid absolute URL (check the host, the port and any spaces)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError('baseUrl', `expected an http or https URL, got the scheme ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigurationError('baseUrl', 'must not contain credentials (user:password@); pass them as the client options made for them');
  }
  if (url.search !== '' || url.hash !== '') throw new ConfigurationError('baseUrl', 'must not have a query or a fragment');
  return value;
}

/** RFC 9110 token: a header name. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 9110 field-value: visible characters, spaces and tabs inside, no control characters. */
const HEADER_VALUE = /^(?:[\x21-\x7E\x80-\xFF](?:[\t\x20-\x7E\x80-\xFF]*[\x21-\x7E\x80-\xFF])?)?$/;

/** Extra headers: names and values a `Headers` object accepts. Values are never quoted (they may be credentials). */
export function headersOption(value: unknown): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ConfigurationError('headers', `expected an object of header names to string values, got ${describe(value)}`);
  }
  for (const [name, headerValue] of Object.entries(value)) {
    if (!HEADER_NAME.test(name)) throw new ConfigurationError('headers', `${JSON.stringify(name.slice(0, 40))} is not a valid header name`);
    if (typeof headerValue !== 'string' || !HEADER_VALUE.test(headerValue)) {
      throw new ConfigurationError('headers', `the value of ${name} must be a string of visible characters (no control characters or line breaks)`);
    }
  }
  return value as Record<string, string>;
}

/** A value a header may carry; `option` names it in the error, which never quotes the value. */
export function headerValueOption(option: string, value: string): string {
  if (!HEADER_VALUE.test(value)) {
    throw new ConfigurationError(option, 'must be visible characters only (no control characters, line breaks or leading/trailing spaces)');
  }
  return value;
}

export function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return 'a string';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
