// Channels in a few lines: list networks, page through wallets, run a draft
// operation through sign and finalize, and wait for its confirmation.
//
//   CHANNELS_BASE_URL=https://<org>.example/v1 CHANNELS_API_KEY=... CHANNEL_ID=... WALLET_ADDRESS=0x... npx tsx examples/channels.ts
//   npm run example -- channels     (the same against the offline sandbox)
//
// In your project, import from '@ourteam/service-sdk/channels'.
import {
  createChannelsClient,
  DraftOperationError,
  executeWithDraft,
  isChannelsError,
  paginate,
  unwrap,
  waitForOperation,
} from '../src/channels/index.js';

const channels = createChannelsClient({
  apiKey: process.env.CHANNELS_API_KEY ?? '',
  baseUrl: process.env.CHANNELS_BASE_URL,
});

const networks = await unwrap(channels.GET('/networks'));
console.log('networks:', networks.data.map((n) => `${n.name} (${n.chain_selector})`).join(', '));

for await (const wallet of paginate(channels, '/wallets', { pageSize: 50, maxItems: 2 })) {
  console.log('wallet:', wallet.name, wallet.address, wallet.status);
}

const channelId = process.env.CHANNEL_ID ?? '';
const walletAddress = process.env.WALLET_ADDRESS ?? '';
try {
  const accepted = await executeWithDraft(
    channels,
    channelId,
    {
      chain_selector: networks.data[0]?.chain_selector ?? '16015286601757825753',
      address: walletAddress,
      wallet_operation_id: String(Date.now()), // the deduplication key: retries are safe
      deadline: Math.floor(Date.now() / 1000) + 3600,
      transactions: [{ to: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', value: '0', data: '0x' }],
    },
    // Your wallet computes the operation's digest and signs it here.
    async () => ({ signature: `0x${'11'.repeat(65)}`, digest: `0x${'d1'.repeat(32)}` }),
  );
  console.log('operation', accepted.operation_id, 'is', accepted.status);
  const confirmed = await waitForOperation(channels, { channel_id: channelId, operation_id: accepted.operation_id }, {
    until: 'confirmed',
    intervalMs: 250,
    onStatus: (status) => console.log('  status:', status),
  });
  console.log('confirmed at', new Date((confirmed.confirmed_at ?? confirmed.updated_at) * 1000).toISOString());
} catch (error) {
  if (error instanceof DraftOperationError && isChannelsError(error.cause, 'CONFLICT', 'OPERATION_DEADLINE_ELAPSED')) console.error('the deadline passed before signing');
  else throw error;
}
