/**
 * 3. HMAC alone: one request's signature (HMAC-SHA256 of the string to sign,
 * as lowercase hex), per second, with Web Crypto (key imported once;
 * asynchronous), `node:crypto` `createHmac` (string key each time, as a user
 * would write it), our portable pure-JS signer and our default signer.
 * A second set adds the SHA-256 of a request body, as a signed POST needs.
 */
import { createHash, createHmac } from 'node:crypto';
import { stringToSign } from '../src/core/auth.js';
import { createHmacSigner, createPortableSigner, EMPTY_BODY_SHA256 } from '../src/core/hmac/index.js';
import { measure, type Contender } from './measure.js';
import { timingRow } from './rows.js';
import { FEED_ID } from './server.js';
import type { Row } from './table.js';

const BENCH = '3 HMAC alone';
const SECRET = 'bench-secret-0123456789abcdef';
const API_KEY = '123e4567-e89b-12d3-a456-426614174000';
const MESSAGE = stringToSign('GET', `/api/v1/reports/latest?feedID=${FEED_ID}`, EMPTY_BODY_SHA256, API_KEY, 1_764_590_400_123);
const BODY = JSON.stringify({ feedIDs: [FEED_ID, FEED_ID.replace('0003', '0004')], timestamp: 1_764_590_400, note: 'x'.repeat(80) });

const toHex = (buffer: ArrayBuffer): string => Buffer.from(buffer).toString('hex');

export async function benchHmac(options: { scale?: number } = {}): Promise<Row[]> {
  const scale = options.scale ?? 1;
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey('raw', new TextEncoder().encode(SECRET), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const encoder = new TextEncoder();
  const portable = createPortableSigner(SECRET);
  const ours = createHmacSigner(SECRET);

  // Every contender must produce the same tag.
  const expected = createHmac('sha256', SECRET).update(MESSAGE, 'utf8').digest('hex');
  const webTag = toHex(await subtle.sign('HMAC', key, encoder.encode(MESSAGE)));
  if (webTag !== expected || portable.sign(MESSAGE) !== expected || ours.sign(MESSAGE) !== expected) {
    throw new Error('HMAC implementations disagree');
  }

  const signOnly: Contender[] = [
    { name: 'node', run: () => createHmac('sha256', SECRET).update(MESSAGE, 'utf8').digest('hex') },
    { name: 'webcrypto', run: async () => toHex(await subtle.sign('HMAC', key, encoder.encode(MESSAGE))) },
    { name: 'portable', run: () => portable.sign(MESSAGE) },
    { name: 'default', run: () => ours.sign(MESSAGE) },
  ];
  const withBody: Contender[] = [
    {
      name: 'node',
      run: () => {
        const bodyHash = createHash('sha256').update(BODY, 'utf8').digest('hex');
        return createHmac('sha256', SECRET).update(MESSAGE + bodyHash, 'utf8').digest('hex');
      },
    },
    {
      name: 'webcrypto',
      run: async () => {
        const bodyHash = toHex(await subtle.digest('SHA-256', encoder.encode(BODY)));
        return toHex(await subtle.sign('HMAC', key, encoder.encode(MESSAGE + bodyHash)));
      },
    },
    { name: 'portable', run: () => portable.sign(MESSAGE + portable.sha256Hex(BODY)) },
    { name: 'default', run: () => ours.sign(MESSAGE + ours.sha256Hex(BODY)) },
  ];

  const opts = { warmup: 5_000, samples: Math.round(1_000 * scale), rounds: 20, minSampleNs: 100_000 };
  const a = await measure(signOnly, opts);
  const b = await measure(withBody, opts);
  const label: Record<string, string> = {
    node: 'node:crypto createHmac (baseline)',
    webcrypto: 'Web Crypto subtle.sign (key imported once)',
    portable: 'ours: createPortableSigner (@noble/hashes)',
    default: 'ours: createHmacSigner (default)',
  };
  const bodyLabel: Record<string, string> = {
    node: 'node:crypto createHash + createHmac (baseline)',
    webcrypto: 'Web Crypto subtle.digest + subtle.sign',
    portable: 'ours: portable sha256Hex + sign',
    default: 'ours: default sha256Hex + sign',
  };
  const rows: Row[] = [];
  for (const c of signOnly) {
    rows.push(
      timingRow(BENCH, `sign ${MESSAGE.length} B: ${label[c.name]}`, a, {
        key: c.name,
        opsUnit: 'sig/s',
        ...(c.name === 'node' ? {} : { baselineKey: 'node', baseline: label.node }),
      }),
    );
  }
  for (const c of withBody) {
    rows.push(
      timingRow(BENCH, `${BODY.length} B body: ${bodyLabel[c.name]}`, b, {
        key: c.name,
        opsUnit: 'sig/s',
        ...(c.name === 'node' ? {} : { baselineKey: 'node', baseline: bodyLabel.node }),
      }),
    );
  }
  return rows;
}
