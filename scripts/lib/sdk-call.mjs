// The SDK call of one operation as the reference docs show it: how each
// API's client is made, and the call with its parameters and body written as
// a person would. No dependencies: the docs build uses it for every
// operation's sample (code-samples.mjs), and the docs' "Try it" console
// (scripts/docs-console/) runs it in the page to show the call with the values
// the reader typed.

/**
 * The channels client as the README makes it: the API lives at each
 * organisation's own address, so every sample passes it as `baseUrl`. One
 * option a line, so the panel stays narrow.
 */
/** The organisation's address the channels samples show (the docs' "Try it" shows it too). */
export const CHANNELS_SAMPLE_BASE_URL = 'https://<org>.example/v1';

export const CHANNELS_CLIENT = [
  'const channels = createChannelsClient({',
  '  apiKey: process.env.CHANNELS_API_KEY!,',
  `  baseUrl: '${CHANNELS_SAMPLE_BASE_URL}', // your organisation's address`,
  '});',
].join('\n');

/** How each API's client is made and reached in a sample. */
export const CLIENTS = {
  channels: {
    entry: 'channels',
    create: CHANNELS_CLIENT,
    factory: 'createChannelsClient',
    call: 'channels',
  },
  streams: {
    entry: 'streams',
    create: 'const streams = createStreamsClient({ apiKey: process.env.STREAMS_API_KEY!, apiSecret: process.env.STREAMS_API_SECRET! });',
    factory: 'createStreamsClient',
    call: 'streams',
  },
  'policy-coordinator': {
    entry: 'policy',
    create: 'const policy = createPolicyClient({ apiKey: process.env.POLICY_API_KEY! });',
    factory: 'createPolicyClient',
    call: 'policy.coordinator',
  },
  'policy-evaluation': {
    entry: 'policy',
    create: 'const policy = createPolicyClient({ apiKey: process.env.POLICY_API_KEY! });',
    factory: 'createPolicyClient',
    call: 'policy.evaluation',
  },
  'policy-reporting': {
    entry: 'policy',
    create: 'const policy = createPolicyClient({ apiKey: process.env.POLICY_API_KEY! });',
    factory: 'createPolicyClient',
    call: 'policy.reporting',
  },
};

/** A TypeScript literal of a JSON value, as a person would write it: bare keys where they can be, single quotes. */
export function literal(value, indent = '') {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${literal(item, inner)},`).join('\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const key = (name) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quote(name));
    return `{\n${entries.map(([name, item]) => `${inner}${key(name)}: ${literal(item, inner)},`).join('\n')}\n${indent}}`;
  }
  return typeof value === 'string' ? quote(value) : JSON.stringify(value);
}

export function quote(text) {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/**
 * The sample that makes one request with the SDK: the import, the client and
 * `await unwrap(client.METHOD(path, { params, body }))`. Empty parameter
 * groups and an undefined body are left out.
 */
export function sdkCallSample(api, method, path, { params = {}, body } = {}) {
  const client = CLIENTS[api];
  if (client === undefined) throw new Error(`no client for the API ${api}`);
  const init = {};
  const groups = Object.fromEntries(Object.entries(params).filter(([, values]) => values && Object.keys(values).length > 0));
  if (Object.keys(groups).length > 0) init.params = groups;
  if (body !== undefined) init.body = body;
  const args = Object.keys(init).length > 0 ? `${quote(path)}, ${literal(init)}` : quote(path);
  return [
    `import { ${client.factory}, unwrap } from '@ourteam/service-sdk/${client.entry}';`,
    '',
    client.create,
    `const answer = await unwrap(${client.call}.${method.toUpperCase()}(${args}));`,
  ].join('\n');
}
