// The README's usage examples ("First calls", "Pagination and waits") run, as written, against the offline
// sandbox: each TypeScript block of those sections is taken from the README,
// its `@ourteam/service-sdk/…` imports pointed at the sources, its clients
// given `fetch: sandbox.fetch`, its placeholders (`<key uuid>`, `<org>`, the
// environment's keys) filled with the sandbox's, and imported; it must run
// to its last line. test/unit/readme-snippets.test.ts type-checks every
// block; these are the ones that can also run offline. The others need what
// no sandbox has (an RPC node for `readReportTrust`; a live stream that
// never ends) and are type-checked only.
// The waits example's operation ID is the one placeholder without <…>: an
// operation created here stands in for it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChannelsClient, createOperation } from '../../src/channels/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { entrySource } from '../support/user-modules.js';

const root = join(import.meta.dirname, '..', '..');
const dir = join(root, 'test-results', 'readme-usage-examples');

interface Block {
  heading: string;
  line: number;
  source: string;
}

/** Every TypeScript block of the README with the heading it is under. */
function blocksByHeading(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const title = /^#+ (.*)$/.exec(lines[i]!);
    if (title !== null) heading = title[1]!;
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== '```') end++;
    blocks.push({ heading, line: start + 1, source: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}

// The IDs the channels examples name, seeded into the sandbox so that they exist.
const WALLET_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const CHANNEL_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const SEPOLIA = '16015286601757825753';
/** The operation the waits example waits for, a placeholder for one of the reader's. */
const EXAMPLE_OPERATION_ID = '9b2f6c1e-4d3a-4f5b-8e7c-1a2b3c4d5e6f';
const SIGNED = { signature: `0x${'11'.repeat(65)}`, digest: `0x${'22'.repeat(32)}` };

/** A sandbox fast enough for the examples' waits (a flow ends within milliseconds), with their wallet and channel. */
function examplesSandbox(): Sandbox {
  return createSandbox({
    pace: 100,
    seed: {
      channels: {
        channels: [{ channel_id: CHANNEL_ID, name: 'payouts' }],
        wallets: [{ wallet_id: WALLET_ID, name: 'treasury', wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: SEPOLIA, wallet_type: 'ecdsa' }],
      },
    },
  });
}

/** The block as a module that runs here: sources for the package, the sandbox behind every client, placeholders filled. */
function runnable(block: Block, sandbox: Sandbox): string {
  const streamsKey = sandbox.credentials.streams.apiKey;
  return (
    block.source
      .replace(/'@ourteam\/service-sdk\/([a-z-/]+)'/g, (_match, entry: string) => JSON.stringify(entrySource(entry)))
      .replace(/create(Channels|Streams|Policy)Client\(\{/g, 'create$1Client({ fetch: (globalThis as { readmeSandbox?: { fetch: typeof fetch } }).readmeSandbox!.fetch, ')
      .replaceAll("'<key uuid>'", JSON.stringify(streamsKey))
      .replaceAll('https://<org>.example/v1', 'https://acme.example/v1')
      // The waits example's operation: one that exists in the sandbox.
      .replaceAll(`'${EXAMPLE_OPERATION_ID}'`, '(globalThis as { readmeOperationId?: string }).readmeOperationId!') +
    // Reached only when every line above ran.
    '\n(globalThis as { readmeBlockDone?: boolean }).readmeBlockDone = true;\nexport {};\n'
  );
}

/** What a block's `declare`d names stand for when it runs, and the environment it reads. */
function setting(sandbox: Sandbox): Record<string, unknown> {
  return {
    readmeSandbox: sandbox,
    // Channels: the owner's signer, and the draft-failure example's channel, body and signer.
    signWithOwnerKey: async () => SIGNED,
    channel_id: CHANNEL_ID,
    sign: async () => SIGNED,
    payout: {
      chain_selector: SEPOLIA,
      address: undefined, // filled in below, from the seeded wallet
      wallet_operation_id: '43',
      deadline: Math.floor(Date.now() / 1000) + 3_600,
      transactions: [{ to: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', value: '0', data: '0x' }],
    },
  };
}

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = blocksByHeading(readme);
/** The sections whose examples run offline, and how many blocks each has. */
const RUNNABLE: Record<string, number> = { Channels: 2, Streams: 1, "A report's values in human units": 1, Policy: 1, 'Pagination and waits': 1 };

/** What each runnable block prints (by section, then block), where it prints something to check. */
const EXPECTED_OUTPUT: Record<string, Array<((logged: unknown[][]) => void) | undefined>> = {
  // The seeded wallet, listed by `paginate`.
  Channels: [(logged) => expect(logged).toEqual([['treasury']])],
  // Ten minutes of ETH/USD, a report a second, from the first to the last second asked for.
  Streams: [(logged) => expect(logged.map(([t]) => t)).toEqual(Array.from({ length: 601 }, (_, i) => 1_750_000_000 + i))],
  // The wallets, the watchers' count, then every status the wait saw, to `confirmed`.
  'Pagination and waits': [
    (logged) => {
      // paginate's wallet, the watchers collected (none), each status change seen (from none), then the result.
      expect(logged.slice(0, 2)).toEqual([['treasury'], [0]]);
      const changes = logged.slice(2, -1) as [string | undefined, string, string][];
      expect(changes.length).toBeGreaterThanOrEqual(1);
      changes.forEach(([previous, arrow], i) => expect([previous, arrow]).toEqual([i === 0 ? undefined : changes[i - 1]![2], '→']));
      expect(changes.at(-1)![2]).toBe('confirmed');
      expect(logged.at(-1)).toEqual(['confirmed']);
    },
  ],
  // A V3 report's values, main first, as decimal strings.
  "A report's values in human units": [
    (logged) => {
      expect(logged.map(([name]) => name)).toEqual(['price', 'bid', 'ask']);
      for (const [, value] of logged) expect(value).toMatch(/^\d+(\.\d+)?$/);
    },
  ],
};

let sandbox: Sandbox | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  for (const name of ['readmeSandbox', 'readmeOperationId', 'signWithOwnerKey', 'channel_id', 'sign', 'payout', 'readmeBlockDone']) delete (globalThis as Record<string, unknown>)[name];
  sandbox?.close();
  sandbox = undefined;
});

describe("the README's usage examples, run against the sandbox", () => {
  it('the sections hold the blocks this test runs', () => {
    for (const [heading, count] of Object.entries(RUNNABLE)) expect(blocks.filter((b) => b.heading === heading), heading).toHaveLength(count);
  });

  it.each(blocks.filter((b) => b.heading in RUNNABLE).map((b) => [`${b.heading}, README.md:${b.line}`, b] as const))('%s runs to its end', async (_name, block) => {
    sandbox = examplesSandbox();
    const globals = setting(sandbox);
    const wallet = await sandbox.fetch(`https://acme.example/v1/wallets/${WALLET_ID}`, { headers: { authorization: `Apikey ${sandbox.credentials.channels.apiKey}` } });
    const { address } = (await wallet.json()) as { address: string };
    (globals.payout as { address: string }).address = address;
    // An operation for the waits example, signed: it moves on to `confirmed`.
    const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, baseUrl: 'https://acme.example/v1', fetch: sandbox.fetch });
    const operation = await createOperation(channels, CHANNEL_ID, { ...(globals.payout as Parameters<typeof createOperation>[2]), wallet_operation_id: '44', signature: SIGNED.signature });
    globals.readmeOperationId = operation.operation_id;
    Object.assign(globalThis, globals);
    vi.stubEnv('CHANNELS_API_KEY', sandbox.credentials.channels.apiKey);
    vi.stubEnv('STREAMS_SECRET', sandbox.credentials.streams.apiSecret);
    vi.stubEnv('POLICY_API_KEY', sandbox.credentials.policy.apiKey);
    const logged: unknown[][] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args));

    mkdirSync(dir, { recursive: true });
    const file = join(dir, `readme-line-${block.line}.ts`);
    writeFileSync(file, runnable(block, sandbox));
    await import(/* @vite-ignore */ file);

    expect((globalThis as { readmeBlockDone?: boolean }).readmeBlockDone).toBe(true);
    expect(sandbox.violations).toEqual([]);
    EXPECTED_OUTPUT[block.heading]?.[blocks.filter((b) => b.heading === block.heading).indexOf(block)]?.(logged);
  }, 30_000);
});
