// The reference docs' "Try it" console without a browser: each page's
// operations (scripts/docs-console/console-data.mjs), their requests as the
// form first makes them (request.mjs), sent through the console's sandbox
// (sandbox-entry.ts, the code the page loads). Every one is served by the
// sandbox under the API's production base URL and signed with its made-up
// credentials: never refused as a URL the sandbox cannot serve, never a 401.
// test/browser/try-it.test.ts drives the same console in Chromium.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it, onTestFinished } from 'vitest';
import { consoleData } from '../../scripts/docs-console/console-data.mjs';
import { prefilled, requestFor } from '../../scripts/docs-console/request.mjs';
import { start } from '../../scripts/docs-console/sandbox-entry.js';
import { POLICY_DEFAULT_HOST } from '../../src/policy/index.js';
import { STREAMS_BASE_URLS } from '../../src/streams/index.js';
import { CHANNELS_SAMPLE_BASE_URL } from '../../scripts/lib/sdk-call.mjs';

const root = join(import.meta.dirname, '..', '..');
const APIS = ['channels', 'streams', 'policy-coordinator', 'policy-evaluation', 'policy-reporting'] as const;
const dataOf = (api: string) => consoleData(api, parse(readFileSync(join(root, 'generated', 'openapi', `${api}.yaml`), 'utf8')));

/**
 * The base URL each API's samples show, which the console shows too: the SDK client's default address, or for
 * channels, which lives at each organisation's own address, the one every channels sample passes as `baseUrl`.
 */
const SDK_BASE_URL: Record<(typeof APIS)[number], string> = {
  channels: CHANNELS_SAMPLE_BASE_URL,
  streams: STREAMS_BASE_URLS.testnet,
  'policy-coordinator': `${POLICY_DEFAULT_HOST}/v1`,
  'policy-evaluation': `${POLICY_DEFAULT_HOST}/v1/evaluation`,
  'policy-reporting': `${POLICY_DEFAULT_HOST}/v1/reporting`,
};

describe('"Try it" console data and requests', () => {
  it.each(APIS)('%s: every operation sent as the form first shows it is answered by the sandbox, authenticated', async (api) => {
    const data = dataOf(api);
    expect(data.operations.length).toBeGreaterThan(0);
    const sandbox = start();
    const refused: string[] = [];
    onTestFinished(() => sandbox.close());
    for (const operation of data.operations) {
      if (operation.sample === undefined) expect(operation.baseUrl, operation.id).toBe(SDK_BASE_URL[api]);
      const { texts, bodyText } = prefilled(operation);
      const { method, url, headers, body } = requestFor(operation, texts, bodyText);
      try {
        const answer = await sandbox.send({ method, url, headers, body, auth: data.auth });
        if (answer.status === 401 || answer.status >= 500) refused.push(`${operation.id}: ${answer.status} ${answer.body}`);
      } catch (error) {
        refused.push(`${operation.id}: ${method} ${url} not served (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('the form pre-fills what the call needs, and shows an optional example as a hint only', () => {
    const listTransactions = dataOf('policy-reporting').operations.find((operation) => operation.id === 'listTransactions')!;
    const pageToken = listTransactions.parameters.find((parameter) => parameter.name === 'page_token')!;
    expect(pageToken).toMatchObject({ required: false, value: undefined });
    expect(pageToken.example).toBeTypeOf('string');
    const getWallet = dataOf('channels').operations.find((operation) => operation.id === 'getWallet')!;
    expect(getWallet.parameters.find((parameter) => parameter.name === 'wallet_id')).toMatchObject({ in: 'path', required: true, value: expect.any(String) });
  });

  it('a form makes the request the spec describes: path filled in, lists repeated or comma-joined, blanks left out', () => {
    const bulk = dataOf('streams').operations.find((operation) => operation.id === 'getBulkReports')!;
    const request = requestFor(bulk, { 'query:feedIDs': '0xaa, 0xbb', 'query:timestamp': '1700000000' }, undefined);
    expect(request.url).toBe(`${STREAMS_BASE_URLS.testnet}/api/v1/reports/bulk?feedIDs=0xaa%2C0xbb&timestamp=1700000000`);
    const listChannels = dataOf('channels').operations.find((operation) => operation.id === 'listChannels')!;
    const filtered = requestFor(listChannels, { 'query:status': 'active,archived', 'query:name': ' ' }, undefined);
    // Shown as the samples show it (`https://<org>.example/v1`), sent to a host name the sandbox takes.
    expect(filtered.url).toBe(`${CHANNELS_SAMPLE_BASE_URL.replace('<org>', 'org')}/channels?status=active&status=archived`);
  });
});
