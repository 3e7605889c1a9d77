import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';

// A spec bump rehearsed as a maintainer would, on a copy of the repository's
// sources in a temporary folder: the channels service ships a new operation
// (POST /channels/{channel_id}/archive), a new optional query parameter
// (`label` on the wallet list) and a new final operation status
// (`replaced`). `npm run spec:bump` must name the three things left to write
// by hand and fail; once they are written it passes, and the release goes out.

const repository = join(import.meta.dirname, '..', '..');
const copy = mkdtempSync(join(tmpdir(), 'spec-bump-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

for (const part of ['openapi', 'scripts', 'src', 'generated', 'package.json', 'tsconfig.json', 'redocly.yaml', 'CHANGELOG.md']) {
  cpSync(join(repository, part), join(copy, part), { recursive: true });
}
symlinkSync(join(repository, 'node_modules'), join(copy, 'node_modules'), 'dir');

function run(script: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [join(copy, 'scripts', script), ...args], { cwd: copy, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

/** Edits one YAML file of the copy in place. */
function editYaml(path: string, edit: (doc: ReturnType<typeof parseDocument>) => void) {
  const file = join(copy, path);
  const doc = parseDocument(readFileSync(file, 'utf8'));
  edit(doc);
  writeFileSync(file, doc.toString({ lineWidth: 0 }));
}

/** Replaces `from` (which must be there once) in one file of the copy. */
function editText(path: string, from: string, to: string) {
  const file = join(copy, path);
  const text = readFileSync(file, 'utf8');
  expect(text.split(from)).toHaveLength(2);
  writeFileSync(file, text.replace(from, to));
}

describe('npm run spec:bump', () => {
  it('lists the missing handler, the unread parameter and the unclassified status, then passes once they are written, and the release goes out', () => {
    // The service's edit.
    writeFileSync(
      join(copy, 'openapi/channels/paths/channel-archive.yaml'),
      [
        'post:',
        '  operationId: archiveChannel',
        '  summary: Archive a channel',
        '  tags: [Channels]',
        '  parameters:',
        '    - $ref: ../components/parameters/channelId.yaml',
        '  responses:',
        "    '200':",
        '      description: The channel, archived.',
        '      content:',
        '        application/json:',
        '          schema:',
        '            $ref: ../components/schemas/Channel.yaml',
        "    '404':",
        '      $ref: ../components/responses/NotFound.yaml',
        '',
      ].join('\n'),
    );
    editYaml('openapi/channels/openapi.yaml', (doc) => doc.setIn(['paths', '/channels/{channel_id}/archive'], doc.createNode({ $ref: 'paths/channel-archive.yaml' })));
    editYaml('openapi/channels/paths/wallets.yaml', (doc) =>
      (doc.getIn(['get', 'parameters']) as { add(node: unknown): void }).add(
        doc.createNode({ name: 'label', in: 'query', required: false, description: 'Only wallets with this label.', schema: { type: 'string' } }),
      ),
    );
    editYaml('openapi/channels/components/schemas/OperationStatus.yaml', (doc) => (doc.get('enum') as { add(node: unknown): void }).add('replaced'));

    const first = run('spec-bump.mjs', '--api', 'channels', '--skip-lint');
    expect(first.output).toContain('0.9.0 -> 0.10.0');
    expect(first.output).toMatch(/no handler for archiveChannel \(POST \/channels\/\{channel_id\}\/archive\)/);
    expect(first.output).toMatch(/listWallets never reads its documented query parameter `label`/);
    expect(first.output).toMatch(/status `replaced` of OperationStatus has no kind/);
    expect(first.status).toBe(1);
    expect(run('spec-release.mjs', '--api', 'channels').status).not.toBe(0);
    // Until its handler is written, the sandbox answers the new operation 501, naming it (run without a type-check, as tsx and Try it do).
    const unmodelled = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "import { createSandbox } from './src/sandbox/index.ts';" +
          "const sandbox = createSandbox({ pace: 0 });" +
          "const response = await sandbox.fetch('https://cre-connect.api.chain.link/v1/channels/' + crypto.randomUUID() + '/archive', { method: 'POST', headers: { Authorization: 'Apikey ' + sandbox.credentials.channels.apiKey } });" +
          "console.log(JSON.stringify({ status: response.status, body: await response.json() })); sandbox.close();",
      ],
      { cwd: copy, encoding: 'utf8' },
    );
    const answered = JSON.parse(unmodelled.stdout.trim().split('\n').at(-1) ?? '{}') as { status: number; body: { message?: string } };
    expect(answered.status).toBe(501);
    expect(JSON.stringify(answered.body)).toContain('the sandbox does not model archiveChannel (POST /channels/{channel_id}/archive) yet');

    // The hand edits it listed.
    editYaml('openapi/channels/components/schemas/OperationStatus.yaml', (doc) => doc.setIn(['x-status-kinds', 'replaced'], 'failed'));
    editText(
      'src/sandbox/channels/index.ts',
      'const handlers: Record<OperationId, OperationHandler> = {',
      "const handlers: Record<OperationId, OperationHandler> = {\n    archiveChannel: () => ({ status: 200, body: {} }),",
    );
    editText('src/sandbox/channels/wallets.ts', 'const named = nameFilter(query);', 'const named = nameFilter(query);\n      void query.label;');

    const second = run('spec-bump.mjs', '--api', 'channels', '--skip-lint');
    expect(second.output).toContain('nothing left to write by hand');
    expect(second.status).toBe(0);
    const release = run('spec-release.mjs', '--api', 'channels');
    expect(release.output).toContain('now holds channels 0.10.0');
    expect(release.status).toBe(0);
    const changelog = readFileSync(join(copy, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toContain('## channels 0.10.0 (');
    expect(changelog).toContain('`replaced` is final: a wait ends there with a failure.');
  }, 1_200_000);
});
