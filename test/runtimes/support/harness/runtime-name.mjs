// Names the runtime this runs in, with its version: the test checks that each
// run happened where it was meant to (Node 22 is not the Node of the test).
export function runtimeName() {
  if (typeof Deno !== 'undefined') return `Deno ${Deno.version.deno}`;
  if (typeof Bun !== 'undefined') return `Bun ${Bun.version}`;
  if (typeof EdgeRuntime === 'string') return EdgeRuntime;
  if (typeof navigator !== 'undefined' && navigator.userAgent === 'Cloudflare-Workers') return 'workerd';
  if (typeof process !== 'undefined' && process.versions?.node) return `Node ${process.versions.node}`;
  return 'unknown';
}
