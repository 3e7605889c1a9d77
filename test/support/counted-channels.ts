import { createChannelsClient, unwrap, type ChannelsClient, type ChannelsClientOptions } from '../../src/channels/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';

/** Sepolia's chain selector, a network the sandbox seeds. */
export const SEPOLIA = '16015286601757825753';

export interface CountedChannels {
  channels: ChannelsClient;
  /** Requests the client has sent so far (every attempt counts). */
  requests(): number;
  channel_id: string;
  /** The new wallet's address. */
  address: string;
}

/**
 * A channels client on `sandbox` whose requests are counted, and a new
 * channel and wallet to use: what a test of the client's retries, limits or
 * flows starts from. `options` are the client's own (time limits, retry).
 */
let made = 0;

export async function countedChannels(
  sandbox: Sandbox,
  { walletType = 'ecdsa', ...options }: Partial<ChannelsClientOptions> & { walletType?: 'ecdsa' | 'rsa' } = {},
): Promise<CountedChannels> {
  let count = 0;
  const channels = createChannelsClient({
    apiKey: sandbox.credentials.channels.apiKey,
    baseUrl: 'https://acme.example/v1',
    ...options,
    fetch: (input, init) => {
      count++;
      return sandbox.fetch(input, init);
    },
  });
  // Names are unique per organisation: each call makes its own.
  made++;
  const channel = await unwrap(channels.POST('/channels', { body: { name: `claims-${made}` } }));
  const wallet = await unwrap(
    channels.POST('/wallets', {
      body: { name: `treasury-${made}`, wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: SEPOLIA, wallet_type: walletType },
    }),
  );
  return { channels, requests: () => count, channel_id: channel.channel_id, address: wallet.address };
}
