import { createHmac, createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createHmacSigner, createPortableSigner, EMPTY_BODY_SHA256 } from '../../src/core/hmac/index.js';
import { createNodeSigner, loadNodeCrypto } from '../../src/core/hmac/node.js';
import { stringToSign } from '../../src/core/auth.js';

// Vectors computed independently with openssl:
//   printf '<string>' | openssl dgst -sha256 -hmac '<secret>'
const VENDOR_VECTOR = {
  secret: 'test-secret-please-ignore',
  message: stringToSign(
    'GET',
    '/api/v1/reports/latest?feedID=0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782',
    EMPTY_BODY_SHA256,
    'f2cb6d4c-7b0e-4b0a-9c3e-1f0c2b7d4e11',
    1700000000000,
  ),
  signature: '4bebd6f37f60496dfaf1d79f11011d0203e7473368cf5ef4c55f4dc1e45e8ff1',
};
const BODY = '{"a":1}';
const BODY_SHA256 = '015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862';
const UNICODE_VECTOR = {
  secret: 'sécret-ünïcode',
  message: `POST /api/v1/x?y=1 ${BODY_SHA256} f2cb6d4c-7b0e-4b0a-9c3e-1f0c2b7d4e11 1700000000123`,
  signature: '4b7713475b82d703a6699e5f07dd8ea67b21b5f91ea513f9db1051052467e979',
};

const nodeCrypto = loadNodeCrypto();
const implementations = {
  portable: (secret: string) => createPortableSigner(secret),
  node: (secret: string) => createNodeSigner(nodeCrypto!, secret),
  default: (secret: string) => createHmacSigner(secret),
};

describe.each(Object.entries(implementations))('HMAC signer: %s', (_name, make) => {
  it('matches the vendor test vector', () => {
    expect(make(VENDOR_VECTOR.secret).sign(VENDOR_VECTOR.message)).toBe(VENDOR_VECTOR.signature);
  });

  it('signs UTF-8 secrets and messages with a body hash', () => {
    const signer = make(UNICODE_VECTOR.secret);
    expect(signer.sha256Hex(BODY)).toBe(BODY_SHA256);
    expect(signer.sign(UNICODE_VECTOR.message)).toBe(UNICODE_VECTOR.signature);
  });

  it('reuses the absorbed key: many signatures stay independent of each other', () => {
    const signer = make('k');
    for (let i = 0; i < 50; i++) {
      const message = `m${i}`;
      expect(signer.sign(message)).toBe(createHmac('sha256', 'k').update(message).digest('hex'));
    }
  });

  it('hashes the empty body to the constant used for GET', () => {
    expect(make('k').sha256Hex('')).toBe(EMPTY_BODY_SHA256);
    expect(EMPTY_BODY_SHA256).toBe(createHash('sha256').update('').digest('hex'));
  });
});

describe('runtime choice', () => {
  it('finds node:crypto through process.getBuiltinModule on Node', () => {
    expect(nodeCrypto).toBeDefined();
  });
});
