/**
 * `npm run example -- <channels|streams|policy>`: runs examples/<api>.ts, as
 * is, against the offline sandbox. The sandbox listens on 127.0.0.1 and the
 * example gets its base URL and credentials through the environment
 * variables its header names, the same ones it reads against a real
 * deployment. For channels, a channel and a wallet are made first, as an
 * organisation would already have them.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createChannelsClient, unwrap } from '../src/channels/index.js';
import { createSandbox } from '../src/sandbox/index.js';

const EXAMPLES = ['channels', 'streams', 'policy'] as const;
type Example = (typeof EXAMPLES)[number];
const root = join(import.meta.dirname, '..');

const name = process.argv[2];
if (!EXAMPLES.includes(name as Example)) {
  console.error(`usage: npm run example -- ${EXAMPLES.join('|')}${name === undefined ? '' : ` (not ${JSON.stringify(name)})`}`);
  process.exit(2);
}

const sandbox = createSandbox();
const listener = await sandbox.listen();
let code = 1;
try {
  const env = await environmentFor(name as Example);
  code = await run(join(root, 'examples', `${name}.ts`), env);
} finally {
  await listener.close();
  sandbox.close();
}
process.exit(code);

async function environmentFor(example: Example): Promise<Record<string, string>> {
  const { channels, streams, policy } = sandbox.credentials;
  if (example === 'streams') {
    return { STREAMS_BASE_URL: listener.baseUrls.streams, STREAMS_API_KEY: streams.apiKey, STREAMS_API_SECRET: streams.apiSecret };
  }
  if (example === 'policy') return { POLICY_BASE_URL: listener.baseUrls.policy, POLICY_API_KEY: policy.apiKey };
  const client = createChannelsClient({ apiKey: channels.apiKey, fetch: sandbox.fetch });
  const channel = await unwrap(client.POST('/channels', { body: { name: 'example' } }));
  const wallet = await unwrap(
    client.POST('/wallets', {
      body: { name: 'example', wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: '16015286601757825753', wallet_type: 'ecdsa' },
    }),
  );
  return {
    CHANNELS_BASE_URL: listener.baseUrls.channels,
    CHANNELS_API_KEY: channels.apiKey,
    CHANNEL_ID: channel.channel_id,
    WALLET_ADDRESS: wallet.address,
  };
}

/** Runs the example in its own process (it reaches the sandbox over HTTP); resolves with its exit code. */
function run(file: string, env: Record<string, string>): Promise<number> {
  const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const child = spawn(process.execPath, [tsx, file], { cwd: root, env: { ...process.env, ...env }, stdio: 'inherit' });
  return new Promise((resolve) => child.once('exit', (exitCode) => resolve(exitCode ?? 1)));
}
