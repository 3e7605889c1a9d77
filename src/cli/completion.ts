/**
 * Shell completion. `service-sdk completion bash|zsh|fish` prints a script
 * that asks `service-sdk __complete <words…>` for candidates: APIs,
 * operations, flags and enum values, all from the spec tables, so the
 * scripts never go stale when the specs change.
 */
import { CLI_APIS, findApi, TOP_COMMANDS } from './apis.js';
import { FLAGS, operationFlags, streamsFlowFlags } from './flags.js';
import { findOperation, loadTable } from './spec-table.js';
import { CliUsageError } from './errors.js';

const FIXED_VALUES: Record<string, readonly string[]> = {
  output: ['json', 'ndjson', 'table'],
  network: ['testnet', 'mainnet'],
};

/** Candidates for the last word of `words` (the words after the program name, the last one being completed). */
export async function complete(words: readonly string[]): Promise<string[]> {
  const current = words[words.length - 1] ?? '';
  const before = words.slice(0, -1);
  const matching = (candidates: readonly string[]) => candidates.filter((candidate) => candidate.startsWith(current));
  if (before.length === 0) return matching([...CLI_APIS.flatMap((api) => [api.name, ...api.aliases]), ...TOP_COMMANDS]);
  if (before[0] === 'completion') return before.length === 1 ? matching(['bash', 'zsh', 'fish']) : [];
  if (before[0] === 'profile') return before.length === 1 ? matching(['set', 'list', 'path']) : matching(current.startsWith('--') ? ['--api', '--api-key', '--api-secret', '--base-url', '--network', '--ws-url'] : []);
  const api = findApi(before[0]!);
  if (api === undefined) return [];
  const table = await loadTable(api);
  if (before.length === 1) return matching([...table.operations.map((operation) => operation.name), ...(api.name === 'streams' ? ['latest', 'watch', 'verify'] : [])]);
  const operation = findOperation(table, before[1]!);
  const previous = before[before.length - 1]!;
  if (previous.startsWith('--')) {
    const flag = previous.slice(2);
    const param = operation?.params.find((candidate) => candidate.flag === flag);
    const values = param?.schema.enum ?? param?.schema.items?.enum ?? (param?.schema.type === 'boolean' ? ['true', 'false'] : FIXED_VALUES[flag]);
    if (values) return matching(values.map(String));
  }
  if (!current.startsWith('-')) return [];
  const flow = api.name === 'streams' && (before[1] === 'latest' || before[1] === 'watch' || before[1] === 'verify') ? before[1] : undefined;
  const flags = operation ? [...operationFlags(api, operation).keys()] : flow ? [...streamsFlowFlags(flow).keys()] : Object.keys(FLAGS);
  return matching(flags.map((flag) => `--${flag}`));
}

/** `service-sdk completion --help`. */
export const COMPLETION_HELP = `usage: service-sdk completion bash|zsh|fish

Prints a script that completes service-sdk's APIs, operations, flags and
enum values (from the specs, so it never goes stale):

  bash  eval "$(service-sdk completion bash)"        (in ~/.bashrc)
  zsh   eval "$(service-sdk completion zsh)"         (in ~/.zshrc)
  fish  service-sdk completion fish | source         (in config.fish)
`;

/** One word for a POSIX shell, single-quoted. */
function shellWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The script for `shell`. It asks `command` (the node binary and the bin
 * that printed the script, by absolute path) for candidates, so completion
 * works where `service-sdk` is not on PATH (a project install reached with
 * `npx service-sdk`) as well as for a global install; bash also completes
 * `npx service-sdk …`.
 */
export function completionScript(shell: string | undefined, command: readonly string[] = ['service-sdk']): string {
  const run = command.map(shellWord).join(' ');
  switch (shell) {
    case 'bash':
      return `# service-sdk completion for bash: eval "$(service-sdk completion bash)" (or npx service-sdk completion bash)
_service_sdk() {
  local IFS=$'\\n'
  COMPREPLY=( $(${run} __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) )
}
_service_sdk_npx() {
  COMPREPLY=()
  [[ \${COMP_WORDS[1]} == service-sdk && \${COMP_CWORD} -ge 2 ]] || return 0
  local IFS=$'\\n'
  COMPREPLY=( $(${run} __complete "\${COMP_WORDS[@]:2:COMP_CWORD-1}" 2>/dev/null) )
}
complete -o default -F _service_sdk service-sdk
complete -o default -F _service_sdk_npx npx
`;
    case 'zsh':
      return `#compdef service-sdk
# service-sdk completion for zsh: eval "$(service-sdk completion zsh)"
_service_sdk() {
  local -a candidates
  candidates=("\${(@f)$(${run} __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -a candidates
}
compdef _service_sdk service-sdk
`;
    case 'fish':
      return `# service-sdk completion for fish: service-sdk completion fish | source
function __service_sdk_complete
  set -l tokens (commandline -opc) (commandline -ct)
  ${run} __complete $tokens[2..-1] 2>/dev/null
end
complete -c service-sdk -f -a '(__service_sdk_complete)'
`;
    default:
      throw new CliUsageError(`completion: expected bash, zsh or fish${shell ? `, got ${JSON.stringify(shell)}` : ''}`);
  }
}
