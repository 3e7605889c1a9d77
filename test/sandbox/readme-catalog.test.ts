// The README's count of the sandbox's stream catalog is what the catalog
// lists: with `hidden: true`, and without it (what `listStreams` gives by
// default). A stream added to the catalog must be counted in the README too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { createStreamsClient, listStreams } from '../../src/streams/index.js';

const root = join(import.meta.dirname, '..', '..');

it("the README's catalog counts are the sandbox's, with and without hidden streams", async () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  const claim = /a catalog of (\d+) streams, V2 to V13, of which `listStreams` lists (\d+) unless asked for `hidden: true`/.exec(readme);
  expect(claim, 'the README states the catalog count').not.toBeNull();
  const sandbox = createSandbox();
  try {
    for (const network of ['testnet', 'mainnet'] as const) {
      const streams = createStreamsClient({ ...sandbox.credentials.streams, network, fetch: sandbox.fetch });
      expect((await listStreams(streams, { hidden: true })).length, `${network}, hidden included`).toBe(Number(claim![1]));
      expect((await listStreams(streams)).length, `${network}, by default`).toBe(Number(claim![2]));
    }
  } finally {
    sandbox.close();
  }
});
