// The README's live stream in Node: "Node uses the `ws` package (loaded only
// when a stream starts)". Shown in a fresh Node process, where nothing else
// has loaded `ws`: importing the streams entry leaves it out of the module
// cache, and the first stream's connection brings it in. The title is the
// sentence (test/support/readme-claim.ts).
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { readmeClaim } from '../support/readme-claim.js';
import { entrySource } from '../support/user-modules.js';

const exec = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const dir = join(root, 'test-results', 'readme-claims-runtimes');

// `ws` is CommonJS: however it is imported, its files enter require.cache. The stream connects nowhere
// (port 9, one attempt): starting is enough.
const PROBE = `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const wsLoaded = () => Object.keys(require.cache).some((file) => /[\\\\/]node_modules[\\\\/]ws[\\\\/]/.test(file));
const { createStreamsClient, streamReports } = await import(process.argv[2]);
const onImport = wsLoaded();
const client = createStreamsClient({ apiKey: '3fa85f64-5717-4562-b3fc-2c963f66afa6', apiSecret: 'secret', baseUrl: 'http://127.0.0.1:9' });
const stream = streamReports(client, ['0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782'], { wsUrl: 'ws://127.0.0.1:9', origins: ['001'], reconnect: { maxAttempts: 1 } });
await stream.next().catch(() => undefined);
console.log(JSON.stringify({ onImport, onStream: wsLoaded() }));
`;

it(readmeClaim('Node uses the `ws` package (loaded only when a stream starts)'), async () => {
  mkdirSync(dir, { recursive: true });
  const probe = join(dir, 'ws-probe.mts');
  writeFileSync(probe, PROBE);
  const { stdout } = await exec(process.execPath, ['--import', 'tsx', probe, entrySource('streams')], { cwd: root, timeout: 60_000 });
  expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ onImport: false, onStream: true });
}, 90_000);
