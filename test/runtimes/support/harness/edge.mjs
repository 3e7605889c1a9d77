// edge-runtime: evaluates a script, not a module; the bundle leaves one global to call.
import { runtimeName } from './runtime-name.mjs';
import { scanEngine } from './scan-engine.mjs';
import { runChecks } from './user-script.mjs';

globalThis.runChecksAsJson = async (origin) => {
  const engine = scanEngine();
  const checks = await runChecks(origin);
  return JSON.stringify({ runtime: runtimeName(), scanEngine: engine, checks });
};
