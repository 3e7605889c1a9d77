// Every operation of the five APIs through the command line, against a
// listening sandbox: one happy path each (exit 0, the answer on stdout). The
// policy scenario is the coordinator's that test/sandbox/policy.test.ts runs
// too (test/support/coordinator-scenario.ts), here run as `service-sdk
// coordinator <operation> --flags`; each test checks at the end that it ran
// every operation of its APIs.
import { describe, expect, it } from 'vitest';
import { table as channelsTable } from '../../generated/cli/channels.js';
import { table as coordinatorTable } from '../../generated/cli/policy-coordinator.js';
import { table as evaluationTable } from '../../generated/cli/policy-evaluation.js';
import { table as reportingTable } from '../../generated/cli/policy-reporting.js';
import { table as streamsTable } from '../../generated/cli/streams.js';
import type { PolicyClient } from '../../src/policy/index.js';
import { CALLER, runCoordinatorScenario, SEPOLIA, TOKEN, TRANSFER } from '../support/coordinator-scenario.js';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { cli, cliClient, sandboxEnv, type CliCall, type CliRun } from './support/run-cli.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const BTC_USD = '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439';
const OWNER = '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2';

/** Fails with the command's stderr unless it exited 0; the parsed answer otherwise. */
async function succeeded(operation: string, call: Promise<CliRun>): Promise<any> {
  const run = await call;
  expect([operation, run.code, run.code === 0 ? '' : run.stderr]).toEqual([operation, 0, '']);
  return run.json;
}

/** `<api> <operation>` for every operation of a table, as the CLI client records them. */
function namesOf(api: string, table: { operations: { name: string }[] }): string[] {
  return table.operations.map((operation) => `${api} ${operation.name}`).sort();
}

describe('channels: every operation', () => {
  const live = useListeningSandbox({ pace: 0 });
  it('runs each operation once with exit 0', async () => {
    const ran = new Map<string, number>();
    const env = () => sandboxEnv(live.sandbox, live.listener);
    const c = await cliClient('channels', env, ran);
    const step = (operation: string, call: ReturnType<CliCall>) => succeeded(operation, call);
    const later = (ms = 5_000) => live.sandbox.advance(ms);

    await step('get-health-check', c.GET('/health-check'));
    expect((await step('list-networks', c.GET('/networks'))).data.length).toBeGreaterThan(0);
    const channel = await step('create-channel', c.POST('/channels', { body: { name: 'cli-payouts' } }));
    const channel_id = channel.channel_id;
    await step('list-channels', c.GET('/channels', { params: { query: { limit: 10 } } }));
    await step('get-channel', c.GET('/channels/{channel_id}', { params: { path: { channel_id } } }));
    await step('update-channel', c.PATCH('/channels/{channel_id}', { params: { path: { channel_id } }, body: { name: 'cli-payouts-2' } }));
    const wallet = await step('create-wallet', c.POST('/wallets', { body: { name: 'cli-treasury', wallet_owner_address: OWNER, chain_selector: SEPOLIA, wallet_type: 'ecdsa', status_channel_id: channel_id } }));
    later();
    await step('list-wallets', c.GET('/wallets'));
    expect((await step('get-wallet', c.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: wallet.wallet_id } } }))).status).toBe('deployed');
    await step('update-wallet', c.PATCH('/wallets/{wallet_id}', { params: { path: { wallet_id: wallet.wallet_id } }, body: { name: 'cli-treasury-2' } }));

    const query = await step('create-query', c.POST('/channels/{channel_id}/queries', {
      params: { path: { channel_id } },
      body: { idempotency_key: 'q-1', query_kind: 'evm_call', chain_selector: SEPOLIA, params: { contract_address: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', call_data: '0x18160ddd', block_selection: { type: 'latest' } } },
    }));
    later();
    await step('list-queries', c.GET('/channels/{channel_id}/queries', { params: { path: { channel_id } } }));
    expect((await step('get-query', c.GET('/channels/{channel_id}/queries/{query_id}', { params: { path: { channel_id, query_id: query.query_id } } }))).status).toBe('completed');

    const watcher = await step('create-watcher', c.POST('/channels/{channel_id}/watchers', {
      params: { path: { channel_id } },
      body: { name: 'cli-watch', chain_selector: SEPOLIA, address: '0x3E5c63644E683549055b9Be8653de26E0B4CD36E', service: 'dta', events: ['SubscriptionRequested'] },
    }));
    later();
    await step('list-watchers', c.GET('/channels/{channel_id}/watchers', { params: { path: { channel_id } } }));
    await step('get-watcher', c.GET('/channels/{channel_id}/watchers/{watcher_id}', { params: { path: { channel_id, watcher_id: watcher.watcher_id } } }));
    await step('update-watcher', c.PATCH('/channels/{channel_id}/watchers/{watcher_id}', { params: { path: { channel_id, watcher_id: watcher.watcher_id } }, body: { name: 'cli-watch-2' } }));

    const transactions = [{ to: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', value: '0', data: '0x' }];
    const draft = await step('create-operation', c.POST('/channels/{channel_id}/operations', {
      params: { path: { channel_id } },
      body: { chain_selector: SEPOLIA, address: wallet.address, wallet_operation_id: '1', deadline: 0, transactions },
    }));
    expect(draft.status).toBe('pending_signature');
    await step('list-operations', c.GET('/channels/{channel_id}/operations', { params: { path: { channel_id } } }));
    await step('get-operation', c.GET('/channels/{channel_id}/operations/{operation_id}', { params: { path: { channel_id, operation_id: draft.operation_id } } }));
    const cancelled = await step('finalize-or-cancel-operation', c.PATCH('/channels/{channel_id}/operations/{operation_id}', {
      params: { path: { channel_id, operation_id: draft.operation_id } },
      body: { status: 'cancelled' },
    }));
    expect(cancelled.status).toBe('cancelled');
    later();
    const events = await step('list-channel-events', c.GET('/channels/{channel_id}/events', { params: { path: { channel_id } } }));
    await step('search-channel-events', c.GET('/channels/{channel_id}/events/search', { params: { path: { channel_id } } }));
    await step('get-channel-event', c.GET('/channels/{channel_id}/events/search/{event_id}', { params: { path: { channel_id, event_id: events.events.find((event: { event_id?: string }) => event.event_id).event_id } } }));

    expect([...ran.keys()].sort()).toEqual(namesOf('channels', channelsTable));
  });
});

describe('coordinator, evaluation and reporting: every operation', () => {
  const live = useListeningSandbox({ pace: 0 });
  it('runs each operation once with exit 0', async () => {
    const ran = new Map<string, number>();
    const env = () => sandboxEnv(live.sandbox, live.listener);
    const c = await cliClient('coordinator', env, ran);
    const evaluation = await cliClient('evaluation', env, ran);
    const reporting = await cliClient('reporting', env, ran);
    // The coordinator scenario's step(operationId, call, expectedStatus): here the exit code says it all.
    // Its calls are this file's CLI client's (the scenario types them as the SDK client's, to check its bodies).
    const step = (operation: string, call: Promise<unknown>, _status?: number) => succeeded(operation, call as ReturnType<CliCall>);
    const id = <P extends Record<string, string>>(path: P) => ({ params: { path } });
    const later = () => live.sandbox.advance(1_000);

    // An evaluation of a call no target protects: it ends ready, and reporting lists its transaction.
    await step('get-health-check', evaluation.GET('/health-check'));
    const requested = await step('request-evaluation', evaluation.POST('/evaluate', {
      body: {
        caller_address: CALLER,
        subject: '0x1111111111111111111111111111111111111111',
        function_signature: TRANSFER,
        parameters: { to: TOKEN, amount: '2500' },
        permit_parameters: [`0x${'00'.repeat(12)}${CALLER.slice(2)}`, `0x${'00'.repeat(31)}01`],
        chain_selector: SEPOLIA,
        unique_evaluation_id: 'cli-every-operation',
      },
    }));
    for (let i = 0; i < 10; i++) later();
    expect((await step('get-evaluation-by-permit-id', evaluation.GET('/evaluate/{permitId}', id({ permitId: requested.permit_id })))).status).toBe('ready');

    await runCoordinatorScenario({
      coordinator: c as unknown as PolicyClient['coordinator'],
      step,
      sandbox: live.sandbox,
      beforeRegistryArchived: async ({ registry, policiesAt, identitiesAt }) => {
        // Reporting, as of the moment the onchain policy and the target were live, and of now for identities.
        await step('get-health', reporting.GET('/health'));
        const listedPolicies = await step('list-policies', reporting.GET('/policies', { params: { query: { as_of: policiesAt } } }));
        const livePolicy = listedPolicies.policies[0];
        await step('get-policy', reporting.GET('/policies/{chain_selector}/{address}', { params: { path: { chain_selector: livePolicy.chain_selector, address: livePolicy.address }, query: { as_of: policiesAt } } }));
        await step('get-policy-version', reporting.GET('/policies/{chain_selector}/{address}/versions/{version}', { params: { path: { chain_selector: livePolicy.chain_selector, address: livePolicy.address, version: 'latest' } } }));
        const listedTargets = await step('list-targets', reporting.GET('/targets', { params: { query: { as_of: policiesAt } } }));
        const liveTarget = listedTargets.targets[0];
        await step('get-target', reporting.GET('/targets/{chain_selector}/{address}', { params: { path: { chain_selector: liveTarget.chain_selector, address: liveTarget.address }, query: { as_of: policiesAt } } }));
        const listedIdentities = await step('list-identities', reporting.GET('/identities', { params: { query: { as_of: identitiesAt } } }));
        await step('get-identity-by-ccid', reporting.GET('/identities/{ccid}', { params: { path: { ccid: listedIdentities.identities[0].ccid }, query: { as_of: identitiesAt } } }));
        const transactions = await step('list-transactions', reporting.GET('/transactions'));
        await step('get-transaction', reporting.GET('/transactions/{chain_selector}/{tx_hash}', { params: { path: { chain_selector: SEPOLIA, tx_hash: transactions.transactions[0].tx_hash } } }));
        await step('list-permits', reporting.GET('/permits'));
        const registryContracts = await step('get-registry', c.GET('/registries/{registry_id}', id({ registry_id: registry.id })));
        const identityRegistry = registryContracts.identity_registries?.[0] ?? registryContracts.onchain_identity_registries?.[0];
        await step('list-registry-usage-events', reporting.GET('/registry-usage/events', { params: { query: { registry_type: 'identity', chain_selector: SEPOLIA, registry_address: identityRegistry?.address ?? TOKEN } } }));
      },
    });

    expect([...ran.keys()].sort()).toEqual([...namesOf('coordinator', coordinatorTable), ...namesOf('evaluation', evaluationTable), ...namesOf('reporting', reportingTable)].sort());
  });
});

describe('streams: every operation', () => {
  const live = useListeningSandbox();
  it('runs each operation once with exit 0', async () => {
    const ran = new Map<string, number>();
    const env = () => sandboxEnv(live.sandbox, live.listener);
    const s = await cliClient('streams', env, ran);
    const step = (operation: string, call: ReturnType<CliCall>) => succeeded(operation, call);
    const now = Math.floor(Date.now() / 1000) - 5;

    expect((await step('get-latest-report', s.GET('/api/v1/reports/latest', { params: { query: { feedID: ETH_USD } } }))).report.feedID).toBe(ETH_USD);
    await step('get-report-at-timestamp', s.GET('/api/v1/reports', { params: { query: { feedID: ETH_USD, timestamp: now } } }));
    const bulk = await step('get-bulk-reports', s.GET('/api/v1/reports/bulk', { params: { query: { feedIDs: [ETH_USD, BTC_USD], timestamp: now } } }));
    expect(bulk.reports.map((report: { feedID: string }) => report.feedID).sort()).toEqual([ETH_USD, BTC_USD].sort());
    expect((await step('get-reports-page', s.GET('/api/v1/reports/page', { params: { query: { feedID: ETH_USD, startTimestamp: now - 3, limit: 2 } } }))).reports).toHaveLength(2);
    expect((await step('list-streams', s.GET('/api/v1/discovery'))).feeds.length).toBeGreaterThan(0);
    const origins = await step('get-stream-origins', s.HEAD('/'));
    expect(origins['x-cll-available-origins']).toBeDefined();
    // The WebSocket operation is the live stream: one decoded report, then the stream closes.
    const watched = await cli(['streams', 'stream-reports', `--feed-ids=${ETH_USD}`, '--count', '1'], { env: env() });
    expect([watched.code, watched.stderr]).toEqual([0, expect.stringContaining('connected')]);
    expect(JSON.parse(watched.stdout)).toMatchObject({ feedID: ETH_USD, version: 'V3', price: expect.stringMatching(/^\d+(\.\d+)?$/) });
    ran.set('streams stream-reports', watched.code);

    expect([...ran.keys()].sort()).toEqual(namesOf('streams', streamsTable));
  });
});
