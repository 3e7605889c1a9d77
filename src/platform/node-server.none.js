// Browsers, workers and other runtimes without node:http: the sandbox cannot
// listen there (sandbox.fetch works everywhere).
/** @returns {Promise<undefined>} */
export async function loadNodeServer() {
  return undefined;
}
