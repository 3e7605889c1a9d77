import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { HmacSigner } from './types.js';

/**
 * Synchronous pure-JS HMAC for every runtime (browsers, Deno, Bun, workers).
 * The key is absorbed once into an HMAC state that is cloned per message, so
 * each signature costs two SHA-256 compressions of the message and no key
 * schedule. (Web Crypto's `subtle.sign` is asynchronous and measured several
 * times slower per request, by the SDK's signing benchmark.)
 */
export function createPortableSigner(secret: string): HmacSigner {
  const keyed = hmac.create(sha256, utf8ToBytes(secret));
  return {
    sign(message) {
      return bytesToHex(keyed.clone().update(utf8ToBytes(message)).digest());
    },
    sha256Hex(body) {
      return bytesToHex(sha256(utf8ToBytes(body)));
    },
  };
}
