import { createNodeSigner, loadNodeCrypto } from './node.js';
import { createPortableSigner } from './portable.js';
import type { HmacSigner } from './types.js';

export type { HmacSigner } from './types.js';
export { EMPTY_BODY_SHA256 } from './types.js';
export { createPortableSigner } from './portable.js';

/** The fastest signer this runtime offers: native `node:crypto` where present, pure JS otherwise. */
export function createHmacSigner(secret: string): HmacSigner {
  const crypto = loadNodeCrypto();
  return crypto ? createNodeSigner(crypto, secret) : createPortableSigner(secret);
}
