// Node, Bun and Deno: `<runtime> run.mjs <origin> [<live stream target as JSON>]` prints one line of JSON.
import { runtimeName } from './runtime-name.mjs';
import { scanEngine } from './scan-engine.mjs';
import { runChecks } from './user-script.mjs';

const [origin, live] = typeof Deno !== 'undefined' ? Deno.args : process.argv.slice(2);
// Chosen before the checks, so the engine named is the one that decodes in them.
const engine = scanEngine();
const checks = await runChecks(origin, live === undefined ? undefined : JSON.parse(live));
console.log(JSON.stringify({ runtime: runtimeName(), scanEngine: engine, checks }));
