/**
 * Checks a request's HMAC signature as the report API does. Three headers:
 * `Authorization` (the key's UUID), `X-Authorization-Timestamp` (Unix ms) and
 * `X-Authorization-Signature-SHA256`, the lowercase hex HMAC-SHA256, keyed
 * with the shared secret, of
 * `METHOD + ' ' + PATH_WITH_QUERY + ' ' + hex(sha256(body)) + ' ' + KEY + ' ' + TIMESTAMP`.
 *
 * The signed string is rebuilt here from the spec, not borrowed from the
 * client's signer, so a client that signs the wrong text is refused. The path
 * and query are the request target exactly as sent (re-serialising a URL
 * changes the signed text). The timestamp is compared with the REAL clock,
 * not sandbox time: clients sign with the time of their machine, and a
 * sandbox running at another pace must still accept them.
 *
 * As the spec splits it: a missing or malformed header is a `400`; a
 * well-formed request whose key is unknown, whose timestamp is more than 5 s
 * from the clock, or whose signature does not match is a `401`. Messages
 * never quote the secret, the key or the signature.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { AuthInput } from '../types.js';

/** How far the signing time may be from the server's clock, either way. */
export const MAX_CLOCK_SKEW_MS = 5_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^[0-9]{1,16}$/;
const SIGNATURE = /^[0-9a-fA-F]{64}$/;

const HEADER_KEY = 'authorization';
const HEADER_TIMESTAMP = 'x-authorization-timestamp';
const HEADER_SIGNATURE = 'x-authorization-signature-sha256';

export type HmacVerdict = { ok: true } | { ok: false; status: 400 | 401; code: string; message: string };

/** The one key the sandbox accepts, and its secret. */
export interface HmacVerifierOptions {
  apiKey: string;
  apiSecret: string;
}

/** Whether the request carries any of the signature headers (discovery answers callers without them). */
export function hasHmacHeaders(headers: Headers): boolean {
  return headers.has(HEADER_KEY) || headers.has(HEADER_TIMESTAMP) || headers.has(HEADER_SIGNATURE);
}

/** Equal-length hex strings compared by their bytes, in time independent of where they differ. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 2) {
    difference |= Number.parseInt(a.slice(i, i + 2), 16) ^ Number.parseInt(b.slice(i, i + 2), 16);
  }
  return difference === 0;
}

const refuse = (status: 400 | 401, code: string, message: string): HmacVerdict => ({ ok: false, status, code, message });

export function createHmacVerifier(options: HmacVerifierOptions): (input: AuthInput) => HmacVerdict {
  const keyed = hmac.create(sha256, utf8ToBytes(options.apiSecret));
  const knownKey = options.apiKey.toLowerCase();

  return (input) => {
    const key = input.headers.get(HEADER_KEY);
    const timestamp = input.headers.get(HEADER_TIMESTAMP);
    const signature = input.headers.get(HEADER_SIGNATURE);
    const missing = [
      key === null ? 'Authorization' : undefined,
      timestamp === null ? 'X-Authorization-Timestamp' : undefined,
      signature === null ? 'X-Authorization-Signature-SHA256' : undefined,
    ].filter((name) => name !== undefined);
    if (missing.length > 0) return refuse(400, 'MISSING_AUTH_HEADER', `missing authentication header(s): ${missing.join(', ')}`);
    if (!UUID.test(key!)) return refuse(400, 'MALFORMED_AUTH_HEADER', 'Authorization must be the API key identifier, a UUID');
    if (!TIMESTAMP.test(timestamp!)) return refuse(400, 'MALFORMED_AUTH_HEADER', 'X-Authorization-Timestamp must be Unix time in milliseconds');
    if (!SIGNATURE.test(signature!)) {
      return refuse(400, 'MALFORMED_AUTH_HEADER', 'X-Authorization-Signature-SHA256 must be 64 hex digits (HMAC-SHA256)');
    }

    if (key!.toLowerCase() !== knownKey) return refuse(401, 'UNKNOWN_KEY', 'authentication failed: this API key is not known');
    const skew = Math.abs(Date.now() - Number(timestamp));
    if (skew > MAX_CLOCK_SKEW_MS) {
      return refuse(
        401,
        'TIMESTAMP_OUT_OF_RANGE',
        `authentication failed: X-Authorization-Timestamp is ${skew} ms from the server's clock (at most ${MAX_CLOCK_SKEW_MS} ms allowed)`,
      );
    }
    const bodyHash = bytesToHex(sha256(utf8ToBytes(input.bodyText)));
    const signed = `${input.method} ${input.target} ${bodyHash} ${key!} ${timestamp!}`;
    const expected = bytesToHex(keyed.clone().update(utf8ToBytes(signed)).digest());
    if (!sameHex(expected, signature!.toLowerCase())) {
      return refuse(
        401,
        'SIGNATURE_MISMATCH',
        `authentication failed: the signature does not match; the signed text must be "${input.method} ${input.target} ${bodyHash} <key> ${timestamp!}"`,
      );
    }
    return { ok: true };
  };
}
