// The command line's own help texts, for the docs' CLI reference
// (scripts/docs-site/cli-reference.mjs bundles this file with esbuild and runs
// it): the program's help, each API's and each operation's, exactly as
// `service-sdk help …` prints them.
import { CLI_APIS } from '../../src/cli/apis.js';
import { apiHelp, operationHelp, PROGRAM_HELP } from '../../src/cli/help.js';
import { loadTable } from '../../src/cli/spec-table.js';

export async function cliHelp() {
  const apis = [];
  for (const api of CLI_APIS) {
    const table = await loadTable(api);
    apis.push({
      name: api.name,
      title: table.title,
      help: apiHelp(api, table),
      operations: table.operations.map((operation) => ({ name: operation.name, id: operation.id, summary: operation.summary ?? '', help: operationHelp(api, operation) })),
    });
  }
  return { program: PROGRAM_HELP, apis };
}
