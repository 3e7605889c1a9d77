/**
 * `npm start`: the main job. Runs every flow of the three APIs with the typed
 * clients against the offline sandbox (in process, no network): operations,
 * queries, watchers and evaluations move through their real states, and
 * lists are read across pages. One line per step with its duration, and the
 * statuses each wait saw. Pointed at a real deployment (`--base-url`), it
 * runs the read-only steps of one API unless writes are allowed.
 *
 *   npm start
 *   npm start -- --api streams
 *   npm start -- --api channels --base-url https://<org>.example/v1 --api-key <key> [--allow-writes]
 *   npm start -- --api streams  --base-url https://api.testnet-dataengine.chain.link --api-key <uuid> --secret <secret>
 *   npm start -- --api policy   --base-url https://ace.api.chain.link --api-key <key>
 *
 * The same settings can come from SDK_API, SDK_BASE_URL, SDK_API_KEY,
 * SDK_API_SECRET and SDK_ALLOW_WRITES=1.
 */
import { parseArgs } from 'node:util';
import { createChannelsClient } from '../src/channels/index.js';
import { createPolicyClient } from '../src/policy/index.js';
import { createSandbox, type Sandbox } from '../src/sandbox/index.js';
import { createStreamsClient } from '../src/streams/index.js';
import { channelsTour } from './start/channels.js';
import { duration } from './start/output.js';
import { policyTour } from './start/policy.js';
import { liveTour, streamsTour } from './start/streams.js';

type ApiName = 'channels' | 'streams' | 'policy';
const API_NAMES: readonly ApiName[] = ['channels', 'streams', 'policy'];

const { values: flags } = parseArgs({
  options: {
    api: { type: 'string' },
    'base-url': { type: 'string' },
    'api-key': { type: 'string' },
    secret: { type: 'string' },
    'allow-writes': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});

const settings = {
  api: flags.api ?? process.env.SDK_API,
  baseUrl: flags['base-url'] ?? process.env.SDK_BASE_URL,
  apiKey: flags['api-key'] ?? process.env.SDK_API_KEY,
  secret: flags.secret ?? process.env.SDK_API_SECRET,
  allowWrites: flags['allow-writes'] ?? process.env.SDK_ALLOW_WRITES === '1',
};

function usage(message?: string): never {
  if (message) console.error(`error: ${message}\n`);
  console.error('usage: npm start [-- --api channels|streams|policy] [--base-url URL --api-key KEY [--secret SECRET] [--allow-writes]]');
  process.exit(message ? 2 : 0);
}

async function main() {
  if (flags.help) usage();
  if (settings.api !== undefined && !API_NAMES.includes(settings.api as ApiName)) usage(`unknown API ${JSON.stringify(settings.api)}: channels, streams or policy`);
  const real = settings.baseUrl !== undefined;
  if (real && settings.api === undefined) usage('with --base-url, say which API it is with --api channels|streams|policy');
  if (real && !settings.apiKey) usage('--api-key (or SDK_API_KEY) is required with --base-url');
  if (real && settings.api === 'streams' && !settings.secret) usage('--secret (or SDK_API_SECRET) is required for the streams API');

  const apis = settings.api === undefined ? API_NAMES : [settings.api as ApiName];
  const started = performance.now();
  let sandbox: Sandbox | undefined;
  if (!real) {
    sandbox = createSandbox();
    console.log('Against the offline sandbox (in process; every state change is real, nothing leaves this machine).\n');
  }
  const writes = !real || settings.allowWrites;
  const tour = { writes, fast: !real };
  try {
    for (const api of apis) {
      console.log(`${api}:`);
      if (api === 'channels') {
        const channels = sandbox
          ? createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, fetch: sandbox.fetch })
          : createChannelsClient({ apiKey: settings.apiKey!, baseUrl: settings.baseUrl! });
        await channelsTour(channels, tour);
      } else if (api === 'streams') {
        const streams = sandbox
          ? createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch })
          : createStreamsClient({ apiKey: settings.apiKey!, apiSecret: settings.secret!, baseUrl: settings.baseUrl! });
        await streamsTour(streams);
        if (sandbox) await liveTour(sandbox);
      } else {
        const policy = sandbox
          ? createPolicyClient({ apiKey: sandbox.credentials.policy.apiKey, fetch: sandbox.fetch })
          : createPolicyClient({ apiKey: settings.apiKey!, baseUrl: settings.baseUrl! });
        await policyTour(policy, tour);
      }
      console.log('');
    }
    console.log(`Done in ${duration(performance.now() - started)}.`);
  } finally {
    sandbox?.close();
  }
}

main().catch((error: unknown) => {
  console.error(`\nFailed: ${(error as Error).message}`);
  process.exitCode = 1;
});
