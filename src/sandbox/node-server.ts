import { loadNodeServer, type NodeServerModules } from '#node-server';
import { SandboxUsageError } from './errors.js';

/**
 * Node's modules for the sandbox's listener (node:http, node:stream, `ws`),
 * or a SandboxUsageError where the runtime has none. They come through
 * `#node-server` (package.json `imports`): Node-compatible builds load them
 * when the sandbox first listens; browser and worker builds hold none of them.
 */
export async function requireNodeServer(): Promise<NodeServerModules> {
  const modules = await loadNodeServer();
  if (modules === undefined) {
    throw new SandboxUsageError("listen() needs Node's node:http (Node, Bun or Deno); in this runtime, give the clients sandbox.fetch instead");
  }
  return modules;
}
