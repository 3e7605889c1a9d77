import type { HmacSigner } from './types.js';

/** The part of `node:crypto` we use, written out so the published types need no @types/node. */
interface NodeCrypto {
  createSecretKey(key: string, encoding: 'utf8'): object;
  createHmac(algorithm: 'sha256', key: object): HashLike;
  createHash(algorithm: 'sha256'): HashLike;
}
interface HashLike {
  update(data: string, encoding: 'utf8'): HashLike;
  digest(encoding: 'hex'): string;
}

/**
 * `node:crypto` when the runtime has it (Node, Bun, Deno), reached through
 * `process.getBuiltinModule` so that no bundler sees a `node:` import and the
 * same build still runs in browsers. `undefined` elsewhere.
 */
export function loadNodeCrypto(): NodeCrypto | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const crypto = proc?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
  return typeof crypto?.createHmac === 'function' ? crypto : undefined;
}

/** Native HMAC (OpenSSL): the fastest signer where `node:crypto` exists. */
export function createNodeSigner(crypto: NodeCrypto, secret: string): HmacSigner {
  const key = crypto.createSecretKey(secret, 'utf8');
  return {
    sign(message) {
      return crypto.createHmac('sha256', key).update(message, 'utf8').digest('hex');
    },
    sha256Hex(body) {
      return crypto.createHash('sha256').update(body, 'utf8').digest('hex');
    },
  };
}
