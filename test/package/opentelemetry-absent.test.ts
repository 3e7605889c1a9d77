// Without @opentelemetry/api nothing breaks and nothing of it is imported: the
// packed tarball in an empty project that does not have the package runs a
// call and a live stream against the sandbox, under a module resolve hook
// that logs every @opentelemetry specifier anything asks for. A last import
// of @opentelemetry/api by the script itself shows the hook would have seen one.
import { readdir, readFile, rm, mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installProject, PACKAGE_NAME as PKG, packPackage, run } from '../support/packed-package.js';
import { isolatedEnv } from '../support/working-tree.js';
import { readmeClaim } from '../support/readme-claim.js';

const ETH_USD = '0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782';

/** Logs every specifier naming @opentelemetry that is resolved, from any module, before resolving it. */
const HOOK_MJS = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  if (specifier.includes('@opentelemetry')) appendFileSync(process.env.OTEL_IMPORT_LOG, specifier + '\\n');
  return next(specifier, context);
}
`;
const REGISTER_MJS = `import { register } from 'node:module';\nregister('./hook.mjs', import.meta.url);\n`;

/** A call with a retried 503, and a live stream of two reports, through the sandbox; then the control import. */
const MAIN_MJS = `
import { appendFileSync } from 'node:fs';
import { createSandbox } from '${PKG}/sandbox';
import { createChannelsClient, unwrap } from '${PKG}/channels';
import { createStreamsClient, streamReports } from '${PKG}/streams';

const sandbox = createSandbox({ pace: 0 });
const channels = createChannelsClient({ apiKey: sandbox.credentials.channels.apiKey, fetch: sandbox.fetch });
sandbox.inject({ route: 'listNetworks', status: 503 });
const networks = await unwrap(channels.GET('/networks'));

const streams = createStreamsClient({ ...sandbox.credentials.streams, fetch: sandbox.fetch });
let ticking;
const live = streamReports(streams, ['${ETH_USD}'], { onStatus: (event) => event.type === 'connected' && (ticking ??= setInterval(() => sandbox.advance(1_000), 20)) });
const reports = [];
for await (const report of live) {
  reports.push(report.observationsTimestamp);
  if (reports.length === 2) break;
}
clearInterval(ticking);
sandbox.close();

appendFileSync(process.env.OTEL_IMPORT_LOG, '-- the SDK is done\\n');
const control = await import('@opentelemetry/api').then(() => 'found', (error) => error.code);
console.log(JSON.stringify({ networks: Object.keys(networks).length > 0, reports: reports.length, stats: live.stats.accepted, control }));
`;

let tmp: string;
let project: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sdk-otel-absent-'));
  project = join(tmp, 'user');
  await mkdir(project);
  const packed = await packPackage(tmp);
  await installProject(project, [packed.tarball]);
  await writeFile(join(project, 'hook.mjs'), HOOK_MJS);
  await writeFile(join(project, 'register.mjs'), REGISTER_MJS);
  await writeFile(join(project, 'main.mjs'), MAIN_MJS);
}, 240_000);

afterAll(async () => {
  if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
});

/** Every file under `dir`. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe(readmeClaim('`@opentelemetry/api` is an optional peer dependency that the SDK never imports itself: without it installed, the clients and the live stream run, and nothing of OpenTelemetry is loaded.'), () => {
  it('runs a call and a live stream, and imports nothing of @opentelemetry', { timeout: 120_000 }, async () => {
    // npm installs a peer dependency unless it is optional.
    expect(existsSync(join(project, 'node_modules', '@opentelemetry'))).toBe(false);
    const manifest = JSON.parse(await readFile(join(project, 'node_modules', ...PKG.split('/'), 'package.json'), 'utf8'));
    expect(manifest.peerDependenciesMeta['@opentelemetry/api']).toEqual({ optional: true });
    const log = join(tmp, 'imports.log');
    await writeFile(log, '');
    const { stdout } = await run('node', ['--import', './register.mjs', 'main.mjs'], project, { ...isolatedEnv(), OTEL_IMPORT_LOG: log });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ networks: true, reports: 2, stats: expect.any(Number), control: 'ERR_MODULE_NOT_FOUND' });
    // Nothing before the script's own import asked for the package.
    expect(await readFile(log, 'utf8')).toBe('-- the SDK is done\n@opentelemetry/api\n');
  });

  it('ships no import of @opentelemetry in its JavaScript or its declarations', async () => {
    const dist = join(project, 'node_modules', ...PKG.split('/'), 'dist');
    const files = (await filesUnder(dist)).filter((file) => /\.(m?js|d\.ts)$/.test(file));
    expect(files.length).toBeGreaterThan(100);
    const importing: string[] = [];
    for (const file of files) {
      // Code lines only: the doc comments show users the import they write themselves.
      const code = (await readFile(file, 'utf8')).split('\n').filter((line) => !/^\s*(\*|\/\*|\/\/)/.test(line));
      if (code.some((line) => /(from\s*|import\s*\(\s*|require\s*\(\s*|import\s+)['"]@opentelemetry/.test(line))) importing.push(file);
    }
    expect(importing).toEqual([]);
  });
});
