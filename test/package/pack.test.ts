// The package as users install it (issue 11, item 4): build, `npm pack`,
// install the tarball into a temporary project that has nothing else, type-check
// a user's TypeScript file there with `moduleResolution` `bundler` and `node16`,
// compile it and run it against Prism mocks.
//
// The temporary project lives under the OS temp folder, outside this
// repository (test/support/packed-package.ts). TypeScript and esbuild are
// ours, run against that project.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION as CHANNELS } from '../../generated/operations/channels.js';
import { API_VERSION as POLICY_COORDINATOR } from '../../generated/operations/policy-coordinator.js';
import { API_VERSION as POLICY_EVALUATION } from '../../generated/operations/policy-evaluation.js';
import { API_VERSION as POLICY_REPORTING } from '../../generated/operations/policy-reporting.js';
import { API_VERSION as STREAMS } from '../../generated/operations/streams.js';
import { startPrismMocks, stopPrismMocks, type PrismMocks } from '../../scripts/lib/prism.mjs';
import { installProject, PACKAGE_NAME as PKG, packPackage, run, type PackedPackage } from '../support/packed-package.js';
import { isolatedEnv } from '../support/working-tree.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tscBin = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const ENTRIES = ['channels', 'streams', 'report-decoder', 'policy', 'sandbox'] as const;

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';
const WALLET_ID = '6f2d9a14-3c7b-4e85-a1d0-9b8c7e6f5a41';

// --- the user's project ------------------------------------------------------

/** A user's file: every entry, typed calls, the decoder, and mistakes the types must refuse. */
const USER_TS = `
import {
  CHANNELS_API_VERSION,
  createChannelsClient,
  isApiError,
  unwrap,
  type ChannelsClient,
} from '${PKG}/channels';
import { STREAMS_API_VERSION, createStreamsClient, getLatestReport, decodeReport as decodeFromStreams } from '${PKG}/streams';
import { decodeReport, formatScaled, reportVersionOf, type DecodedReport } from '${PKG}/report-decoder';
import {
  POLICY_COORDINATOR_API_VERSION,
  POLICY_EVALUATION_API_VERSION,
  POLICY_REPORTING_API_VERSION,
  createPolicyClient,
} from '${PKG}/policy';

export interface MockUrls {
  channels: string;
  streams: string;
}

export const versions: Record<string, string> = {
  channels: CHANNELS_API_VERSION,
  streams: STREAMS_API_VERSION,
  policyCoordinator: POLICY_COORDINATOR_API_VERSION,
  policyEvaluation: POLICY_EVALUATION_API_VERSION,
  policyReporting: POLICY_REPORTING_API_VERSION,
};

export async function main(urls: MockUrls) {
  const channels: ChannelsClient = createChannelsClient({ apiKey: 'package-test-key', baseUrl: urls.channels, retry: false });
  const networks = await unwrap(channels.GET('/networks'));
  const firstNetwork: string | undefined = networks.data[0]?.name;
  const wallet = await unwrap(channels.GET('/wallets/{wallet_id}', { params: { path: { wallet_id: '${WALLET_ID}' } } }));
  const walletId: string = wallet.wallet_id;

  const streams = createStreamsClient({
    apiKey: 'f2cb6d4c-7b0e-4b0a-9c3e-1f0c2b7d4e11',
    apiSecret: 'package-test-secret',
    baseUrl: urls.streams,
    retry: false,
  });
  const report = await getLatestReport(streams, '${ETH_USD}');
  const decoded: DecodedReport = decodeReport(report.fullReport, report.feedID);
  const price = decoded.version === 'V3' ? formatScaled(decoded.price) : undefined;

  // The policy entry loads and builds its clients (no call: no mock for it here).
  const policy = createPolicyClient({ apiKey: 'package-test-key' });

  return {
    versions,
    networkCount: networks.data.length,
    firstNetwork,
    walletId,
    report: {
      version: decoded.version,
      expectedVersion: reportVersionOf(report.feedID),
      feedId: decoded.feedId,
      observationsTimestamp: decoded.observationsTimestamp,
      price,
      sameDecoderFromStreams: decodeFromStreams === decodeReport,
    },
    policyClients: Object.keys(policy).sort(),
    isApiErrorIsAFunction: typeof isApiError === 'function',
  };
}

/** Never called: the published types must refuse these (an unused @ts-expect-error fails the check). */
export function refusedByTheTypes(channels: ChannelsClient, report: DecodedReport) {
  // @ts-expect-error a path the spec does not have
  void channels.GET('/no-such-path');
  // @ts-expect-error the path parameter is required
  void channels.GET('/wallets/{wallet_id}', { params: { path: {} } });
  // @ts-expect-error \`price\` exists only once the version is narrowed
  void report.price;
  // @ts-expect-error the API key is required
  createChannelsClient({});
}
`;

/**
 * A user's test setup with the offline sandbox: the same calls through
 * \`fetch: sandbox.fetch\` and through \`sandbox.listen()\`, with every client
 * on its default base URL in the first case and on the listener's in the second.
 */
const SANDBOX_MJS = `
import { createSandbox } from '${PKG}/sandbox';
import { createChannelsClient, unwrap } from '${PKG}/channels';
import { createStreamsClient, getLatestReport } from '${PKG}/streams';
import { createPolicyClient } from '${PKG}/policy';

const ETH_USD = '${ETH_USD}';
const sandbox = createSandbox();
const { channels: channelsKey, streams: streamsKeys, policy: policyKey } = sandbox.credentials;

async function calls(options) {
  const channels = createChannelsClient({ apiKey: channelsKey.apiKey, ...options.channels });
  const streams = createStreamsClient({ ...streamsKeys, ...options.streams });
  const policy = createPolicyClient({ apiKey: policyKey.apiKey, ...options.policy });
  const networks = await unwrap(channels.GET('/networks'));
  const report = await getLatestReport(streams, ETH_USD, { decode: true });
  const engines = await unwrap(policy.coordinator.GET('/policy-engines'));
  return { networks: networks.data.length, reportVersion: report.decoded.version, engines: engines.policy_engines.length };
}

const viaFetch = await calls({ channels: { fetch: sandbox.fetch }, streams: { fetch: sandbox.fetch }, policy: { fetch: sandbox.fetch } });
const listener = await sandbox.listen();
const viaListen = await calls({
  channels: { baseUrl: listener.baseUrls.channels },
  streams: { baseUrl: listener.baseUrls.streams },
  policy: { baseUrl: listener.baseUrls.policy },
});
await listener.close();
sandbox.close();
console.log(JSON.stringify({ viaFetch, viaListen, listenUrl: listener.url }));
`;

/** Runs the compiled user file and prints what it returned, plus what Node says of a deep import. */
const RUN_MJS = `
import { main } from './out/user.js';
const result = await main({ channels: process.env.CHANNELS_URL, streams: process.env.STREAMS_URL });
let deepImport = 'resolved';
try {
  await import('${PKG}/dist/src/core/client.js');
} catch (error) {
  deepImport = error.code;
}
console.log(JSON.stringify({ ...result, deepImport }));
`;

const common = {
  target: 'ES2022',
  strict: true,
  // Check our .d.ts too, and without @types/node: a browser user has none.
  skipLibCheck: false,
  types: [],
  lib: ['ES2022', 'DOM'],
};

const TSCONFIGS = {
  'tsconfig.bundler.json': {
    compilerOptions: { ...common, module: 'preserve', moduleResolution: 'bundler', noEmit: true },
    files: ['user.ts'],
  },
  'tsconfig.node16.json': {
    compilerOptions: { ...common, module: 'node16', moduleResolution: 'node16', outDir: 'out', rootDir: '.' },
    files: ['user.ts'],
  },
};

/**
 * A Node server's file, for a second project that also has @types/node and no
 * DOM lib: the declarations must work with the fetch types of @types/node too.
 */
const NODE_USER_TS = `
import { createChannelsClient, unwrap } from '${PKG}/channels';
import { createStreamsClient, getLatestReport } from '${PKG}/streams';
import { decodeReport } from '${PKG}/report-decoder';
import { createPolicyClient } from '${PKG}/policy';

const channels = createChannelsClient({
  apiKey: process.env['CHANNELS_API_KEY'] ?? '',
  fetch: (request, init) => fetch(request, { ...init, signal: AbortSignal.timeout(5000) }),
});
export const networks = () => unwrap(channels.GET('/networks'));
const streams = createStreamsClient({ apiKey: process.env['STREAMS_KEY'], apiSecret: process.env['STREAMS_SECRET'] });
export const latestPrice = async (feedID: string) => {
  const report = decodeReport((await getLatestReport(streams, feedID)).fullReport);
  return 'price' in report ? report.price : undefined;
};
export const policy = createPolicyClient({ apiKey: process.env['POLICY_API_KEY'] ?? '' });
`;

const NODE_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2022'],
    types: ['node'],
    module: 'node16',
    moduleResolution: 'node16',
    strict: true,
    skipLibCheck: false,
    noEmit: true,
  },
  files: ['server.ts'],
};

/**
 * What npm installed below a package of `npm ls --json`, by name. An optional
 * peer dependency the user did not install (msw, for ./sandbox/msw) is listed
 * too, with no version: it is not installed.
 */
function installedBelow(node: { dependencies?: Record<string, { version?: string }> }): string[] {
  return Object.entries(node.dependencies ?? {})
    .filter(([, dependency]) => dependency.version !== undefined)
    .map(([name]) => name)
    .sort();
}

// --- setup ---------------------------------------------------------------------

let tmp = '';
/** Has the SDK and nothing else: its dependencies only. */
let project = '';
/** A Node server's project: the SDK and @types/node (the version we use). */
let nodeProject = '';
let packed: PackedPackage;
let mocks: PrismMocks | undefined;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sdk-pack-test-'));
  project = join(tmp, 'project');
  nodeProject = join(tmp, 'node-project');
  await mkdir(project);
  await mkdir(nodeProject);

  // Prism starts while we build and pack.
  const mocksStarting = startPrismMocks({ apis: ['channels', 'streams'] });
  try {
    packed = await packPackage(tmp);
    const { tarball } = packed;
    const typesNode = JSON.parse(await readFile(join(root, 'node_modules', '@types', 'node', 'package.json'), 'utf8')).version;
    await Promise.all([installProject(project, [tarball]), installProject(nodeProject, [tarball, `@types/node@${typesNode}`])]);
    await writeFile(join(nodeProject, 'server.ts'), NODE_USER_TS);
    await writeFile(join(nodeProject, 'tsconfig.json'), JSON.stringify(NODE_TSCONFIG, null, 2));
    await writeFile(join(project, 'user.ts'), USER_TS);
    await writeFile(join(project, 'run.mjs'), RUN_MJS);
    await writeFile(join(project, 'sandbox.mjs'), SANDBOX_MJS);
    for (const [name, config] of Object.entries(TSCONFIGS)) {
      await writeFile(join(project, name), JSON.stringify(config, null, 2));
    }
  } finally {
    mocks = await mocksStarting;
  }
}, 240_000);

afterAll(async () => {
  if (mocks) await stopPrismMocks(mocks);
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

// --- tests ---------------------------------------------------------------------

describe('the packed tarball', () => {
  it('holds only built JavaScript, declarations and the package documents', async () => {
    const paths = packed.files.map((f) => f.path);
    for (const path of paths) {
      expect(path).toMatch(/^(dist\/(src|generated)\/.+\.(js|d\.ts)|generated\/wasm\/[a-z0-9-]+(\.workerd|\.node)?\.(js|d\.ts|wasm)|src\/platform\/[a-z-]+(\.[a-z-]+)?\.(js|d\.ts)|package\.json|README\.md|CHANGELOG\.md|LICENSE)$/);
    }
    const pkg = JSON.parse(await readFile(join(project, 'node_modules', PKG, 'package.json'), 'utf8'));
    for (const entry of ENTRIES) {
      const target = pkg.exports[`./${entry}`];
      expect(Object.keys(target)[0], `exports['./${entry}']: types first`).toBe('types');
      expect(paths).toContain(target.types.replace(/^\.\//, ''));
      expect(paths).toContain(target.default.replace(/^\.\//, ''));
    }
    expect(pkg.sideEffects).toBe(false);
  });

  it('installs into an empty project with only its own dependencies', async () => {
    const { stdout } = await run('npm', ['ls', '--all', '--json'], project);
    const tree = JSON.parse(stdout);
    expect(Object.keys(tree.dependencies)).toEqual([PKG]);
    // The sandbox's request checks carry Ajv's helpers (generated/request-checks/runtime.ts): no ajv here.
    // jmespath (Apache-2.0): the command line's --filter.
    // @noble/curves (MIT): secp256k1 in JavaScript where a runtime compiles no WebAssembly (verifyReport, the sandbox's signatures).
    expect(installedBelow(tree.dependencies[PKG])).toEqual(['@noble/curves', '@noble/hashes', 'jmespath', 'openapi-fetch', 'ws']);
  });
});

// Three separate tsc runs: concurrent, each with room for a loaded machine.
const TSC_TIMEOUT = 180_000;

describe.concurrent("a user's TypeScript file", () => {
  it('type-checks with moduleResolution bundler (no @types/node)', { timeout: TSC_TIMEOUT }, async () => {
    await run(process.execPath, [tscBin, '-p', 'tsconfig.bundler.json'], project);
  });

  it('type-checks with moduleResolution node16, compiles, and runs against Prism', { timeout: TSC_TIMEOUT }, async ({ expect }) => {
    await run(process.execPath, [tscBin, '-p', 'tsconfig.node16.json'], project);
    const { urls } = mocks!;
    const env = { ...isolatedEnv(), CHANNELS_URL: urls.channels, STREAMS_URL: urls.streams };
    const { stdout } = await run(process.execPath, ['run.mjs'], project, env);
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!);

    expect(result.versions).toEqual({
      channels: CHANNELS,
      streams: STREAMS,
      policyCoordinator: POLICY_COORDINATOR,
      policyEvaluation: POLICY_EVALUATION,
      policyReporting: POLICY_REPORTING,
    });
    expect(result.networkCount).toBeGreaterThan(0);
    expect(result.firstNetwork).toEqual(expect.any(String));
    expect(result.walletId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.report).toEqual({
      version: 'V3',
      expectedVersion: 'V3',
      feedId: ETH_USD,
      observationsTimestamp: expect.any(Number),
      price: expect.stringMatching(/^\d+(\.\d+)?$/),
      sameDecoderFromStreams: true,
    });
    expect(result.policyClients).toEqual(expect.arrayContaining(['coordinator', 'evaluation', 'reporting']));
    expect(result.isApiErrorIsAFunction).toBe(true);
    expect(result.deepImport).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('type-checks in a Node project with @types/node and no DOM lib', { timeout: TSC_TIMEOUT }, async () => {
    await run(process.execPath, [tscBin, '-p', 'tsconfig.json'], nodeProject);
  });
});

describe('the offline sandbox from the installed package', () => {
  it('answers the three clients through sandbox.fetch and through listen()', async () => {
    const { stdout } = await run(process.execPath, ['sandbox.mjs'], project);
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!);
    const expected = { networks: expect.any(Number), reportVersion: 'V3', engines: expect.any(Number) };
    expect(result.viaFetch).toEqual(expected);
    expect(result.viaListen).toEqual(result.viaFetch);
    expect(result.viaFetch.networks).toBeGreaterThan(0);
    expect(result.listenUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('runs as the service-sdk-sandbox command and serves its printed URL', async () => {
    const bin = join(project, 'node_modules', '.bin', 'service-sdk-sandbox');
    const child = spawn(bin, ['--port', '0'], { cwd: project, env: isolatedEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let output = '';
      await new Promise<void>((resolveOutput, reject) => {
        const timer = setTimeout(() => reject(new Error(`nothing printed: ${output}`)), 30_000);
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (/policy apiKey/.test(output)) {
            clearTimeout(timer);
            resolveOutput();
          }
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
      });
      const channelsUrl = /channels\s+(http:\/\/\S+)/.exec(output)![1]!;
      const apiKey = /channels apiKey\s+(\S+)/.exec(output)![1]!;
      const answer = await fetch(`${channelsUrl}/networks`, { headers: { Authorization: `Apikey ${apiKey}` } });
      expect(answer.status).toBe(200);
      const refused = await fetch(`${channelsUrl}/networks`, { headers: { Authorization: 'Apikey someone-else' } });
      expect(refused.status).toBe(401);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, 60_000);
});

describe('the service-sdk command from the tarball', () => {
  it('serves the sandbox and runs operations against it, with production dependencies only', async () => {
    const bin = join(project, 'node_modules', '.bin', 'service-sdk');
    const runBin = (args: string[], env: NodeJS.ProcessEnv = isolatedEnv()) => run(bin, args, project, env);
    expect((await runBin(['--help'])).stdout).toContain('usage: service-sdk <api> <operation>');
    // The empty project has what npm installs for the package and nothing else: no dev dependency of ours.
    const installed = JSON.parse((await run('npm', ['ls', '--all', '--json', '--omit=dev'], project)).stdout);
    expect(installedBelow(installed.dependencies[PKG])).toEqual(Object.keys(JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).dependencies).sort());
    const sandbox = spawn(bin, ['sandbox', '--json'], { cwd: project, env: isolatedEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const summary = await new Promise<any>((resolveLine, reject) => {
        let output = '';
        const timer = setTimeout(() => reject(new Error(`nothing printed: ${output}`)), 30_000);
        sandbox.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const newline = output.indexOf('\n');
          if (newline >= 0) {
            clearTimeout(timer);
            resolveLine(JSON.parse(output.slice(0, newline)));
          }
        });
        sandbox.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
      });
      const env = {
        ...isolatedEnv(),
        SERVICE_SDK_CHANNELS_BASE_URL: summary.baseUrls.channels,
        SERVICE_SDK_CHANNELS_API_KEY: summary.credentials.channels.apiKey,
        SERVICE_SDK_STREAMS_BASE_URL: summary.baseUrls.streams,
        SERVICE_SDK_STREAMS_API_KEY: summary.credentials.streams.apiKey,
        SERVICE_SDK_STREAMS_API_SECRET: summary.credentials.streams.apiSecret,
      };
      // --filter loads the query library, a production dependency.
      expect(Number((await runBin(['channels', 'list-networks', '--filter', 'length(data)'], env)).stdout)).toBeGreaterThan(0);
      // One shape whatever the number of feed IDs: an array of reports.
      const latest = JSON.parse((await runBin(['streams', 'latest', ETH_USD, '--decode'], env)).stdout);
      expect(latest).toMatchObject([{ feedID: ETH_USD, version: 'V3', price: expect.stringMatching(/^\d+(\.\d+)?$/) }]);
    } finally {
      try {
        process.kill(-sandbox.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, 60_000);
});

describe('bundling from the installed package', () => {
  async function bundle(contents: string) {
    const result = await build({
      stdin: { contents, resolveDir: project, loader: 'js' },
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'browser',
      logLevel: 'silent',
    });
    return Object.keys(result.metafile.inputs);
  }

  it('every entry bundles for the browser (no node: import)', async () => {
    for (const entry of ENTRIES) {
      const inputs = await bundle(`export * from '${PKG}/${entry}';`);
      expect(inputs.some((i) => i.startsWith('node:'))).toBe(false);
    }
  });

  it('the report-decoder entry brings only the decoder, not the HTTP client', async () => {
    const inputs = await bundle(`import { decodeReport } from '${PKG}/report-decoder'; console.log(decodeReport);`);
    const fromPackages = inputs.filter((i) => i !== '<stdin>');
    expect(fromPackages.length).toBeGreaterThan(0);
    // The decoder's modules, its per-version builders (generated from the layouts), its scan's WebAssembly binary and the SDK's base error class;
    // and what the entry's verifier reads (esbuild reads it, then drops it from this bundle): libsecp256k1's binary, @noble's hashes and curves,
    // ConfigurationError's module. Nothing of the HTTP client.
    for (const input of fromPackages) {
      expect(input).toMatch(
        /node_modules\/(@ourteam\/service-sdk\/(dist\/src\/reports\/[a-z0-9-]+|dist\/generated\/reports\/builders|dist\/src\/core\/(sdk-error|errors)|generated\/wasm\/(report-scan|secp256k1))|@noble\/(hashes|curves)\/.+)\.js$/,
      );
    }
  });

  it("each API entry exports the version of the spec it was generated from", async () => {
    const wanted: Record<string, RegExp> = {
      channels: /^CHANNELS_API_VERSION$/,
      streams: /^STREAMS_API_VERSION$/,
      policy: /^POLICY_(COORDINATOR|EVALUATION|REPORTING)_API_VERSION$/,
    };
    for (const [entry, pattern] of Object.entries(wanted)) {
      const result = await build({
        stdin: { contents: `export * from '${PKG}/${entry}';`, resolveDir: project, loader: 'js' },
        bundle: true,
        write: false,
        metafile: true,
        format: 'esm',
        logLevel: 'silent',
      });
      const exportsOf = Object.values(result.metafile.outputs)[0]!.exports;
      expect(exportsOf.filter((name) => pattern.test(name)).length, entry).toBe(entry === 'policy' ? 3 : 1);
    }
  });
});
