// The sandbox under MSW as a user gets it (issue 34): the packed tarball and
// `msw` installed into an empty project, and vitest files of that project
// run by its own vitest. One file is the README's example as written; the
// other has global `fetch`, `node:https` and SDK clients without a `fetch`
// option share one sandbox through `setupServer`, with every connection off
// the loopback refused (our test/support/refuse-network.ts, copied in).
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installProject, PACKAGE_NAME as PKG, packPackage, run } from '../support/packed-package.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The versions this repository tests with: the user's project gets the same (from the npm cache). */
async function versionOf(name: string): Promise<string> {
  return (JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The README's TypeScript block that contains `marker`. */
async function readmeBlock(marker: string): Promise<string> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!).find((source) => source.includes(marker));
  if (block === undefined) throw new Error(`README has no TypeScript block with ${marker}`);
  return block;
}

const ACME = 'https://acme.example/v1';
const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';

const USER_TEST = `
import https from 'node:https';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { setupServer } from 'msw/node';
import { createSandbox } from '${PKG}/sandbox';
import { sandboxHandlers } from '${PKG}/sandbox/msw';
import { createChannelsClient, unwrap } from '${PKG}/channels';
import { createStreamsClient, getLatestReport } from '${PKG}/streams';
import { refuseNonLoopback } from './refuse-network.ts';

const KEY = 'app-key';
const channels = createChannelsClient({ apiKey: KEY, baseUrl: '${ACME}', retry: false });
const sandbox = createSandbox({ credentials: { channels: { apiKey: KEY } } });
const streams = createStreamsClient({ ...sandbox.credentials.streams, retry: false });
const server = setupServer(...sandboxHandlers(sandbox, { baseUrls: { channels: '${ACME}' } }));
const unhandled = [];
let network;
beforeAll(() => {
  network = refuseNonLoopback();
  server.listen({ onUnhandledRequest: (request) => void unhandled.push(request.url) });
});
afterAll(() => {
  server.close();
  network.restore();
  sandbox.close();
});

function httpsGet(url) {
  return new Promise((resolve, reject) => {
    https.get(url, { headers: { Authorization: 'Apikey ' + KEY } }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode, body: JSON.parse(text) }));
    }).on('error', reject);
  });
}

test('an SDK client without fetch, global fetch and node:https share one sandbox', async () => {
  const created = await unwrap(channels.POST('/channels', { body: { name: 'payouts' } }));
  const listed = await (await fetch('${ACME}/channels', { headers: { Authorization: 'Apikey ' + KEY } })).json();
  expect(listed.data.map((channel) => channel.channel_id)).toContain(created.channel_id);
  expect(await httpsGet('${ACME}/channels/' + created.channel_id)).toMatchObject({ status: 200, body: { name: 'payouts' } });
  const report = await getLatestReport(streams, '${ETH_USD}', { decode: true });
  expect(report.decoded.version).toBe('V3');
});

test('a request under the base URL that the sandbox does not serve is a 404 naming why', async () => {
  const answer = await fetch('https://ace.api.chain.link/v2/nothing');
  expect(answer.status).toBe(404);
  expect((await answer.json()).type).toBe('SANDBOX_USAGE_ERROR');
});

test('nothing left the machine', () => {
  expect(network.attempts).toEqual([]);
  expect(unhandled).toEqual([]);
});
`;

let tmp = '';
let project = '';

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sdk-msw-package-'));
  project = join(tmp, 'project');
  await mkdir(project);
  const { tarball } = await packPackage(tmp);
  await installProject(project, [tarball, `msw@${await versionOf('msw')}`, `vitest@${await versionOf('vitest')}`]);
  await writeFile(join(project, 'user.test.ts'), USER_TEST);
  await writeFile(join(project, 'readme.test.ts'), await readmeBlock("from '@ourteam/service-sdk/sandbox/msw'"));
  await copyFile(join(root, 'test', 'support', 'refuse-network.ts'), join(project, 'refuse-network.ts'));
  await writeFile(join(project, 'vitest.config.mjs'), 'export default { test: { include: ["*.test.ts"] } };\n');
}, 240_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

it('msw is an optional peer: the package installs none of it, the user does', async () => {
  const pkg = JSON.parse(await readFile(join(project, 'node_modules', PKG, 'package.json'), 'utf8'));
  // Every peer is optional (msw, @opentelemetry/api, @modelcontextprotocol/sdk): npm installs none of them by itself.
  expect(pkg.peerDependencies).toMatchObject({ msw: expect.any(String) });
  for (const name of Object.keys(pkg.peerDependencies)) expect(pkg.peerDependenciesMeta[name], name).toEqual({ optional: true });
  expect(pkg.exports['./sandbox/msw']).toEqual({ types: './dist/src/sandbox/msw/index.d.ts', default: './dist/src/sandbox/msw/index.js' });
  expect(Object.keys(pkg.dependencies)).not.toContain('msw');
});

it("a user's vitest files with setupServer, the README's example among them, pass against the installed package", async () => {
  const report = join(project, 'report.json');
  // A failing user test exits non-zero: its report still says which and why, so the report is what is checked.
  const failed = await run(process.execPath, [join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=json', `--outputFile=${report}`], project).then(
    () => undefined,
    (error: unknown) => error,
  );
  const text = await readFile(report, 'utf8').catch(() => {
    throw failed ?? new Error('vitest wrote no report');
  });
  const results = JSON.parse(text) as { testResults: { name: string; assertionResults: { title: string; status: string; failureMessages: string[] }[] }[] };
  const outcomes = results.testResults.flatMap((file) =>
    file.assertionResults.map((test) => {
      const why = test.status === 'passed' ? '' : ` (${test.failureMessages[0]?.split('\n')[0] ?? 'no message'})`;
      return `${file.name.slice(project.length + 1)}: ${test.title}: ${test.status}${why}`;
    }),
  );
  expect(outcomes.sort()).toEqual([
    'readme.test.ts: what the client creates, plain fetch lists: passed',
    'user.test.ts: a request under the base URL that the sandbox does not serve is a 404 naming why: passed',
    'user.test.ts: an SDK client without fetch, global fetch and node:https share one sandbox: passed',
    'user.test.ts: nothing left the machine: passed',
  ]);
}, 120_000);
