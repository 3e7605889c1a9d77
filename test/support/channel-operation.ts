import { createOperation, unwrap, type ChannelsClient } from '../../src/channels/index.js';

const SEPOLIA = '16015286601757825753';

export interface ChannelOperationOptions {
  /** The new channel's name. */
  channelName: string;
  /** Where the operation's one transaction goes. */
  to: string;
  /** The operation's signature; without one it is a draft, pending its signature. */
  signature?: string;
}

/** A new channel and ECDSA wallet on Sepolia, and an operation of one transaction from that wallet: its reference. */
export async function channelOperation(channels: ChannelsClient, { channelName, to, signature }: ChannelOperationOptions): Promise<{ channel_id: string; operation_id: string }> {
  const channel = await unwrap(channels.POST('/channels', { body: { name: channelName } }));
  const wallet = await unwrap(
    channels.POST('/wallets', {
      body: { name: 'treasury', wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: SEPOLIA, wallet_type: 'ecdsa' },
    }),
  );
  const operation = await createOperation(channels, channel.channel_id, {
    chain_selector: SEPOLIA,
    address: wallet.address,
    wallet_operation_id: '1',
    deadline: 0,
    ...(signature === undefined ? {} : { signature }),
    transactions: [{ to, value: '0', data: '0x' }],
  });
  return { channel_id: channel.channel_id, operation_id: operation.operation_id };
}
