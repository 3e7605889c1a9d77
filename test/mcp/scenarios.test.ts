// Scenarios: the sequences of tool calls an agent makes for a task, against
// `service-sdk mcp --sandbox`, with the sandbox's state read back through
// the tools afterwards. Each scenario has a server of its own.
import { describe, expect, it } from 'vitest';
import { startMcp } from './support/mcp-session.js';

const SEPOLIA = '16015286601757825753';
const OWNER = '0x7563f6632677aDA0E0F8F0d8734b4D2327DA39eA';
const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const BTC_USD = '0x00037da06d56d083fe599397a4769a042d63aa73dc4ef57709d31e9971a5b439';

describe('service-sdk mcp --sandbox: an agent\'s scenarios', () => {
  it('creates a channel and a wallet, then lists them: both are there, as created', async () => {
    const agent = await startMcp(['--sandbox', '--apis', 'channels']);
    const before = (await agent.call('channels_list_channels', {})).data as unknown[];
    const channel = await agent.call('channels_create_channel', { body: { name: 'payments' } });
    const wallet = await agent.call('channels_create_wallet', { body: { name: 'payments-treasury', wallet_owner_address: OWNER, chain_selector: SEPOLIA, wallet_type: 'ecdsa' } });
    const channels = (await agent.call('channels_list_channels', {})).data as { channel_id: string; name: string }[];
    expect(channels).toHaveLength(before.length + 1);
    expect(channels).toContainEqual(expect.objectContaining({ channel_id: channel.channel_id, name: 'payments' }));
    const wallets = (await agent.call('channels_list_wallets', { chain_selector: SEPOLIA })).data as { wallet_id: string; name: string; wallet_owner_address: string }[];
    expect(wallets).toContainEqual(expect.objectContaining({ wallet_id: wallet.wallet_id, name: 'payments-treasury', wallet_owner_address: OWNER }));
    expect(await agent.call('channels_get_channel', { channel_id: channel.channel_id })).toMatchObject({ name: 'payments' });
  });

  it('finds, reads and requests an evaluation through the dynamic tools, waits for it, and reads it ready', async () => {
    const agent = await startMcp(['--sandbox', '--dynamic']);
    const found = (await agent.call('search_tools', { query: 'request evaluation' })).tools as { name: string }[];
    expect(found[0]!.name).toBe('evaluation_request_evaluation');
    const described = await agent.call('describe_tool', { name: 'evaluation_request_evaluation' });
    expect(described.inputSchema).toMatchObject({ required: ['body'] });
    const body = {
      caller_address: OWNER,
      subject: '0x2d8af333D9498f45B21C8Fe8F40724112EF1b69e',
      function_signature: 'transfer(address,uint256)',
      parameters: { to: '0xB8f4CC5179D1c68b54003171CD8D06587731C073', amount: '1000' },
      permit_parameters: [],
      chain_selector: SEPOLIA,
      unique_evaluation_id: 'agent-scenario-1',
    };
    const requested = await agent.call('call_tool', { name: 'evaluation_request_evaluation', arguments: { body } });
    const waited = await agent.call('call_tool', { name: 'wait_for_evaluation', arguments: { permit_id: requested.permit_id, timeout_seconds: 120 } });
    expect(waited).toMatchObject({ permit_id: requested.permit_id, status: 'ready' });
    // The service deduplicates: the same request again is the same evaluation.
    expect(await agent.call('call_tool', { name: 'evaluation_request_evaluation', arguments: { body } })).toMatchObject({ permit_id: requested.permit_id });
    expect(await agent.call('call_tool', { name: 'evaluation_get_evaluation_by_permit_id', arguments: { permitId: requested.permit_id } })).toMatchObject({ status: 'ready' });
  });

  it('reads the latest reports of two streams and verifies each', async () => {
    const agent = await startMcp(['--sandbox', '--apis', 'streams', '--read-only']);
    const { reports } = (await agent.call('latest_reports', { feed_ids: [ETH_USD, BTC_USD] })) as { reports: { feedID: string; fullReport: string; decoded: { feedID: string } }[] };
    expect(reports.map((report) => report.feedID)).toEqual([ETH_USD, BTC_USD]);
    expect(reports.map((report) => report.decoded.feedID)).toEqual([ETH_USD, BTC_USD]);
    for (const report of reports) expect(await agent.call('verify_report', { full_report: report.fullReport })).toMatchObject({ valid: true });
    // What the stream answers on its own is the same report.
    const single = await agent.call('streams_get_latest_report', { feedID: BTC_USD });
    expect((single.report as { feedID: string }).feedID).toBe(BTC_USD);
  });
});
