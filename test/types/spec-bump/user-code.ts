// Code a user wrote against the channels 0.8.0 types. A minor bump of the
// spec must leave it compiling unchanged (see channels-api.ts for how).
import createClient from 'openapi-fetch';
import type { components, paths } from './channels-api.js';

type ChannelStatus = components['schemas']['ChannelStatus'];

/** An exhaustive switch: a new response enum value breaks it (a "dangerous" change). */
export function statusLabel(status: ChannelStatus): string {
  switch (status) {
    case 'active':
      return 'open';
    case 'archived':
      return 'closed';
    default: {
      const unhandled: never = status;
      return unhandled;
    }
  }
}

export async function createListAndArchive(baseUrl: string, apiKey: string): Promise<string[]> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Apikey ${apiKey}` } });

  const created = await client.POST('/channels', { body: { name: 'orders', description: 'Order events' } });
  if (created.error) throw new Error(`${created.error.type}: ${created.error.message}`);

  const listed = await client.GET('/channels', { params: { query: { status: ['active', 'archived'], limit: 50 } } });
  const lines = (listed.data?.data ?? []).map(
    (channel) => `${channel.name} (${statusLabel(channel.status)}), ${channel.description ?? 'no description'}, since ${channel.created_at}`,
  );

  await client.PATCH('/channels/{channel_id}', {
    params: { path: { channel_id: created.data.channel_id } },
    body: { status: 'archived' },
  });
  return lines;
}
