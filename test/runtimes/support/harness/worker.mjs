// workerd: GET /?origin=<origin>[&live=<live stream target as JSON>] answers the checks as JSON (500 with the stack when they throw).
import { runtimeName } from './runtime-name.mjs';
import { scanEngine } from './scan-engine.mjs';
import { runChecks } from './user-script.mjs';

export default {
  async fetch(request) {
    try {
      const engine = scanEngine();
      const params = new URL(request.url).searchParams;
      const live = params.get('live');
      const checks = await runChecks(params.get('origin'), live === null ? undefined : JSON.parse(live));
      return Response.json({ runtime: runtimeName(), scanEngine: engine, checks });
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
