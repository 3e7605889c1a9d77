import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { CALLS_DIR } from './support/recorder.js';
import { startPrismMocks, stopPrismMocks } from '../../scripts/lib/prism.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the Prism mock of each API, by API name. */
    prismUrls: Record<string, string>;
  }
}

/**
 * One Prism mock per bundled document, on 127.0.0.1 and free ports, with
 * request and response validation (`--errors`). Stopped after the run, and
 * also if the run is interrupted (the helper kills the process groups on exit).
 */
export default async function setup(project: TestProject) {
  // A fresh record of called operations for the coverage gate.
  rmSync(CALLS_DIR, { recursive: true, force: true });
  const mocks = await startPrismMocks();
  const stop = () => stopPrismMocks(mocks);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      mocks.stop();
      process.exit(130);
    });
  }
  project.provide('prismUrls', mocks.urls);
  return stop;
}
