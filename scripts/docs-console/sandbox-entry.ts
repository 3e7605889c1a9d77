// The part of the docs' "Try it" console that loads on the first "Try it"
// click (scripts/docs-console/try-it.mjs): the SDK's own offline sandbox
// (`createSandbox()` of ./sandbox), and the SDK's own request signing with the
// sandbox's made-up credentials. Bundled for the browser by the docs build
// (scripts/docs-console/bundle.mjs) as a classic script that sets
// `globalThis.TryItSandbox`, so it also loads from a page opened as a file.
// Nothing here reaches the network: every request goes to `sandbox.fetch`.
import { apiKeyHeader, hmacAuthorizer } from '../../src/core/auth.js';
import { createSandbox } from '../../src/sandbox/index.js';

/** One request as the console's form makes it. */
export interface ConsoleRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body: string | undefined;
  /** Whose sandbox credentials sign it, and how. */
  auth: { scheme: 'hmac'; credentials: 'streams' } | { scheme: 'apikey'; credentials: 'channels' | 'policy' };
}

/** The sandbox's answer, as the console shows it. */
export interface ConsoleAnswer {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
}

/** The page's sandbox: one for the visit, shared by every operation of the page. */
export interface ConsoleSandbox {
  send(request: ConsoleRequest): Promise<ConsoleAnswer>;
  /** Back to the seeded state: the data made on this page is gone. */
  reset(): void;
  /** Stops the sandbox's timers (a page never needs to; a test does). */
  close(): void;
}

/** Starts the page's sandbox. */
export function start(): ConsoleSandbox {
  const sandbox = createSandbox();
  // The streams client's own signer, over the sandbox's made-up key and secret.
  const signStreams = hmacAuthorizer(sandbox.credentials.streams);
  return {
    async send({ method, url, headers, body, auth }) {
      const sent = new Headers(headers);
      if (body !== undefined) sent.set('Content-Type', 'application/json');
      if (auth.scheme === 'hmac') signStreams(sent, method, url, body);
      else sent.set('Authorization', apiKeyHeader(sandbox.credentials[auth.credentials].apiKey));
      const response = await sandbox.fetch(new Request(url, { method, headers: sent, body }));
      return { status: response.status, statusText: response.statusText, headers: [...response.headers], body: await response.text() };
    },
    reset: () => sandbox.reset(),
    close: () => sandbox.close(),
  };
}
