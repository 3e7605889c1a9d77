// `service-sdk mcp` as users install it (issue 44): the packed tarball in an
// empty project. Without @modelcontextprotocol/sdk the install holds no MCP
// SDK, express or zod, and the command says what to install (exit 2); with
// it added beside the package, the bin answers tools/list over stdio to the
// official SDK's Client.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installProject, packPackage, run } from '../support/packed-package.js';
import { readmeClaim } from '../support/readme-claim.js';
import { isolatedEnv } from '../support/working-tree.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MCP_SDK = '@modelcontextprotocol/sdk';

let tmp = '';
let bare = '';
let withSdk = '';

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sdk-mcp-package-'));
  bare = join(tmp, 'bare');
  withSdk = join(tmp, 'with-sdk');
  await Promise.all([mkdir(bare), mkdir(withSdk)]);
  const { tarball } = await packPackage(tmp);
  const version = (JSON.parse(await readFile(join(root, 'node_modules', MCP_SDK, 'package.json'), 'utf8')) as { version: string }).version;
  await Promise.all([installProject(bare, [tarball]), installProject(withSdk, [tarball, `${MCP_SDK}@${version}`])]);
}, 600_000);

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Every package installed in the project's production tree, at any depth. */
function installedNames(node: { dependencies?: Record<string, { version?: string; dependencies?: object }> }, into = new Set<string>()): Set<string> {
  for (const [name, dependency] of Object.entries(node.dependencies ?? {})) {
    if (dependency.version === undefined) continue;
    into.add(name);
    installedNames(dependency as never, into);
  }
  return into;
}

it(readmeClaim('it is an optional peer dependency; without it the command says what to install and exits 2'), async () => {
  const tree = JSON.parse((await run('npm', ['ls', '--all', '--json', '--omit=dev'], bare)).stdout);
  const names = installedNames(tree);
  expect(names.has('@ourteam/service-sdk')).toBe(true);
  for (const name of [MCP_SDK, 'express', 'zod', 'hono']) expect(names.has(name), name).toBe(false);
  const bin = join(bare, 'node_modules', '.bin', 'service-sdk');
  const outcome = await new Promise<{ code: number | null; stderr: string }>((done) => {
    execFile(bin, ['mcp', '--sandbox'], { cwd: bare, env: isolatedEnv() }, (error, _stdout, stderr) => done({ code: error ? (error as { code?: number }).code ?? 1 : 0, stderr }));
  });
  expect(outcome.code).toBe(2);
  expect(outcome.stderr).toContain(`npm install ${MCP_SDK}`);
});

it('with the MCP SDK beside it: the bin answers tools/list over stdio', async () => {
  const transport = new StdioClientTransport({ command: join(withSdk, 'node_modules', '.bin', 'service-sdk'), args: ['mcp', '--sandbox', '--apis', 'streams'], cwd: withSdk, env: isolatedEnv() as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'package-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['streams_get_latest_report', 'latest_reports', 'verify_report']));
    const answer = await client.callTool({ name: 'streams_list_streams', arguments: {} });
    expect(answer.isError).toBeFalsy();
  } finally {
    await client.close();
  }
});
