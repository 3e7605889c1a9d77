import { ConfigurationError } from './errors.js';
import { createHmacSigner, EMPTY_BODY_SHA256, type HmacSigner } from './hmac/index.js';

/** Sets the credentials of one attempt on its headers; called again for every retry. */
export type Authorizer = (headers: Headers, method: string, url: string, body: string | undefined) => void;

/** `Authorization: Apikey <key>` (channels and policy). Checked once, at construction. */
export function apiKeyHeader(apiKey: unknown): string {
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw new ConfigurationError('apiKey', 'expected a non-empty string');
  }
  // What a header value may carry, and no spaces: a control character would
  // otherwise fail later, in a runtime error that quotes the whole key.
  if (!/^[\x21-\x7E]+$/.test(apiKey)) {
    throw new ConfigurationError('apiKey', 'must be printable ASCII without spaces or control characters');
  }
  return `Apikey ${apiKey}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface HmacCredentials {
  /** The API key's identifier, a UUID; sent in `Authorization`. */
  apiKey: string;
  /** The shared secret that keys the HMAC. Never sent, never logged. */
  apiSecret: string;
}

/** Text signed for one request, as the report API defines it. */
export function stringToSign(method: string, pathWithQuery: string, bodySha256: string, apiKey: string, timestamp: number): string {
  return `${method} ${pathWithQuery} ${bodySha256} ${apiKey} ${timestamp}`;
}

/** Path and query of an absolute URL, without parsing it into a URL object (this runs on every request). */
export function pathWithQuery(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const hash = url.indexOf('#', start);
  return hash < 0 ? url.slice(start) : url.slice(start, hash);
}

/**
 * HMAC-SHA256 request signing for the report API: three headers, a fresh
 * timestamp per attempt. The key is checked and the secret absorbed once,
 * here; the returned function does only per-request work.
 */
export function hmacAuthorizer(
  credentials: HmacCredentials,
  now: () => number = Date.now,
  signer: HmacSigner | undefined = undefined,
): Authorizer {
  const { apiKey, apiSecret } = credentials;
  if (typeof apiKey !== 'string' || !UUID.test(apiKey)) {
    throw new ConfigurationError('apiKey', 'expected the key identifier, a UUID such as 123e4567-e89b-12d3-a456-426614174000');
  }
  if (typeof apiSecret !== 'string' || apiSecret === '') {
    throw new ConfigurationError('apiSecret', 'expected a non-empty string');
  }
  const hmac = signer ?? createHmacSigner(apiSecret);
  return (headers, method, url, body) => {
    const timestamp = now();
    const bodyHash = body === undefined || body === '' ? EMPTY_BODY_SHA256 : hmac.sha256Hex(body);
    const signature = hmac.sign(stringToSign(method, pathWithQuery(url), bodyHash, apiKey, timestamp));
    headers.set('Authorization', apiKey);
    headers.set('X-Authorization-Timestamp', String(timestamp));
    headers.set('X-Authorization-Signature-SHA256', signature);
  };
}
