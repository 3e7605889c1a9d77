// Conformance: the sandbox's own end-to-end tests run a second time with
// every request going through `prism proxy` in front of the sandbox, which
// validates each request and each answer against the bundled spec.
//
// How: this setup file wraps `createSandbox` so that `sandbox.fetch` sends
// each request (addressed to a client's default base URL) to the Prism proxy
// of its API instead, and Prism forwards it to a listener that hands it to
// the sandbox the test created. Prism runs without `--errors` and lists what
// it found in each answer's `sl-violations` header:
// - any violation of the answer (status, headers, body) fails the request;
// - a violation of the request fails it when the sandbox accepted it (2xx):
//   a test that sends bad input on purpose gets a 4xx, and that is the point.
// A failed request throws, naming the operation and Prism's findings, so the
// test that sent it fails. Every operationId answered without a violation is
// written down for the coverage gate (test/conformance/coverage.test.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, inject, vi } from 'vitest';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.js';
import { startListener, type SandboxListener } from '../../src/sandbox/listen.js';
import { DEFAULT_BASE_URLS, route } from '../../src/sandbox/router.js';
import type { SandboxApi } from '../../src/sandbox/types.js';
import { CONFORMANCE_DIR } from './answers.js';

/**
 * The request target exactly as the client sent it. Prism re-encodes query
 * strings when it forwards them (`,` becomes `%2C`), which would break the
 * streams API's signature over the path and query; the sandbox gets the
 * original target back, after Prism validated the request.
 */
const ORIGINAL_URL = 'x-sdk-conformance-original-url';

interface Violation {
  location?: string[];
  severity?: string;
  message?: string;
}

/** The sandboxes alive in this test file; a request goes to the one whose credentials it carries, else the newest. */
const live: Sandbox[] = [];
const answered = new Set<string>();
let listener: SandboxListener | undefined;
const proxyUrls = inject('conformanceProxyUrls') as Record<SandboxApi, string>;

function sandboxFor(request: Request): Sandbox {
  const authorization = request.headers.get('authorization') ?? '';
  const key = authorization.replace(/^Apikey\s+/i, '');
  const owner = live.find(
    (sandbox) =>
      sandbox.credentials.channels.apiKey === key || sandbox.credentials.policy.apiKey === key || sandbox.credentials.streams.apiKey === key,
  );
  const sandbox = owner ?? live.at(-1);
  if (sandbox === undefined) throw new Error('conformance: a request arrived with no sandbox alive');
  return sandbox;
}

/** What reaches the listener from Prism: back to the original URL, to the sandbox whose credentials it carries. */
function dispatchFromPrism(forwarded: Request): Promise<Response> {
  const original = forwarded.headers.get(ORIGINAL_URL);
  if (original === null) return sandboxFor(forwarded).dispatch(forwarded, true);
  const headers = new Headers(forwarded.headers);
  headers.delete(ORIGINAL_URL);
  const request = new Request(original, { method: forwarded.method, headers, body: forwarded.body, signal: forwarded.signal, duplex: 'half' } as RequestInit);
  return sandboxFor(request).dispatch(request, false);
}

beforeAll(async () => {
  listener = await startListener({ dispatch: dispatchFromPrism }, { port: inject('conformanceUpstreamPort') });
});

/** `https://<default base>/rest` → `http://<its Prism proxy>/rest`. */
function proxiedUrl(url: string, urls: Record<SandboxApi, string>): string | undefined {
  const mounts = Object.entries(DEFAULT_BASE_URLS)
    .flatMap(([api, prefixes]) => prefixes.map((prefix) => ({ api: api as SandboxApi, prefix })))
    .sort((a, b) => b.prefix.length - a.prefix.length);
  const mount = mounts.find(({ prefix }) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`));
  return mount && `${urls[mount.api]}${url.slice(mount.prefix.length)}`;
}

function violationsOf(response: Response): Violation[] {
  const header = response.headers.get('sl-violations');
  if (header === null || header === '') return [];
  try {
    return JSON.parse(header) as Violation[];
  } catch {
    return [{ location: ['response'], message: `unreadable sl-violations header: ${header.slice(0, 200)}` }];
  }
}

async function throughPrism(input: Request | URL | string, init?: RequestInit): Promise<Response> {
  const original = new Request(input, init);
  const found = route(original.method, original.url, false);
  const operation = found.kind === 'matched' ? found.operationId : `${original.method} ${new URL(original.url).pathname}`;
  const target = proxiedUrl(original.url, proxyUrls);
  if (target === undefined) throw new Error(`conformance: no API at ${original.url}`);
  const body = original.body === null ? undefined : await original.arrayBuffer();
  const sent = new Headers(original.headers);
  sent.set(ORIGINAL_URL, original.url);
  const response = await fetch(target, {
    method: original.method,
    headers: sent,
    body,
    signal: original.signal,
    redirect: 'manual',
  });
  const violations = violationsOf(response);
  const ofAnswer = violations.filter((v) => v.location?.[0] !== 'request');
  const ofRequest = violations.filter((v) => v.location?.[0] === 'request');
  const failures = [...ofAnswer, ...(response.ok ? ofRequest : [])];
  if (failures.length > 0) {
    const found = failures.map((v) => `${(v.location ?? []).join('.')}: ${v.message ?? '?'} (${v.severity ?? '?'})`).join('; ');
    throw new Error(`conformance: ${operation} answered ${response.status} against the spec: ${found}`);
  }
  if (found.kind === 'matched') answered.add(`${found.api} ${found.operationId}`);
  // Prism's own headers are not the sandbox's answer.
  const headers = new Headers(response.headers);
  headers.delete('sl-violations');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

vi.mock('../../src/sandbox/index.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/sandbox/index.js')>();
  return {
    ...original,
    createSandbox(options?: SandboxOptions): Sandbox {
      const sandbox = original.createSandbox(options);
      live.push(sandbox);
      return {
        ...sandbox,
        fetch: throughPrism,
        close() {
          live.splice(live.indexOf(sandbox), 1);
          sandbox.close();
        },
      };
    },
  };
});

afterAll(async () => {
  mkdirSync(CONFORMANCE_DIR, { recursive: true });
  writeFileSync(join(CONFORMANCE_DIR, `${process.pid}-${Date.now()}.json`), JSON.stringify([...answered]));
  await listener?.close();
});
