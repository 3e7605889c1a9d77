/**
 * The dynamic mode (`--dynamic`): three tools in place of the whole list, so
 * the agent's context holds a few hundred tokens of tools, not tens of
 * thousands. It searches the tools, reads one's input schema, then calls it.
 */
import { ToolInputError, type Tool } from './tool.js';

const MAX_RESULTS = 20;

function words(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

/** Tools ranked by how many of the query's words their name and description hold. */
export function searchTools(tools: readonly Tool[], query: string, limit = MAX_RESULTS): Tool[] {
  const wanted = words(query);
  return tools
    .map((tool) => {
      const haystack = new Set(words(`${tool.name} ${tool.description}`));
      const nameWords = new Set(words(tool.name));
      const score = wanted.reduce((sum, word) => sum + (nameWords.has(word) ? 2 : haystack.has(word) ? 1 : [...haystack].some((seen) => seen.startsWith(word)) ? 0.5 : 0), 0);
      return { tool, score };
    })
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name))
    .slice(0, limit)
    .map(({ tool }) => tool);
}

function named(tools: readonly Tool[], args: Record<string, unknown>): Tool {
  const name = args.name;
  if (typeof name !== 'string') throw new ToolInputError('name is required: a tool name from search_tools');
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new ToolInputError(`name: no tool ${JSON.stringify(name)}${readOnlyNote(tools)}; search_tools finds them`);
  return tool;
}

const readOnlyNote = (tools: readonly Tool[]) => (tools.every((tool) => tool.annotations.readOnlyHint) ? ' (this server is read-only)' : '');

/** The three tools of the dynamic mode over `tools`. */
export function dynamicTools(tools: readonly Tool[]): Tool[] {
  const api = tools[0]!.api;
  const readOnly = tools.every((tool) => tool.annotations.readOnlyHint);
  return [
    {
      name: 'search_tools',
      description: `Finds the tools of the ${[...new Set(tools.map((tool) => tool.api.name))].join(', ')} APIs whose name or description holds the query's words; answers their names, descriptions and whether they write. Then describe_tool, then call_tool.`,
      inputSchema: { type: 'object', properties: { query: { type: 'string', minLength: 1, description: 'Words: "list wallets", "evaluation", "report verify".' } }, required: ['query'], additionalProperties: false },
      annotations: { readOnlyHint: true, openWorldHint: false },
      api,
      run: async (args) => {
        if (typeof args.query !== 'string' || args.query.trim() === '') throw new ToolInputError('query is required: words to search the tools for');
        const found = searchTools(tools, args.query);
        return { value: { tools: found.map((tool) => ({ name: tool.name, description: tool.description, writes: !tool.annotations.readOnlyHint })) } };
      },
    },
    {
      name: 'describe_tool',
      description: 'A tool\'s input schema (JSON Schema) and hints, by its name from search_tools.',
      inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'The tool\'s name.' } }, required: ['name'], additionalProperties: false },
      annotations: { readOnlyHint: true, openWorldHint: false },
      api,
      run: async (args) => {
        const tool = named(tools, args);
        return { value: { name: tool.name, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations } };
      },
    },
    {
      name: 'call_tool',
      description: `Calls a tool by its name with its arguments (as describe_tool gives its schema); answers what the tool answers.${readOnly ? ' Read-only: only tools that read.' : ' Some tools write: search_tools says which.'}`,
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', description: 'The tool\'s name.' }, arguments: { type: 'object', description: 'The tool\'s arguments.' } },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: readOnly ? { readOnlyHint: true, openWorldHint: true } : { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      api,
      run: async (args, context) => {
        const tool = named(tools, args);
        const given = args.arguments ?? {};
        if (given === null || typeof given !== 'object' || Array.isArray(given)) throw new ToolInputError('arguments: expected an object');
        return tool.run(given as Record<string, unknown>, context);
      },
    },
  ];
}
