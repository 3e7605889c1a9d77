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

In a project install, run it through npx (npx service-sdk completion bash):
the script calls that bin by its path, and completes npx service-sdk … too.
`;

/** One word for a POSIX shell, single-quoted. */
function shellWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The script for `shell`. It asks `command` (the node binary and the bin
 * that printed the script, by absolute path) for candidates, so completion
 * works where `service-sdk` is not on PATH (a project install reached with
 * `npx service-sdk`) as well as for a global install; each shell also
 * completes `npx service-sdk …`. Each script is tested in its real shell
 * (bash, zsh and fish) by the CLI's tests.
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
      return `#compdef service-sdk npx
# service-sdk completion for zsh: eval "$(service-sdk completion zsh)" (or npx service-sdk completion zsh)
_service_sdk() {
  local -a candidates
  # One candidate a line; no answer is no candidate (not an empty one), and then files, as bash's -o default.
  candidates=(\${(f)"$(${run} __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)"})
  if (( \${#candidates} )); then compadd -a candidates; else _default; fi
}
_service_sdk_npx() {
  # npx service-sdk …: completed as service-sdk from the word after npx; any other npx line as files.
  if [[ \${words[2]} == service-sdk ]] && (( CURRENT >= 3 )); then
    shift words
    (( CURRENT-- ))
    _service_sdk
  else
    _default
  fi
}
# compdef comes with zsh's completion system: start it if the .zshrc has not yet.
(( \${+functions[compdef]} )) || { autoload -Uz compinit && compinit; }
compdef _service_sdk service-sdk
compdef _service_sdk_npx npx
`;
    case 'fish':
      return `# service-sdk completion for fish: service-sdk completion fish | source (or npx service-sdk completion fish | source)
function __service_sdk_complete
  # The words after the first \$argv[1] (service-sdk itself; after npx, two), the one being completed last.
  set -l tokens (commandline -opc) (commandline -ct)
  set -l candidates (${run} __complete \$tokens[(math \$argv[1] + 1)..-1] 2>/dev/null)
  # Nothing to offer (a number, --data @file): files, as bash's -o default and zsh's _default.
  if set -q candidates[1]
    printf '%s\\n' \$candidates
  else
    __fish_complete_path (commandline -ct)
  end
end
function __service_sdk_after_npx
  set -l tokens (commandline -opc)
  test (count \$tokens) -ge 2; and test "\$tokens[2]" = service-sdk
end
complete -c service-sdk -f -a '(__service_sdk_complete 1)'
complete -c npx -n __service_sdk_after_npx -f -a '(__service_sdk_complete 2)'
`;
    default:
      throw new CliUsageError(`completion: expected bash, zsh or fish${shell ? `, got ${JSON.stringify(shell)}` : ''}`);
  }
}
