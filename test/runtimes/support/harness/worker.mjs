// workerd: GET /?origin=<origin> answers the checks as JSON (500 with the stack when they throw).
import { runtimeName } from './runtime-name.mjs';
import { scanEngine } from './scan-engine.mjs';
import { runChecks } from './user-script.mjs';

export default {
  async fetch(request) {
    try {
      const engine = scanEngine();
      const checks = await runChecks(new URL(request.url).searchParams.get('origin'));
      return Response.json({ runtime: runtimeName(), scanEngine: engine, checks });
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
