// `service-sdk mcp`'s tool list, as an MCP client lists it over stdio: one
// tool per operation of every API's table, with the spec's summary, its
// parameters and body as JSON Schema 2020-12, and hints from its method;
// the SDK's own tools; and the modes that shorten the list.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { CLI_APIS } from '../../src/cli/apis.js';
import { loadTable, type CliOperation } from '../../src/cli/spec-table.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeClaim } from '../support/readme-claim.js';
import { ROOT, sharedMcp } from './support/mcp-session.js';

const startMcp = sharedMcp();

type ListedTool = Awaited<ReturnType<Awaited<ReturnType<typeof startMcp>>['client']['listTools']>>['tools'][number];

const SDK_TOOLS = ['wait_for_operation', 'wait_for_evaluation', 'latest_reports', 'verify_report'];

/** Every operation of every API, by the tool name the server gives it. */
async function operationsByTool(): Promise<Map<string, CliOperation>> {
  const byTool = new Map<string, CliOperation>();
  for (const api of CLI_APIS) {
    for (const operation of (await loadTable(api)).operations) byTool.set(`${api.name}_${operation.name.replace(/-/g, '_')}`, operation);
  }
  return byTool;
}

async function listed(args: string[]): Promise<ListedTool[]> {
  const session = await startMcp(['--sandbox', ...args]);
  return (await session.client.listTools()).tools;
}

describe('service-sdk mcp: the tools', () => {
  it('lists one tool per operation of every API (the live stream aside) and the four SDK tools', async () => {
    const operations = await operationsByTool();
    const tools = await listed([]);
    const names = tools.map((tool) => tool.name);
    const expected = [...operations.keys()].filter((name) => name !== 'streams_stream_reports');
    expect(names.filter((name) => !SDK_TOOLS.includes(name)).sort()).toEqual(expected.sort());
    expect(names).toEqual(expect.arrayContaining(SDK_TOOLS));
  });

  it('gives each operation tool its summary, and parameters and body as JSON Schema 2020-12 that compiles', async () => {
    const operations = await operationsByTool();
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    for (const tool of await listed([])) {
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      const operation = operations.get(tool.name);
      if (operation === undefined) continue;
      expect(tool.description).toContain(`${operation.method} ${operation.path}`);
      if (operation.summary) expect(tool.description).toContain(operation.summary);
      const properties = Object.keys(tool.inputSchema.properties ?? {});
      expect(properties.sort(), tool.name).toEqual([...operation.params.map((param) => param.name), ...(operation.body ? ['body'] : [])].sort());
    }
    const createWallet = (await listed(['--apis', 'channels'])).find((tool) => tool.name === 'channels_create_wallet')!;
    const validate = ajv.compile(createWallet.inputSchema);
    expect(validate({ body: { name: 'treasury', wallet_owner_address: '0x' + 'ab'.repeat(20), chain_selector: '16015286601757825753', wallet_type: 'ecdsa' } })).toBe(true);
    expect(validate({ body: { name: 'treasury' } })).toBe(false);
    expect(validate({ body: { name: 'treasury', wallet_owner_address: 'nope', chain_selector: '1', wallet_type: 'ecdsa' } })).toBe(false);
  });

  it('marks reads read-only, cancels and deletes destructive, and the deduplicated creates idempotent', async () => {
    const byName = new Map((await listed([])).map((tool) => [tool.name, tool.annotations]));
    expect(byName.get('channels_list_wallets')).toMatchObject({ readOnlyHint: true });
    expect(byName.get('channels_create_wallet')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(byName.get('channels_finalize_or_cancel_operation')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('channels_create_query')).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    expect(byName.get('channels_create_operation')).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    const operations = await operationsByTool();
    for (const [name, operation] of operations) {
      if (operation.method === 'DELETE') expect(byName.get(name), name).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    }
  });

  it('--read-only exposes no tool that writes: every operation tool left is a GET or HEAD, and every read is there', async () => {
    const operations = await operationsByTool();
    const tools = await listed(['--read-only']);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      const operation = operations.get(tool.name);
      if (operation !== undefined) expect(['GET', 'HEAD'], tool.name).toContain(operation.method);
      else expect(SDK_TOOLS, tool.name).toContain(tool.name);
    }
    const reads = [...operations].filter(([name, operation]) => ['GET', 'HEAD'].includes(operation.method) && name !== 'streams_stream_reports').map(([name]) => name);
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(reads));
  });

  it('--apis channels,streams lists only those APIs\' tools and their SDK tools', async () => {
    const names = (await listed(['--apis', 'channels,streams'])).map((tool) => tool.name);
    expect(names.every((name) => /^(channels|streams)_/.test(name) || ['wait_for_operation', 'latest_reports', 'verify_report'].includes(name)), names.join()).toBe(true);
    expect(names).toEqual(expect.arrayContaining(['channels_list_wallets', 'streams_get_latest_report', 'wait_for_operation', 'latest_reports', 'verify_report']));
    expect(names).not.toContain('wait_for_evaluation');
  });

  it('--dynamic lists three tools that search, describe and call the others', async () => {
    const session = await startMcp(['--sandbox', '--dynamic']);
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['search_tools', 'describe_tool', 'call_tool']);
    const found = (await session.call('search_tools', { query: 'list wallets' })).tools as { name: string; writes: boolean }[];
    expect(found[0]).toMatchObject({ name: 'channels_list_wallets', writes: false });
    const described = await session.call('describe_tool', { name: 'channels_get_wallet' });
    expect(described.inputSchema).toMatchObject({ properties: { wallet_id: { type: 'string', format: 'uuid' } }, required: ['wallet_id'] });
    const listedWallets = await session.call('call_tool', { name: 'channels_list_wallets', arguments: {} });
    expect(listedWallets).toHaveProperty('data');
    expect(await session.refused('call_tool', { name: 'channels_get_wallet', arguments: { wallet_id: 'nope' } })).toMatch(/wallet_id: expected .*UUID.*got "nope"/i);
  });

  it('--dynamic --read-only calls no tool that writes', async () => {
    const session = await startMcp(['--sandbox', '--dynamic', '--read-only']);
    const found = (await session.call('search_tools', { query: 'create wallet' })).tools as { name: string }[];
    expect(found.map((tool) => tool.name)).not.toContain('channels_create_wallet');
    expect(await session.refused('call_tool', { name: 'channels_create_wallet', arguments: { body: {} } })).toContain('no tool "channels_create_wallet" (this server is read-only)');
  });

  it(readmeClaim('The size of `tools/list` in each mode (within 5%; tokens estimated as bytes / 4)'), async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const rows = [...readme.matchAll(/^ *\| (all \(default\)|`[^`]+`) \| (\d+) \| ([\d,]+) \| ([\d,]+) \|$/gm)];
    expect(rows.map((row) => row[1])).toEqual(['all (default)', '`--read-only`', '`--apis channels,streams`', '`--apis channels,streams --read-only`', '`--dynamic`']);
    const number = (text: string) => Number(text.replace(/,/g, ''));
    for (const [, mode, count, bytes, tokens] of rows) {
      const args = mode === 'all (default)' ? [] : mode!.slice(1, -1).split(' ');
      const tools = await listed(args);
      const measured = Buffer.byteLength(JSON.stringify({ tools }));
      expect(tools.length, mode).toBe(number(count!));
      expect(Math.abs(measured - number(bytes!)) / number(bytes!), `${mode}: ${measured} bytes`).toBeLessThan(0.05);
      expect(Math.abs(measured / 4 - number(tokens!)) / number(tokens!), mode).toBeLessThan(0.05);
    }
    // Five servers start here.
  }, 180_000);
});
