// Faults with handles (issue 30, item 4): `inject()` returns a handle whose
// `remove()` ends that fault alone, whenever the test says so, and
// `clearFaults()` ends them all; neither touches the data (channels,
// wallets, operations), which only `reset()` takes back to the seed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChannelsClient, unwrap, type ChannelsClient } from '../../src/channels/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { apiError } from '../support/api-error.js';
import { channelOperation } from '../support/channel-operation.js';
import { readmeClaim } from '../support/readme-claim.js';
import { sandboxValidator } from '../support/sandbox-validator.js';

let sandbox: Sandbox;
let channels: ChannelsClient;

beforeEach(() => {
  sandbox = createSandbox({ pace: 0, validate: sandboxValidator() });
  channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, fetch: sandbox.fetch, retry: false });
});

afterEach(() => {
  const violations = [...sandbox.violations];
  sandbox.close();
  expect(violations).toEqual([]);
});

/** The status `getChannel` answers for this channel: 200, or the injected fault's. */
async function getChannelStatus(channel_id: string): Promise<number> {
  const { response } = await channels.GET('/channels/{channel_id}', { params: { path: { channel_id } } });
  return response.status;
}

/** A channel with a wallet and an operation: the data a fault must leave alone. */
async function someData() {
  const reference = await channelOperation(channels, { channelName: 'kept', to: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', signature: `0x${'11'.repeat(65)}` });
  return reference;
}

/** The channel, its operation and the wallets, read back through the client: they must still be there. */
async function expectDataKept({ channel_id, operation_id }: { channel_id: string; operation_id: string }) {
  expect((await unwrap(channels.GET('/channels/{channel_id}', { params: { path: { channel_id } } }))).name).toBe('kept');
  const operation = await unwrap(channels.GET('/channels/{channel_id}/operations/{operation_id}', { params: { path: { channel_id, operation_id } } }));
  expect(operation.operation_id).toBe(operation_id);
  expect((await unwrap(channels.GET('/wallets'))).data.map((wallet) => wallet.name)).toEqual(['treasury']);
}

describe(readmeClaim('`sandbox.inject(...)` returns a handle: `remove()` ends that fault'), () => {
  it('fails until I say so: an Infinity fault fails every call until remove(), then the data is all there', async () => {
    const data = await someData();
    const fault = sandbox.inject({ route: 'getChannel', status: 503, times: Number.POSITIVE_INFINITY });
    for (let call = 0; call < 5; call++) {
      expect((await apiError(unwrap(channels.GET('/channels/{channel_id}', { params: { path: { channel_id: data.channel_id } } })))).status).toBe(503);
    }
    fault.remove();
    await expectDataKept(data);
  });

  it('remove() is idempotent, and ends only its own fault', async () => {
    const { channel_id } = await someData();
    const first = sandbox.inject({ route: 'getChannel', status: 503, times: Number.POSITIVE_INFINITY });
    const second = sandbox.inject({ route: 'getChannel', status: 429, times: Number.POSITIVE_INFINITY });
    expect(await getChannelStatus(channel_id)).toBe(503);
    first.remove();
    first.remove();
    expect(await getChannelStatus(channel_id)).toBe(429);
    expect(await getChannelStatus(channel_id)).toBe(429);
    second.remove();
    expect(await getChannelStatus(channel_id)).toBe(200);
  });

  it('remove() of a fault already used up, or taken away by reset(), does nothing to the faults injected since', async () => {
    const { channel_id } = await someData();
    const usedUp = sandbox.inject({ route: 'getChannel', status: 503 });
    expect(await getChannelStatus(channel_id)).toBe(503);
    const later = sandbox.inject({ route: 'listWallets', status: 500, times: 2 });
    usedUp.remove();
    expect((await channels.GET('/wallets')).response.status).toBe(500);

    sandbox.reset();
    const afterReset = sandbox.inject({ route: 'listNetworks', status: 502 });
    later.remove();
    expect((await channels.GET('/networks')).response.status).toBe(502);
    afterReset.remove();
  });
});

describe(readmeClaim('`sandbox.clearFaults()` ends every fault and keeps the data'), () => {
  it('every fault ends, on every route, and the channel, its operation and the wallet are still there', async () => {
    const data = await someData();
    sandbox.inject({ route: 'getChannel', status: 503, times: Number.POSITIVE_INFINITY });
    sandbox.inject({ route: 'listWallets', status: 500, times: Number.POSITIVE_INFINITY });
    sandbox.inject({ status: 429, times: 3 });
    expect(await getChannelStatus(data.channel_id)).toBe(503);
    expect((await channels.GET('/wallets')).response.status).toBe(500);

    sandbox.clearFaults();
    await expectDataKept(data);
    expect((await channels.GET('/networks')).response.status).toBe(200);
  });

  it('a handle of a cleared fault removes nothing injected after', async () => {
    const { channel_id } = await someData();
    const cleared = sandbox.inject({ route: 'getChannel', status: 503, times: Number.POSITIVE_INFINITY });
    sandbox.clearFaults();
    sandbox.inject({ route: 'getChannel', status: 504 });
    cleared.remove();
    expect(await getChannelStatus(channel_id)).toBe(504);
    expect(await getChannelStatus(channel_id)).toBe(200);
  });
});
