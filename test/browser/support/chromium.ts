import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';

/** Debian's Chromium (`apt-get install -y chromium`), never a browser download. */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const requireBrowser = process.env.REQUIRE_BROWSER === '1';
const INSTALL_HINT = 'apt-get update && apt-get install -y chromium';

/** Flags that keep Chromium quiet and local on a closed network. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: FLAGS });
}

/**
 * `describe` for tests that need Chromium: without it the suite is skipped
 * with a message saying how to install it, or fails when REQUIRE_BROWSER=1
 * (as in .ci/run).
 */
export function describeWithBrowser(name: string, body: () => void): void {
  if (existsSync(chromiumPath)) {
    describe(name, body);
  } else if (requireBrowser) {
    describe(name, () => {
      it('has a browser to run in', () => {
        expect.fail(`REQUIRE_BROWSER=1 but ${chromiumPath} is missing; install it with: ${INSTALL_HINT}`);
      });
    });
  } else {
    describe(name, () => {
      it('runs in Chromium', (context) => {
        const message = `${chromiumPath} is missing, so the browser test is skipped; install Chromium with: ${INSTALL_HINT}`;
        console.warn(message); // the default reporter does not print skip notes
        context.skip(message);
      });
    });
  }
}
