// Global setup of the conformance project: one `prism proxy` per bundled
// spec, each in front of the same local port, where the test file running
// at the time listens with its sandboxes (the project runs its files one at
// a time). Also forgets the answers recorded by earlier runs.
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { freePort, startPrismMocks, stopPrismMocks } from '../../scripts/lib/prism.mjs';
import { LOCAL_PREFIXES } from '../../src/sandbox/router.js';
import { CONFORMANCE_DIR } from './answers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The port the sandboxes of the running test file listen on. */
    conformanceUpstreamPort: number;
    /** Base URL of each API's Prism proxy, by API name. */
    conformanceProxyUrls: Record<string, string>;
  }
}

export default async function setup(project: TestProject) {
  rmSync(CONFORMANCE_DIR, { recursive: true, force: true });
  const port = await freePort();
  const upstreams = Object.fromEntries(Object.entries(LOCAL_PREFIXES).map(([api, prefix]) => [api, `http://127.0.0.1:${port}${prefix}`]));
  // Without --errors: Prism passes every answer through and lists what it found in `sl-violations`.
  const proxies = await startPrismMocks({ errors: false, upstreams });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      proxies.stop();
      process.exit(130);
    });
  }
  project.provide('conformanceUpstreamPort', port);
  project.provide('conformanceProxyUrls', proxies.urls);
  return () => stopPrismMocks(proxies);
}
