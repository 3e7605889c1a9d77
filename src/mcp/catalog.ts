/**
 * Which tools the server offers: every operation of the APIs chosen
 * (`--apis`, all by default) and the SDK's tools of those APIs; with
 * `--read-only`, none that writes.
 */
import { CLI_APIS, findApi, type CliApi } from '../cli/apis.js';
import { CliUsageError } from '../cli/errors.js';
import { operationTools } from './operation-tools.js';
import { SDK_TOOLS } from './sdk-tools.js';
import type { Tool } from './tool.js';

/** `--apis channels,streams` → those APIs; `policy` names the three policy APIs. */
export function selectApis(list: string | undefined): CliApi[] {
  if (list === undefined) return [...CLI_APIS];
  const chosen = new Set<CliApi>();
  for (const name of list.split(',').map((word) => word.trim()).filter(Boolean)) {
    if (name === 'policy') for (const api of CLI_APIS) if (api.credentials === 'policy') chosen.add(api);
    const api = findApi(name);
    if (api !== undefined) chosen.add(api);
    else if (name !== 'policy') throw new CliUsageError(`--apis: unknown API ${JSON.stringify(name)}: expected some of ${[...CLI_APIS.map((known) => known.name), 'policy'].join(', ')}`);
  }
  if (chosen.size === 0) throw new CliUsageError('--apis: name at least one API');
  return CLI_APIS.filter((api) => chosen.has(api));
}

export async function catalog(apis: readonly CliApi[], readOnly: boolean): Promise<Tool[]> {
  const tools = (await Promise.all(apis.map(operationTools))).flat();
  tools.push(...SDK_TOOLS.filter((tool) => apis.includes(tool.api)));
  return readOnly ? tools.filter((tool) => tool.annotations.readOnlyHint) : tools;
}
